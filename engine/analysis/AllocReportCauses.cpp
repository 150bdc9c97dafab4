// The causes of the allocation report (analysis/AllocReport.h): every difference between the
// elements allocated under the rule sets, the elements one iteration needs and the elements
// computed is attributed to what produced it, read off the InferBound traces (which consumer
// fused or split what, which loops were relaxed and why) and the tight rules' exact counts.
#include "analysis/AllocReportInternal.h"

#include "arith/Analyzer.h"
#include "ir/Functor.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "ir/StorageScope.h"
#include "schedule/MessagePassing.h"
#include "te/Operation.h"

#include <algorithm>
#include <cstdio>

namespace bs::alloc {

namespace {

std::optional<int64_t> allocated(const BufferFacts& f, BoundRules rules) {
    const RuleAllocation* a = f.report->allocation(rules);
    return a ? a->allocated : std::nullopt;
}

std::optional<int64_t> computed(const BufferFacts& f, BoundRules rules) {
    const RuleAllocation* a = f.report->allocation(rules);
    return a ? a->computed : std::nullopt;
}

bool greater(std::optional<int64_t> a, std::optional<int64_t> b) { return a && b && *a > *b; }

/// "computed 1.25 times on average".
std::string timesOnAverage(int64_t computed, int64_t distinct) {
    char text[64];
    std::snprintf(text, sizeof text, "computed %.2f times on average",
                  double(computed) / double(distinct));
    return text;
}

/// A fuse in a consumer whose fused loop is read one segment at a time.
struct FusedSegment {
    std::string consumer;
    Operation consumerOrigin;
    const FuseNode* fuse = nullptr;
    Expr rowLength;         ///< the inner (row) extent
    Expr segment;           ///< elements of the fused loop one iteration reads
    bool wholeRows = false; ///< the rule set took whole rows for it
};

/// Phase 2 of every consumer once more (from the traced leaf sets) to see each fuse's set.
std::vector<FusedSegment> fusedSegments(const BufferFacts& f, const RuleRun& run) {
    std::vector<FusedSegment> out;
    const StageTrace* trace = run.traceOf(f.origin);
    if (!trace)
        return out;
    Analyzer analyzer;
    for (const ConsumerTrace& ct : trace->consumers) {
        Stage consumer = run.normalized.stageOf(ct.consumer);
        IterVarMap<IntSet> state;
        for (const LeafSetEntry& e : ct.leafSets)
            state[e.iv] = e.set;
        passUpDomain(consumer, run.result.bounds, run.rules, &state);
        for (const IterVarRelation& rel : consumer->relations) {
            const auto* fuse = rel.as<FuseNode>();
            if (!fuse || !state.count(fuse->fused))
                continue;
            const IntSet& fused = state.at(fuse->fused);
            if (fused.isSinglePoint() || fused.matchRange(run.result.bounds.at(fuse->fused)) ||
                !fused.hasLowerBound() || !fused.hasUpperBound())
                continue;
            FusedSegment s{ct.consumer->name,
                           consumer->originOp,
                           fuse,
                           run.result.bounds.at(fuse->inner).extent,
                           analyzer.simplify(fused.max() - fused.min() + 1),
                           state.at(fuse->inner).matchRange(run.result.bounds.at(fuse->inner))};
            out.push_back(s);
        }
    }
    return out;
}

std::string fuseName(const FusedSegment& s) {
    return s.consumer + " fuses " + s.fuse->outer->var.name() + " and " + s.fuse->inner->var.name();
}

/// Elements computed under `rules`: the iterations of the loop nest, less the reduction's own
/// loops (each element is one reduction over them).
std::optional<int64_t> elementsComputed(const BufferFacts& f, BoundRules rules) {
    std::optional<int64_t> iterations = computed(f, rules);
    const auto* op = f.origin.as<ComputeOpNode>();
    if (!iterations || !op)
        return iterations;
    const auto* reduce = op->body[0].as<ReduceNode>();
    for (const IterVar& k : reduce ? reduce->axis : op->reduceAxis) {
        std::optional<int64_t> extent = asConstInt(k->dom.extent);
        if (!extent || *extent <= 0)
            return std::nullopt;
        *iterations /= *extent;
    }
    return iterations;
}

/// What computing whole rows costs over the run, where it shows.
std::string recomputedRows(const BufferFacts& f) {
    std::optional<int64_t> done =
        elementsComputed(f, f.runs.size() > 2 ? BoundRules::Tight : BoundRules::Tvm);
    if (!greater(done, f.report->distinct))
        return "";
    return "; the rows shared by two iterations are computed by both: " + countText(done) +
           " elements for the " + countText(f.report->distinct) + " read, each " +
           timesOnAverage(*done, *f.report->distinct);
}

/// The split of `fused` in the consumer made from `consumer`: the loop whose segments wrap rows.
const SplitNode* splitOf(const RuleRun& run, const Operation& consumer, const IterVar& fused) {
    Stage stage = run.stageOf(consumer);
    if (!stage.defined())
        return nullptr;
    for (const IterVarRelation& rel : stage->relations)
        if (const auto* split = rel.as<SplitNode>(); split && split->parent.same_as(fused))
            return split;
    return nullptr;
}

/// Split sizes whose segments never span two rows of `row`: factors that divide it (largest
/// first, at most the current segment), or the nparts that give such factors.
std::vector<int64_t> alignedSplits(const SplitNode* split, int64_t row, int64_t total,
                                   int64_t segment) {
    std::vector<int64_t> out;
    for (int64_t d = std::min(row, segment); d >= 1 && out.size() < 3; --d) {
        if (row % d != 0)
            continue;
        if (split->factor.defined())
            out.push_back(d);
        else if (total % d == 0)
            out.push_back(total / d);
    }
    return out;
}

/// A tried split that aligns the fused segments with the rows, or "".
std::string alignSplitHint(const BufferFacts& f, const FusedSegment& s) {
    const SplitNode* split = splitOf(*f.runs[1], s.consumerOrigin, s.fuse->fused);
    std::optional<int64_t> row = asConstInt(s.rowLength), segment = asConstInt(s.segment);
    std::optional<int64_t> total = asConstInt(f.runs[1]->result.bounds.at(s.fuse->fused).extent);
    if (!split || !row || !segment || !total)
        return "";
    const char* what = split->factor.defined() ? "factor" : "nparts";
    Expr given = split->factor.defined() ? split->factor : split->nparts;
    for (int64_t value : alignedSplits(split, *row, *total, *segment)) {
        FixTrial trial{
            "split " + s.fuse->fused->var.name() + " by " + what + " " + std::to_string(value) +
                " instead of " + toString(given) + " (segments within one row of " +
                std::to_string(*row) + ")",
            [&](const Schedule& copy) { resplit(copy, s.consumerOrigin, split, value); }};
        std::string hint = tryFix(f, trial);
        if (!hint.empty())
            return hint;
    }
    return "";
}

void fuseCauses(const BufferFacts& f, std::vector<AllocCause>& out) {
    const std::string& name = f.report->name;
    if (greater(allocated(f, BoundRules::Tvm05), allocated(f, BoundRules::Tvm)))
        for (const FusedSegment& s : fusedSegments(f, *f.runs[0]))
            out.push_back(
                {WasteCause::FuseFallback,
                 "TVM 0.5 widens a fused segment to the full fused ranges",
                 fuseName(s) + "; one iteration reads a segment of " + toString(s.segment) +
                     " elements of the fused loop, which tvm-0.5 widens to the full ranges "
                     "of both: " +
                     name + " allocates " + countText(allocated(f, BoundRules::Tvm05)) +
                     " instead of " + countText(allocated(f, BoundRules::Tvm)) +
                     " and computes all of " + "them on every iteration, " +
                     countText(computed(f, BoundRules::Tvm05)) +
                     " in all (TVM computes only the segment since PR #3073, in v0.6.0)",
                 "",
                 {BoundRules::Tvm05}});
    for (const FusedSegment& s : fusedSegments(f, *f.runs[1])) {
        // Only where the box of whole rows holds more than one iteration reads.
        if (!s.wholeRows || !greater(allocated(f, BoundRules::Tvm), f.report->needed))
            continue;
        std::vector<BoundRules> rules{BoundRules::Tvm};
        if (f.runs.size() > 2 && greater(allocated(f, BoundRules::Tight), f.report->needed))
            rules.push_back(BoundRules::Tight);
        const RuleAllocation* tvm = f.report->allocation(BoundRules::Tvm);
        std::string varies = tvm && tvm->varies ? "; under tvm the number of rows varies with the "
                                                  "iteration (at most " +
                                                      countText(tvm->allocated) + " elements)"
                                                : "";
        out.push_back({WasteCause::FusedSegmentWrapsRow, "the fused segment wraps a row",
                       fuseName(s) + " (rows of " + toString(s.rowLength) +
                           "); one iteration reads " + toString(s.segment) +
                           " consecutive elements of the fused loop, which can "
                           "span two rows, so the bounding box is whole rows: " +
                           name + " holds " + countText(allocated(f, rules.back())) +
                           " elements for " + countText(f.report->needed) + " read" + varies +
                           recomputedRows(f),
                       alignSplitHint(f, s), rules});
    }
}

std::string plural(std::optional<int64_t> n, const char* what) {
    return countText(n) + " " + what + (n == 1 ? "" : "s");
}

/// The steps of `run` about the stage of `origin` (its own, and its consumers' phases).
std::vector<const BoundStep*> stepsAbout(const RuleRun& run, const Operation& origin,
                                         StepPhase phase) {
    std::vector<const BoundStep*> out;
    Stage stage = run.stageOf(origin);
    if (!stage.defined())
        return out;
    for (const BoundStep& step : run.result.steps.all())
        if (step.phase == phase && step.stage.same_as(stage->op))
            out.push_back(&step);
    return out;
}

/// Splits of the stage's consumers that the tvm rules tighten to a smaller parent and the
/// tvm-0.5 rules do not: their loops run the factor, so the consumer asks for more.
std::vector<std::string> tightenedSplits(const BufferFacts& f) {
    std::vector<std::string> out;
    const StageTrace* trace = f.runs[1]->traceOf(f.origin);
    if (!trace)
        return out;
    for (const ConsumerTrace& ct : trace->consumers)
        for (const BoundStep& step : f.runs[1]->result.steps.all()) {
            if (step.phase != StepPhase::PassDown || !step.stage.same_as(ct.consumer) ||
                step.rule.find("/tightened") == std::string::npos)
                continue;
            const auto* split = step.relation.as<SplitNode>();
            out.push_back(ct.consumer->name + "'s split of " + split->parent->var.name() + " by " +
                          toString(split->factor.defined() ? split->factor : split->nparts) +
                          " (tvm runs the parent's smaller extent, tvm-0.5 the whole factor)");
        }
    return out;
}

/// Reads of the stage whose request the tvm rules clamp to the shape and the tvm-0.5 rules
/// (TVM v0.5 has no clamp) do not.
std::vector<std::string> clampedRequests(const BufferFacts& f) {
    std::vector<std::string> out;
    for (const BoundStep* step : stepsAbout(*f.runs[1], f.origin, StepPhase::Request))
        if (step->rule == "clamped")
            out.push_back(step->consumer->name + "'s read of axis " + std::to_string(step->axis) +
                          " (tvm clamps it to the tensor's shape, tvm-0.5 does not)");
    return out;
}

std::string joined(const std::vector<std::string>& items) {
    std::string out;
    for (size_t i = 0; i < items.size(); ++i)
        out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
    return out;
}

/// A variable that occurs more than once in `index`: interval arithmetic takes each occurrence
/// on its own (`i + (0 - i)` over i in [0, 9] gives [-9, 9], not [0, 0]).
std::optional<Var> repeatedVariable(const Expr& index) {
    if (!index.defined())
        return std::nullopt;
    VarMap<int> count;
    std::optional<Var> repeated;
    postOrderVisit(index, [&](const NodeRef& node) {
        if (const auto* v = node.as<VarNode>(); v && ++count[Var(v)] == 2 && !repeated)
            repeated = Var(v);
    });
    return repeated;
}

/// What makes the tvm rules' interval arithmetic looser than the exact need: a read whose index
/// uses a variable twice, a consumer's split or fuse the request passes up through, an extent
/// that changes with the attach loop. Only what the steps show.
std::vector<std::string> intervalMechanisms(const BufferFacts& f, std::string* hint) {
    std::vector<std::string> out;
    for (const BoundStep* step : stepsAbout(*f.runs[1], f.origin, StepPhase::Request)) {
        if (step->inputs.empty())
            continue;
        const StepValue& index = step->inputs.front();
        std::optional<Var> v = repeatedVariable(index.expr);
        if (!v)
            continue;
        const auto* request = std::get_if<RequestEntry>(&step->detail);
        out.push_back(step->consumer->name + " reads axis " + std::to_string(step->axis) + " at " +
                      toString(index.expr) + ", which uses " + v->name() +
                      " twice: intervals take the two uses apart and give " +
                      (request ? request->evaluated : *step->outputs.front().set).toString());
        *hint = "write " + step->consumer->name + "'s index without the repeated " + v->name() +
                " (simplify it): its interval is then exact";
    }
    for (const BoundStep* step : stepsAbout(*f.runs[1], f.origin, StepPhase::PassUp))
        if (step->rule == "split-evaluated" || step->rule == "fuse-whole-rows")
            out.push_back(
                step->consumer->name + "'s " + toString(step->relation) +
                (step->rule == "fuse-whole-rows" ? " (whole rows)" : " (intervals of its loops)"));
    const RuleAllocation* tvm = f.report->allocation(BoundRules::Tvm);
    if (tvm && tvm->varies)
        out.push_back("an extent that changes with the loops around " + f.report->name +
                      " (the realize takes its largest, " + countText(tvm->allocated) + ")");
    return out;
}

/// Interval imprecision the fuse causes above do not explain.
void imprecisionCauses(const BufferFacts& f, std::vector<AllocCause>& out) {
    auto explained = [&](WasteCause c) {
        return std::any_of(out.begin(), out.end(),
                           [&](const AllocCause& x) { return x.kind == c; });
    };
    if (greater(allocated(f, BoundRules::Tvm05), allocated(f, BoundRules::Tvm)) &&
        !explained(WasteCause::FuseFallback)) {
        std::vector<std::string> why = tightenedSplits(f);
        for (const std::string& c : clampedRequests(f))
            why.push_back(c);
        out.push_back({WasteCause::IntervalImprecision,
                       "TVM 0.5's rules are looser",
                       "tvm-0.5 allocates " + countText(allocated(f, BoundRules::Tvm05)) +
                           " elements, tvm " + countText(allocated(f, BoundRules::Tvm)) +
                           (why.empty() ? std::string() : ": " + joined(why)),
                       "",
                       {BoundRules::Tvm05}});
    }
    bool looserThanTight = f.runs.size() > 2 &&
                           greater(allocated(f, BoundRules::Tvm), allocated(f, BoundRules::Tight));
    bool repeated = false;
    for (const BoundStep* step : stepsAbout(*f.runs[1], f.origin, StepPhase::Request))
        repeated |=
            !step->inputs.empty() && repeatedVariable(step->inputs.front().expr).has_value();
    bool looserThanNeeded = repeated && greater(allocated(f, BoundRules::Tvm), f.report->needed);
    if ((looserThanTight || looserThanNeeded) && !explained(WasteCause::FusedSegmentWrapsRow)) {
        std::string hint;
        std::vector<std::string> why = intervalMechanisms(f, &hint);
        out.push_back(
            {WasteCause::IntervalImprecision,
             "interval arithmetic over the consumers' loops is loose",
             "the tvm rules bound each read by intervals; the exact need is " +
                 plural(looserThanTight ? allocated(f, BoundRules::Tight) : f.report->needed,
                        "element") +
                 ", not " + countText(allocated(f, BoundRules::Tvm)) +
                 (why.empty() ? std::string() : ": " + joined(why)),
             hint,
             {BoundRules::Tvm05, BoundRules::Tvm}});
    }
}

/// `s[B].compute_inline()`, tried: what the buffer becomes, or "" when it cannot be inlined.
std::string inlineHint(const BufferFacts& f) {
    return tryFix(
        f, FixTrial{"s[" + f.report->stage + "].compute_inline()",
                    [&](const Schedule& copy) { stageToFix(copy, f.origin).computeInline(); }});
}

/// `CA reads T[0:2, 0:2]`, or `C reads B[(i*2)] within B[0:15]` when the read is not its box.
std::string readText(const std::string& name, const StageNeed::Access& a) {
    std::string read;
    for (const Expr& e : a.indices)
        read += (read.empty() ? "" : ", ") + toString(e);
    std::string box = name + "[" + a.region + "]";
    if (a.count && a.hull && *a.count == *a.hull)
        return a.consumer->name + " reads " + box;
    return a.consumer->name + " reads " + name + "[" + read + "] within " + box;
}

/// Reads whose box is larger than what they read, and reads whose union's box is.
void readShapeCauses(const BufferFacts& f, std::vector<AllocCause>& out) {
    if (!*f.need)
        return;
    const StageNeed& need = **f.need;
    const std::string& name = f.report->name;
    std::vector<BoundRules> every{BoundRules::Tvm05, BoundRules::Tvm};
    if (f.runs.size() > 2)
        every.push_back(BoundRules::Tight);
    bool wraps = std::any_of(out.begin(), out.end(), [](const AllocCause& c) {
        return c.kind == WasteCause::FusedSegmentWrapsRow;
    });
    std::string inlined;
    bool triedInline = false;
    auto inlineOnce = [&]() -> const std::string& {
        if (!triedInline)
            inlined = inlineHint(f);
        triedInline = true;
        return inlined;
    };
    for (const StageNeed::Access& a : need.accesses) {
        // A read whose box is known and larger than what it reads; a box ISL could not bound
        // (a floordiv that wraps) is not a stride.
        if (wraps || !greater(a.hull, a.count) || a.region.find('?') != std::string::npos)
            continue;
        out.push_back(
            {WasteCause::StridedRead, "the interval hull of a strided or non-contiguous read",
             readText(name, a) + ": one iteration reads " + plural(a.count, "element") +
                 " spread over a box of " + countText(a.hull) + "; no rectangle holds only those",
             inlineOnce(), every});
    }
    int64_t largest = 0;
    for (const StageNeed::Access& a : need.accesses)
        largest = std::max(largest, a.hull.value_or(0));
    if (need.accesses.size() < 2 || !greater(need.hull, need.needed) ||
        !greater(need.hull, largest))
        return;
    std::string reads;
    for (size_t i = 0; i < need.accesses.size(); ++i)
        reads += (i == 0                          ? ""
                  : i + 1 == need.accesses.size() ? " and "
                                                  : ", ") +
                 readText(name, need.accesses[i]);
    out.push_back({WasteCause::DisjointRequests,
                   "the dimension-wise union of disjoint consumer requests",
                   reads + ": united axis by axis they span a box of " + countText(need.hull) +
                       " elements, " + countText(need.needed) +
                       " of them read; no rectangle holds only those",
                   inlineOnce(), every});
}

/// Threads relaxed by their binding or the storage scope (phase 1's reasons in the trace).
void threadCause(const BufferFacts& f, std::vector<AllocCause>& out) {
    if (!greater(f.report->needed, f.report->perThread))
        return;
    const StageTrace* trace = f.runs[1]->traceOf(f.origin);
    std::vector<std::string> threads;
    auto note = [&](const IterVar& iv, const std::string& reason) {
        if (reason.rfind("bound to ", 0) != 0)
            return;
        auto bound = f.runs[1]->bindMap.find(iv);
        std::string tag =
            bound != f.runs[1]->bindMap.end() ? bound->second->threadTag : iv->threadTag;
        if (std::find(threads.begin(), threads.end(), tag) == threads.end())
            threads.push_back(tag);
    };
    for (const ConsumerTrace& ct : trace->consumers) {
        for (const LeafSetEntry& e : ct.leafSets)
            if (e.leafCase == LeafCase::Relax)
                note(e.iv, e.reason);
        for (const RelaxEntry& e : ct.relaxSet)
            note(e.iv, e.reason);
    }
    std::string list;
    for (const std::string& t : threads)
        list += (list.empty() ? "" : ", ") + t;
    const std::string& scope = f.report->scope;
    std::string byDesign = scope == "shared"
                               ? " (intended when the threads of a block load it together)"
                           : scope == "warp" ? " (a warp's lanes share it by design)"
                                             : "";
    std::string hint;
    if (scope != "local")
        hint = tryFix(
            f, FixTrial{"s[" + f.report->stage + "].set_scope('local')", [&](const Schedule& copy) {
                            stageToFix(copy, f.origin).setScope("local");
                        }});
    out.push_back({WasteCause::ThreadRelaxation,
                   "relaxation by thread binding or storage scope",
                   (list.empty() ? std::string("thread loops") : list) + " relaxed: the " + scope +
                       " buffer is shared by the threads bound to them; one thread reads " +
                       plural(f.report->perThread, "element") + ", all of them " +
                       countText(f.report->needed) + byDesign,
                   hint,
                   {BoundRules::Tvm05, BoundRules::Tvm, BoundRules::Tight}});
}

/// " (the interpreter ran N stores: the bound check skips the rest)" where it tells.
std::string skippedText(const BufferFacts& f, const Stage& stage) {
    std::optional<int64_t> iterations = computed(f, BoundRules::Tvm),
                           stores = f.report->computedRun;
    const auto* op = stage->op.as<ComputeOpNode>();
    if (!greater(iterations, stores) || !op ||
        op->isReduction()) // a reduction also stores its init
        return "";
    return " (the interpreter ran " + countText(stores) +
           " stores: a bound check skips the other " + std::to_string(*iterations - *stores) + ")";
}

/// Why the tight rules keep a split's factor, as InferBound recorded it (KeptFactor).
std::string keptReason(const RuleRun& run, const Stage& stage, const SplitNode* s) {
    auto why = run.result.keptFactors.find(s->inner);
    if (why == run.result.keptFactors.end())
        return "the tight rules cannot run its remainder in this loop nest, so the last "
               "iterations run behind a bound check";
    switch (why->second) {
    case KeptFactor::NoPredicate:
        return "it asks for no predicate (disable_predication), so the last iterations run past "
               "the end unguarded";
    case KeptFactor::ThreadBound:
        for (const auto& [loop, which] : {std::pair<IterVar, const char*>{s->inner, "inner"},
                                          std::pair<IterVar, const char*>{s->outer, "outer"}}) {
            auto bound = run.bindMap.find(loop);
            if (bound == run.bindMap.end())
                continue;
            const std::string& tag = bound->second->threadTag;
            return std::string("its ") + which + " loop is bound to " + tag + ", so the last " +
                   (ThreadScope::create(tag).rank == 0 ? "blocks" : "threads") +
                   " run idle behind a bound check";
        }
        return "a loop split from it is bound to a GPU thread, so the last threads run idle "
               "behind a bound check";
    case KeptFactor::ConstantLoop:
        if (const IterVarAttr* attr = stage.attrOf(s->inner);
            attr && attr->iterType == IterVarType::Vectorized)
            return "its inner loop is vectorized, so the last vector runs past the end behind a "
                   "bound check";
        return "a loop split from it is vectorized or unrolled, which needs a constant extent, "
               "so the last iterations run past the end behind a bound check";
    case KeptFactor::NotExpressible:
        return "a fuse or split of its loops needs rows of one length, so the last iterations "
               "run behind a bound check";
    case KeptFactor::NotInLoopOrder:
        return "its loops are reordered (the loop that would run the remainder is outside the "
               "loop it depends on), so the last iterations run behind a bound check";
    }
    return "";
}

/// A split by a factor that divides the parent's extent, tried (largest first, up to the
/// current factor): what the buffer then computes; "" where none helps.
std::string dividingSplitHint(const BufferFacts& f, const Operation& stageOrigin,
                              const SplitNode* s, std::optional<int64_t> extent,
                              std::optional<int64_t> factor) {
    if (!extent || !factor || !s->factor.defined())
        return "";
    for (int64_t d = std::min(*extent, *factor); d >= 2; --d) {
        if (*extent % d != 0)
            continue;
        FixTrial trial{"split " + s->parent->var.name() + " of " + stageOrigin->name +
                           " by factor " + std::to_string(d) + " instead of " +
                           std::to_string(*factor) + " (it divides " + std::to_string(*extent) +
                           ")",
                       [&](const Schedule& copy) { resplit(copy, stageOrigin, s, d); }};
        std::string hint = tryFix(f, trial, FixGoal::SmallerOrComputeLess);
        if (!hint.empty())
            return hint;
        break; // the largest divisor did not help; smaller ones will not either
    }
    return "";
}

/// Splits in the stage or in the consumers it is computed in whose last iteration runs past
/// the end: the tight rules run only the remainder where they can (computed, not allocated).
void remainderCause(const BufferFacts& f, std::vector<AllocCause>& out) {
    if (f.runs.size() < 3)
        return;
    const RuleRun& tight = *f.runs[2];
    std::vector<Stage> stages{tight.stageOf(f.origin)};
    for (const ConsumerTrace& ct : tight.traceOf(f.origin)->consumers)
        stages.push_back(tight.normalized.stageOf(ct.consumer));
    for (const Stage& stage : stages)
        for (const IterVarRelation& rel : stage->relations) {
            const auto* s = rel.as<SplitNode>();
            if (!s)
                continue;
            Expr extent = tight.result.bounds.at(s->parent).extent;
            Expr factor = tight.result.bounds.at(s->inner).extent;
            std::optional<int64_t> e = asConstInt(extent), fct = asConstInt(factor),
                                   parts = asConstInt(tight.result.bounds.at(s->outer).extent);
            // PassUpBoundCheck's test: the split covers more than its parent (an nparts split
            // of 9 into 4 parts of 3 covers 12, though 3 divides 9).
            const bool overruns = e && fct && parts && *parts * *fct > *e;
            bool shortened = tight.result.loopExtents.count(s->inner) > 0;
            if (shortened
                    ? !greater(computed(f, BoundRules::Tvm), computed(f, BoundRules::Tight))
                    : !(overruns && greater(computed(f, BoundRules::Tight), f.report->distinct)))
                continue;
            const int64_t left = overruns ? *e - (*parts - 1) * *fct : 0;
            std::string last = !overruns   ? "the remainder"
                               : left <= 0 ? "nothing"
                                           : std::to_string(left);
            std::string what = stage->originOp->name + " splits " + s->parent->var.name() +
                               " (extent " + toString(extent) + ") by " + toString(factor) +
                               ": the last iteration of " + s->outer->var.name() + " needs " +
                               last + ", not " + toString(factor) + "; ";
            std::string hint = dividingSplitHint(f, stage->originOp, s, e, fct);
            if (shortened)
                out.push_back({WasteCause::SplitRemainder,
                               "a split remainder (computed, not allocated)",
                               what + f.report->name + " computes " +
                                   countText(computed(f, BoundRules::Tvm)) + " elements under tvm" +
                                   skippedText(f, stage) + ", " +
                                   countText(computed(f, BoundRules::Tight)) +
                                   " under tight, which runs only the remainder",
                               hint,
                               {BoundRules::Tvm05, BoundRules::Tvm}});
            else
                out.push_back({WasteCause::SplitRemainder,
                               "a split remainder (computed, not allocated)",
                               what + keptReason(tight, stage, s) + ": " + f.report->name +
                                   " runs " + countText(computed(f, BoundRules::Tight)) +
                                   " iterations for " + countText(f.report->distinct) +
                                   " elements under every rule set" + skippedText(f, stage),
                               hint,
                               {BoundRules::Tvm05, BoundRules::Tvm, BoundRules::Tight}});
        }
}

/// Iterations whose regions overlap compute the shared elements again (a stencil's halo, a
/// block's copy of a tile). What the other causes already explain is not counted twice.
void recomputeCause(const BufferFacts& f, std::vector<AllocCause>& out) {
    std::optional<int64_t> done =
        elementsComputed(f, f.runs.size() > 2 ? BoundRules::Tight : BoundRules::Tvm);
    const StageTrace* trace = f.runs[1]->traceOf(f.origin);
    // A stage computed at the root computes each element once; its excess is the box's.
    if (f.report->isOutput || !trace || trace->attachPath.empty() ||
        !greater(done, f.report->distinct))
        return;
    for (const AllocCause& c : out)
        if (c.kind != WasteCause::FuseFallback && c.kind != WasteCause::IntervalImprecision &&
            c.kind != WasteCause::ThreadRelaxation)
            return; // the box's own waste is computed too: the excess is not all recomputation
    std::string at = trace->attachPath.front()->var.name();
    const std::string& name = f.report->name;
    const std::string& scope = f.report->scope;
    bool cache = scope == "shared" || scope == "local" || scope == "warp";
    out.push_back({WasteCause::Recompute,
                   "overlapping iterations compute the same elements again",
                   "the iterations of the loops around " + name + " (attached at " + at +
                       ") need overlapping "
                       "regions: " +
                       name + " computes " + countText(done) + " elements for the " +
                       countText(f.report->distinct) + " its consumers read, each of them " +
                       timesOnAverage(*done, *f.report->distinct) +
                       (cache ? " (by design for a " + scope +
                                    " copy: each block or thread loads what it reads)"
                              : ""),
                   cache ? ""
                         : tryFix(f,
                                  FixTrial{"s[" + f.report->stage + "].compute_root()",
                                           [&](const Schedule& copy) {
                                               stageToFix(copy, f.origin).computeRoot();
                                           }},
                                  FixGoal::SmallerOrComputeLess),
                   {BoundRules::Tvm05, BoundRules::Tvm, BoundRules::Tight}});
}

/// A stage whose own loop is bound to a thread its storage is private to (threadIdx and a local
/// buffer, blockIdx and a shared one): ScheduleOps gives that loop its min (notes section 8),
/// so every thread computes the whole region into its own copy.
void threadIndexCause(const BufferFacts& f, std::vector<AllocCause>& out) {
    const RuleRun& run = *f.runs[1];
    Stage stage = run.stageOf(f.origin);
    if (!stage.defined())
        return;
    for (const IterVar& leaf : stage->leafIterVars) {
        const IterVarAttr* attr = stage.attrOf(leaf);
        if (!attr || !attr->bindThread.defined())
            continue;
        // Virtual threads are the vthread cause's.
        const std::string& tag = attr->bindThread->threadTag;
        if (tag == "vthread" || tag == "cthread" || threadSharesStorage(stage->scope, tag))
            continue;
        const std::string& name = f.report->name;
        std::string hint;
        const StageTrace* trace = run.traceOf(f.origin);
        for (const ConsumerTrace& ct : trace ? trace->consumers : std::vector<ConsumerTrace>{}) {
            Stage consumer = run.normalized.stageOf(ct.consumer);
            for (const IterVar& cl : consumer->leafIterVars) {
                const IterVarAttr* ca = consumer.attrOf(cl);
                if (!ca || !ca->bindThread.defined() || ca->bindThread->threadTag != tag ||
                    !hint.empty())
                    continue;
                const Operation consumerOrigin = consumer->originOp;
                hint = tryFix(f, FixTrial{"s[" + f.report->stage + "].compute_at(s[" +
                                              consumerOrigin->name + "], " + cl->var.name() + ")",
                                          [&](const Schedule& copy) {
                                              stageToFix(copy, f.origin)
                                                  .computeAt(stageToFix(copy, consumerOrigin), cl);
                                          }});
            }
        }
        // Warp storage is shared by a warp's lanes (threadIdx.x): threadIdx.y and .z are other
        // warps, each with its own copy.
        const bool perBlock = ThreadScope::create(tag).rank == 0;
        const bool perWarp = StorageScope::create(stage->scope).rank == StorageRank::Warp;
        const std::string unit = perBlock ? "block" : perWarp ? "warp" : "thread";
        if (hint.empty())
            hint = tryFix(
                f,
                FixTrial{
                    "s[" + f.report->stage + "].set_scope('global') (then " + tag + " indexes it)",
                    [&](const Schedule& copy) { stageToFix(copy, f.origin).setScope("global"); }},
                FixGoal::Lowers);
        out.push_back({WasteCause::ThreadIndexVanishes,
                       "a thread index that does not index the buffer",
                       name + " is " + stage->scope + ", but its own loop " + leaf->var.name() +
                           " is bound to " + tag + ": a " + stage->scope +
                           " buffer is private to each " + unit + ", so " + tag +
                           " vanishes from " + name + "'s indices and every " + unit +
                           " writes the same elements of its own copy of " +
                           countText(allocated(f, BoundRules::Tvm)),
                       hint,
                       {BoundRules::Tvm05, BoundRules::Tvm, BoundRules::Tight}});
        return;
    }
}

void notQuasiAffineCause(const BufferFacts& f, std::vector<AllocCause>& out) {
    if (f.runs.size() < 3)
        return;
    const StageTrace* trace = f.runs[2]->traceOf(f.origin);
    for (const RootBound& b : trace->rootBounds) {
        if (b.source.find("not quasi-affine") == std::string::npos)
            continue;
        out.push_back(
            {WasteCause::NotQuasiAffine,
             "a read the tight rules cannot reason about exactly",
             "a read of " + f.report->name + " (axis " + std::to_string(b.outputAxis) +
                 ") or a consumer loop is not quasi-affine (a product of loop variables, a "
                 "division by a variable, a load): the tight rules keep the interval result",
             "",
             {BoundRules::Tight}});
        return;
    }
}

/// storage_align: the padding between rows is allocated and never written.
void storageAlignCause(const BufferFacts& f, std::vector<AllocCause>& out) {
    const RuleAllocation* tvm = f.report->allocation(BoundRules::Tvm);
    if (!tvm || !tvm->padded)
        return;
    std::vector<BoundRules> rules;
    for (const RuleAllocation& a : f.report->allocations)
        if (a.padded)
            rules.push_back(a.rules);
    out.push_back(
        {WasteCause::StorageAlignPadding, "storage_align pads the rows",
         "storage_align pads the strides of " + f.report->name + " (" + tvm->size + " elements): " +
             (tvm->padding ? plural(*tvm->padding, "element") : std::string("a symbolic number")) +
             " of padding that no one writes (on purpose: aligned rows avoid shared "
             "memory bank conflicts)",
         "", rules});
}

/// double_buffer: twice the region, by design.
void doubleBufferCause(const BufferFacts& f, std::vector<AllocCause>& out) {
    const RuleAllocation* tvm = f.report->allocation(BoundRules::Tvm);
    if (!tvm || tvm->halves != 2)
        return;
    std::vector<BoundRules> rules;
    for (const RuleAllocation& a : f.report->allocations)
        if (a.halves == 2)
            rules.push_back(a.rules);
    out.push_back(
        {WasteCause::DoubleBuffer, "two halves (double buffer, not waste)",
         f.report->name + " is double-buffered: lowering allocates its region twice, " +
             countText(tvm->total()) +
             " elements, so the producer fills the next "
             "iteration's half while the consumers read this one's; needed and waste count "
             "one half",
         "", rules});
}

} // namespace

/// What compact storage does to the causes: a strided read or disjoint requests it stores
/// exactly are "removed by compact storage"; every other cause of tight's numbers is compact's too.
void compactStorageRemoves(const BufferFacts& f, std::vector<AllocCause>& out) {
    const RuleAllocation* compact = f.report->allocation(BoundRules::Compact);
    if (!compact)
        return;
    const bool smaller = greater(allocated(f, BoundRules::Tight), compact->allocated);
    for (AllocCause& cause : out) {
        const bool shape =
            cause.kind == WasteCause::StridedRead || cause.kind == WasteCause::DisjointRequests;
        if (shape && smaller) {
            // Removed when compact storage holds just what is needed, reduced otherwise (a
            // lattice or boxes that still hold elements no one reads).
            const bool exact =
                compact->allocated && f.report->needed && *compact->allocated == *f.report->needed;
            cause.detail += std::string(exact ? "; removed" : "; reduced") +
                            " by compact storage: " + f.report->name + " holds " +
                            plural(compact->allocated, "element") + " under the compact rules";
            if (!exact)
                cause.rules.push_back(BoundRules::Compact);
            continue;
        }
        auto has = [&](BoundRules r) {
            return std::find(cause.rules.begin(), cause.rules.end(), r) != cause.rules.end();
        };
        if (has(BoundRules::Tight) && !has(BoundRules::Compact))
            cause.rules.push_back(BoundRules::Compact);
    }
}

std::vector<AllocCause> findCauses(const BufferFacts& facts) {
    std::vector<AllocCause> out;
    if (facts.report->isOutput) {
        remainderCause(facts, out);
        return out;
    }
    fuseCauses(facts, out);
    imprecisionCauses(facts, out);
    readShapeCauses(facts, out);
    threadCause(facts, out);
    threadIndexCause(facts, out);
    remainderCause(facts, out);
    recomputeCause(facts, out);
    notQuasiAffineCause(facts, out);
    virtualThreadCause(facts, out);
    storageAlignCause(facts, out);
    doubleBufferCause(facts, out);
    compactStorageRemoves(facts, out);
    return out;
}

} // namespace bs::alloc
