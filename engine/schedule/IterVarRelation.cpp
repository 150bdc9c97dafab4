#include "schedule/IterVarRelation.h"

#include "ir/Printer.h"
#include "support/Check.h"

namespace bs {

IterVarRelation IterVarRelation::split(IterVar parent, IterVar outer, IterVar inner, Expr factor,
                                       Expr nparts) {
    BS_CHECK(factor.defined() != nparts.defined()) << "a split has a factor or nparts, not both";
    auto* n = new SplitNode();
    n->parent = std::move(parent);
    n->outer = std::move(outer);
    n->inner = std::move(inner);
    n->factor = std::move(factor);
    n->nparts = std::move(nparts);
    return IterVarRelation(n);
}

IterVarRelation IterVarRelation::fuse(IterVar outer, IterVar inner, IterVar fused) {
    auto* n = new FuseNode();
    n->outer = std::move(outer);
    n->inner = std::move(inner);
    n->fused = std::move(fused);
    return IterVarRelation(n);
}

IterVarRelation IterVarRelation::rebase(IterVar parent, IterVar rebased) {
    auto* n = new RebaseNode();
    n->parent = std::move(parent);
    n->rebased = std::move(rebased);
    return IterVarRelation(n);
}

IterVarRelation IterVarRelation::singleton(IterVar iter) {
    auto* n = new SingletonNode();
    n->iter = std::move(iter);
    return IterVarRelation(n);
}

std::string toString(const IterVarRelation& rel) {
    auto name = [](const IterVar& iv) { return iv->var.name(); };
    if (const auto* s = rel.as<SplitNode>()) {
        std::string text = "split(parent=" + name(s->parent) + ", outer=" + name(s->outer) +
                           ", inner=" + name(s->inner);
        if (s->factor.defined())
            return text + ", factor=" + toString(s->factor) + ")";
        return text + ", nparts=" + toString(s->nparts) + ")";
    }
    if (const auto* f = rel.as<FuseNode>())
        return "fuse(outer=" + name(f->outer) + ", inner=" + name(f->inner) +
               ", fused=" + name(f->fused) + ")";
    if (const auto* r = rel.as<RebaseNode>())
        return "rebase(parent=" + name(r->parent) + ", rebased=" + name(r->rebased) + ")";
    if (const auto* g = rel.as<SingletonNode>())
        return "singleton(iter=" + name(g->iter) + ")";
    BS_UNREACHABLE("unknown relation");
}

} // namespace bs
