#include "schedule/IterVarRelation.h"

#include "ir/Printer.h"
#include "support/Check.h"

namespace bs {

IterVarRelation IterVarRelation::split(IterVar parent, IterVar outer, IterVar inner, Expr factor,
                                       Expr nparts, bool disablePredication) {
    BS_CHECK(factor.defined() != nparts.defined()) << "a split has a factor or nparts, not both";
    auto* n = new SplitNode();
    n->parent = std::move(parent);
    n->outer = std::move(outer);
    n->inner = std::move(inner);
    n->factor = std::move(factor);
    n->nparts = std::move(nparts);
    n->disablePredication = disablePredication;
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

std::vector<IterVar> relationInputs(const IterVarRelation& rel) {
    return visitRelation(rel,
                         Overloaded{
                             [](const SplitNode* s) { return std::vector<IterVar>{s->parent}; },
                             [](const FuseNode* f) {
                                 return std::vector<IterVar>{f->outer, f->inner};
                             },
                             [](const RebaseNode* r) { return std::vector<IterVar>{r->parent}; },
                             [](const SingletonNode*) { return std::vector<IterVar>{}; },
                         });
}

std::vector<IterVar> relationOutputs(const IterVarRelation& rel) {
    return visitRelation(rel,
                         Overloaded{
                             [](const SplitNode* s) {
                                 return std::vector<IterVar>{s->outer, s->inner};
                             },
                             [](const FuseNode* f) { return std::vector<IterVar>{f->fused}; },
                             [](const RebaseNode* r) { return std::vector<IterVar>{r->rebased}; },
                             [](const SingletonNode* g) { return std::vector<IterVar>{g->iter}; },
                         });
}

const char* relationKindName(RelationKind kind) {
    switch (kind) {
    case RelationKind::Split:
        return "split";
    case RelationKind::Fuse:
        return "fuse";
    case RelationKind::Rebase:
        return "rebase";
    case RelationKind::Singleton:
        return "singleton";
    }
    BS_UNREACHABLE("unknown relation kind");
}

std::string toString(const IterVarRelation& rel) {
    auto name = [](const IterVar& iv) { return iv->var.name(); };
    return visitRelation(
        rel, Overloaded{
                 [&](const SplitNode* s) {
                     std::string text = "split(parent=" + name(s->parent) +
                                        ", outer=" + name(s->outer) + ", inner=" + name(s->inner);
                     text += s->factor.defined() ? ", factor=" + toString(s->factor)
                                                 : ", nparts=" + toString(s->nparts);
                     return text + (s->disablePredication ? ", disable_predication=True)" : ")");
                 },
                 [&](const FuseNode* f) {
                     return "fuse(outer=" + name(f->outer) + ", inner=" + name(f->inner) +
                            ", fused=" + name(f->fused) + ")";
                 },
                 [&](const RebaseNode* r) {
                     return "rebase(parent=" + name(r->parent) + ", rebased=" + name(r->rebased) +
                            ")";
                 },
                 [&](const SingletonNode* g) { return "singleton(iter=" + name(g->iter) + ")"; },
             });
}

} // namespace bs
