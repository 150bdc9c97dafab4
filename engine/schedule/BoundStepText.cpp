// The wording of the steps. Sets and ranges are simplified for reading only (the steps keep the
// values InferBound computed); a range prints as `[min, min + extent)` and a single point as
// `{v}`, so "a single point" and "an interval" read differently, as in the seed's tables.
#include "schedule/BoundStepText.h"

#include "arith/Analyzer.h"
#include "ir/Op.h"
#include "ir/Printer.h"

namespace bs::steptext {

namespace {

/// `D's j`: an IterVar with the stage it belongs to.
std::string owned(const std::string& owner, const IterVar& iv) {
    return owner.empty() ? ivName(iv) : owner + "'s " + ivName(iv);
}

std::string show(const Expr& e) {
    Analyzer analyzer;
    return toString(analyzer.simplify(e));
}

std::string show(const IntSet& s) {
    if (s.isNothing())
        return "{}";
    if (s.isSinglePoint())
        return "{" + show(s.pointValue()) + "}";
    std::string lo = s.hasLowerBound() ? show(s.min()) : "-inf";
    std::string hi = s.hasUpperBound() ? show(s.max()) : "+inf";
    return "[" + lo + ", " + hi + "]";
}

std::string show(const Range& r) {
    if (!r.defined())
        return "(undefined)";
    Analyzer analyzer;
    Expr min = analyzer.simplify(r.min);
    Expr end = analyzer.simplify(r.min + r.extent);
    return "[" + toString(min) + ", " + toString(end) + ")";
}

std::string extentOf(const Range& r) { return show(r.extent); }

std::string path(const AttachPath& ivs) {
    if (ivs.empty())
        return "none (at root)";
    // A path hundreds of loops long (a deep nest of attached stages) is named by its ends.
    constexpr size_t kNamed = 12;
    std::string text;
    for (size_t i = 0; i < ivs.size(); ++i) {
        if (ivs.size() > kNamed && i == kNamed - 2) {
            text += ", … (" + std::to_string(ivs.size() - kNamed) + " more)";
            i = ivs.size() - 3; // then the two outermost
            continue;
        }
        text += (i ? ", " : "") + ivName(ivs[i]);
    }
    return text;
}

/// Whether `a % b != 0` is known for constants (a split that does not divide its parent).
bool leavesRemainder(const Expr& a, const Expr& b) {
    auto ca = asConstInt(a), cb = asConstInt(b);
    return ca && cb && *cb > 0 && *ca % *cb != 0;
}

std::string splitDown(const SplitNode* s, const PassEvent& e) {
    const Range& parent = e.rangesIn.at(0).second;
    const bool byFactor = e.rule == PassRule::SplitByFactor;
    const IterVar& fixedChild = byFactor ? s->inner : s->outer;
    const IterVar& derivedChild = byFactor ? s->outer : s->inner;
    const Expr given = byFactor ? s->factor : s->nparts;
    const char* what = byFactor ? "factor" : "nparts";
    Range fixed, derived;
    for (const auto& [iv, r] : e.rangesOut) {
        if (iv.same_as(fixedChild))
            fixed = r;
        if (iv.same_as(derivedChild))
            derived = r;
    }
    std::string text = ivName(fixedChild) + " extent ";
    switch (e.tightening) {
    case Tightening::Tightened:
        text += "tightened to min(" + std::string(what) + " " + show(given) + ", parent extent " +
                extentOf(parent) + ") = " + extentOf(fixed);
        break;
    case Tightening::ThreadBound:
        text += "= " + std::string(what) + " " + show(given) +
                ", not tightened: a leaf derived from " + ivName(fixedChild) +
                " is bound to a thread, whose extent is the launch's";
        break;
    case Tightening::SeedRules:
        text += "= " + std::string(what) + " " + show(given) +
                " (the seed's rules never tighten a split)";
        break;
    case Tightening::EarlyPass:
        text += "= " + std::string(what) + " " + show(given) + " (the rewrite's early pass)";
        break;
    case Tightening::ZeroExtent:
        text += "= " + std::string(what) + " " + show(given) + " (the parent's extent is 0)";
        break;
    case Tightening::ParentNotSmaller:
    case Tightening::NotApplicable:
        text += "= " + std::string(what) + " " + show(given);
        if (e.tightening == Tightening::ParentNotSmaller)
            text +=
                ", not tightened: parent extent " + extentOf(parent) + " is not provably smaller";
        break;
    }
    text += "; " + ivName(derivedChild) + " extent = ceil(" + extentOf(parent) + " / " +
            show(given) + ") = " + extentOf(derived) + ".";
    if (leavesRemainder(parent.extent, given))
        text += " " + show(given) + " does not divide " + extentOf(parent) +
                ": the last iteration of " + ivName(s->outer) +
                " runs past the parent, so the loop nest needs a guard.";
    return text;
}

} // namespace

std::string ivName(const IterVar& iv) { return iv->var.name(); }

std::string attachedAt(const Stage& stage) {
    const Stage spec = stage.attachSpec();
    if (spec->attachType == AttachType::Scope)
        return "computed at " + spec->attachIVar->var.name() + " of '" + spec->attachStage.name() +
               "'" + (spec.same_as(stage) ? std::string() : " with its group " + spec.name());
    if (spec->attachType == AttachType::ScanUpdate)
        return "computed in every step of scan '" + spec->attachStage.name() + "'" +
               (spec.same_as(stage) ? " (its update)" : " with the scan's body " + spec.name());
    if (stage->attachType == AttachType::Inline || stage->attachType == AttachType::InlinedAlready)
        return "inlined";
    return "at root";
}

std::string visit(const Stage& stage, const StageVisit& v, const std::string& attachedAt) {
    std::string name = "'" + stage->op->name + "'";
    switch (v.kind) {
    case StageTrace::Kind::Placeholder:
        return "InferBound visits placeholder " + name + ": its ranges are its shape.";
    case StageTrace::Kind::Output:
        return "InferBound visits output " + name + ": its root ranges are its domain.";
    case StageTrace::Kind::InlinedAlready:
        return "InferBound skips " + name + ": it was inlined into its consumers.";
    case StageTrace::Kind::Computed:
        break;
    }
    return "InferBound visits " + name + ", " + attachedAt + "; attach path " + path(v.attachPath) +
           "; storage scope " + v.scope +
           (v.scopeInferred ? " (inferred from the threads on the attach path)" : " (set)") +
           ". Its root ranges come from what its consumers request.";
}

std::string consumer(const Stage& stage, const Operation& consumerOp, const ConsumerVisit& c,
                     const AttachPath& producerAttach) {
    std::string text = "Consumer '" + consumerOp->name + "' reads '" + stage->op->name + "'. ";
    if (producerAttach.empty())
        text += "'" + stage->op->name + "' is at root, so every loop of '" + consumerOp->name +
                "' is relaxed: the request covers all its iterations.";
    else
        text += "'" + stage->op->name + "' is computed at " + ivName(producerAttach.front()) +
                ": loops of '" + consumerOp->name +
                "' at or outside it stay single points, loops inside it are relaxed.";
    if (!c.consumerAttachPath.empty())
        text += " The loops around '" + consumerOp->name + "': " + path(c.consumerAttachPath) + ".";
    return text;
}

std::string leafSet(const LeafSetEntry& e, const std::string& owner) {
    std::string text = "Phase 1: " + owned(owner, e.iv) + " (range " + show(e.range) +
                       ") starts as " + show(e.set) + " — ";
    switch (e.leafCase) {
    case LeafCase::ExtentOne:
        text += "case 1: ";
        break;
    case LeafCase::NoRelax:
        text += "case 2, no relaxation: ";
        break;
    case LeafCase::Relax:
        text += "case 3, relaxed: ";
        break;
    case LeafCase::ThreadInRegion:
        text += "";
        break;
    }
    return text + e.reason + ".";
}

std::string relax(const RelaxEntry& e, const std::string& owner) {
    std::string who = e.var.same_as(e.iv->var)
                          ? owned(owner, e.iv)
                          : e.var.name() + " (bound to " + owned(owner, e.iv) + ")";
    return "Relax set: " + who + " ranges over " + show(e.set) + " — " + e.reason + ".";
}

std::string passUp(const PassEvent& e, const std::string& owner) {
    auto setOf = [](const std::vector<std::pair<IterVar, IntSet>>& sets, const IterVar& iv) {
        for (const auto& [x, s] : sets)
            if (x.same_as(iv))
                return show(s);
        return std::string("?");
    };
    const std::string in = e.setsIn.empty() ? "" : show(e.setsIn.front().second);
    return visitRelation(
        e.relation,
        Overloaded{
            [&](const SplitNode* s) -> std::string {
                std::string children = ivName(s->outer) + " = " + setOf(e.setsIn, s->outer) +
                                       " and " + ivName(s->inner) + " = " +
                                       setOf(e.setsIn, s->inner);
                if (e.rule == PassRule::SplitWholeParent)
                    return "PassUpDomain in '" + owner + "', split: " + children +
                           " cover their whole ranges, so " + ivName(s->parent) +
                           " takes its whole range " + setOf(e.setsOut, s->parent) + ".";
                return "PassUpDomain in '" + owner + "', split: " + ivName(s->parent) + " = " +
                       toString(e.evaluated) + " evaluated over " + children + " gives " +
                       setOf(e.setsOut, s->parent) +
                       " (the stride is the inner IterVar's extent, not the factor).";
            },
            [&](const FuseNode* f) -> std::string {
                std::string fused = ivName(f->fused);
                std::string out = ivName(f->outer) + " = " + setOf(e.setsOut, f->outer) + " and " +
                                  ivName(f->inner) + " = " + setOf(e.setsOut, f->inner);
                std::string row = show(e.evaluated);
                switch (e.rule) {
                case PassRule::FuseWhole:
                    return "PassUpDomain in '" + owner + "', fuse: " + fused + " = " + in +
                           " covers its whole range, so " + out + " (their whole ranges).";
                case PassRule::FusePoint:
                    return "PassUpDomain in '" + owner + "', fuse: " + fused +
                           " is the single value " + in + ", so " + ivName(f->outer) + " = " +
                           fused + " / " + row + " and " + ivName(f->inner) + " = " + fused +
                           " % " + row + ": " + out + ".";
                case PassRule::FuseOneRow:
                    return "PassUpDomain in '" + owner + "', fuse: the segment " + in + " of " +
                           fused + " stays in one row of " + ivName(f->inner) + " (extent " + row +
                           "): its length divides " + row +
                           " and its start is a multiple of its length, so " + out + ".";
                case PassRule::FuseWholeRows:
                    return "PassUpDomain in '" + owner + "', fuse: the segment " + in + " of " +
                           fused + " may cross a row of " + ivName(f->inner) + " (extent " + row +
                           "): its length does not provably divide " + row +
                           " or its start is not provably aligned, so " + ivName(f->outer) +
                           " takes the rows it spans and " + ivName(f->inner) +
                           " its whole range: " + out + ".";
                case PassRule::FuseFallback:
                    return "PassUpDomain in '" + owner + "', fuse: " + fused + " = " + in +
                           " is neither its whole range nor one value; the seed's rules (TVM 0.5, "
                           "before PR #3073) fall back to the whole ranges: " +
                           out + ".";
                default:
                    return "PassUpDomain in '" + owner + "', fuse: " + out + ".";
                }
            },
            [&](const RebaseNode* r) -> std::string {
                std::string head = "PassUpDomain in '" + owner + "', rebase: the rebased " +
                                   ivName(r->rebased) + " = " + in;
                if (e.rule == PassRule::RebaseWhole)
                    return head + " covers its whole range, so root " + ivName(r->parent) +
                           " takes its whole range " + setOf(e.setsOut, r->parent) + ".";
                return head + ", so root " + ivName(r->parent) + " = " + toString(e.evaluated) +
                       " = " + setOf(e.setsOut, r->parent) + ".";
            },
            [&](const SingletonNode*) -> std::string {
                return "PassUpDomain in '" + owner + "', singleton: nothing.";
            },
        });
}

std::string rootSet(const RootSetEntry& e, bool relaxed, const std::string& owner) {
    std::string text =
        "Phase 2: " + owner + "'s root " + ivName(e.iv) + " covers " + show(e.covered);
    if (!e.upState)
        text += " (no leaf reaches it: its domain)";
    if (relaxed)
        text += "; with the relax set its domain is " + show(e.domain);
    return text + ".";
}

std::string request(const RequestEntry& e, const Operation& consumerOp) {
    std::string text = "Phase 3: '" + consumerOp->name + "' reads " + e.tensor.name() + " axis " +
                       std::to_string(e.axis) + " at " + toString(e.index) +
                       ", which ranges over " + show(e.evaluated);
    if (e.clamped)
        text += "; the tensor's shape lies inside that, so the request is clamped to " +
                show(e.request);
    return text + ".";
}

std::string rootBound(const RootBound& b, size_t requests, const std::string& owner) {
    if (b.source != "union of the consumers' requests")
        return "Phase 4: " + owned(owner, b.iv) + " = " + show(b.range) + " — " + b.source +
               (b.unionSet ? " (the requests' union is " + show(*b.unionSet) + ")"
                           : std::string()) +
               ".";
    std::string text = "Phase 4: " + owned(owner, b.iv) + " = " + show(b.range) + ", ";
    if (requests == 1)
        text += "the one request " + (b.unionSet ? show(*b.unionSet) : "?");
    else
        text += "the union of " + std::to_string(requests) + " requests, " +
                (b.unionSet ? show(*b.unionSet) : "?") +
                " (the smallest interval holding them all, axis by axis)";
    return text + ".";
}

std::string passDown(const PassEvent& e, const std::string& owner) {
    if (e.rule == PassRule::ThreadBinding) {
        const auto& [leaf, r] = e.rangesIn.at(0);
        const IterVar& thread = e.rangesOut.at(0).first;
        return "PassDownDomain in '" + owner + "', thread binding: " + thread->var.name() +
               " takes the range of " + ivName(leaf) + ", which is bound to it: " + show(r) + ".";
    }
    return visitRelation(
        e.relation, Overloaded{
                        [&](const SplitNode* s) {
                            return "PassDownDomain in '" + owner + "', split of " +
                                   ivName(s->parent) + " " + show(e.rangesIn.at(0).second) + ": " +
                                   splitDown(s, e);
                        },
                        [&](const FuseNode* f) {
                            return "PassDownDomain in '" + owner + "', fuse: " + ivName(f->fused) +
                                   " extent = " + extentOf(e.rangesIn.at(0).second) + " x " +
                                   extentOf(e.rangesIn.at(1).second) + " = " +
                                   extentOf(e.rangesOut.at(0).second) + ".";
                        },
                        [&](const RebaseNode* r) {
                            return "PassDownDomain in '" + owner + "', rebase: the rebased " +
                                   ivName(r->rebased) + " runs " + show(e.rangesOut.at(0).second) +
                                   ", the extent of root " + ivName(r->parent) + " " +
                                   show(e.rangesIn.at(0).second) +
                                   " from 0 (normalize rebased every root loop).";
                        },
                        [&](const SingletonNode* g) {
                            return "PassDownDomain in '" + owner +
                                   "', singleton: " + ivName(g->iter) + " = [0, 1).";
                        },
                    });
}

std::string tightAxis(const IterVar& axis, const TightAxis& t, const std::string& owner) {
    if (!t.loop)
        return "Tight rules: " + owned(owner, axis) + " " + t.note + ".";
    std::string text = "Tight rules: " + owned(owner, axis) + " = " + show(*t.loop) + ", " + t.note;
    if (t.realize.defined())
        text +=
            "; the realize keeps extent " + show(t.realize) + ", its largest over the attach loop";
    return text + ".";
}

std::string tightRemainder(const IterVar& leaf, const Expr& extent, const Range& range,
                           const std::string& owner) {
    return "Tight rules: the loop over " + owned(owner, leaf) + " runs " + show(extent) +
           " iterations (the seed's min(factor, extent - outer*factor)) instead of " +
           extentOf(range) +
           ", so the last iteration computes only the remainder and needs no guard.";
}

} // namespace bs::steptext
