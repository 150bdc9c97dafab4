// The causes of the allocation report (analysis/AllocReport.h): every difference between the
// elements allocated under the rule sets, the elements one iteration needs and the elements
// computed is attributed to what produced it, read off the InferBound traces (which consumer
// fused or split what, which loops were relaxed and why) and the tight rules' exact counts.
#include "analysis/AllocReportInternal.h"

#include "arith/Analyzer.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "schedule/MessagePassing.h"
#include "te/Operation.h"

#include <algorithm>
#include <cstdio>

namespace bs::alloc {

namespace {

std::string num(std::optional<int64_t> v) { return v ? std::to_string(*v) : "?"; }

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
    std::snprintf(text, sizeof text, "computed %.2f times on average", double(computed) / double(distinct));
    return text;
}

/// Divisors of `n` no larger than `limit`, largest first (at most three).
std::string divisorsUpTo(int64_t n, int64_t limit) {
    std::string out;
    int found = 0;
    for (int64_t d = std::min(n, limit); d >= 2 && found < 3; --d)
        if (n % d == 0) {
            out += (found++ ? ", " : "") + std::to_string(d);
        }
    return out;
}

/// A fuse in a consumer whose fused loop is read one segment at a time.
struct FusedSegment {
    std::string consumer;
    const FuseNode* fuse = nullptr;
    Expr rowLength;    ///< the inner (row) extent
    Expr segment;      ///< elements of the fused loop one iteration reads
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
            FusedSegment s{ct.consumer->name, fuse, run.result.bounds.at(fuse->inner).extent,
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
    std::optional<int64_t> done = elementsComputed(f, f.runs.size() > 2 ? BoundRules::Tight : BoundRules::Tvm);
    if (!greater(done, f.report->distinct))
        return "";
    return "; the rows shared by two iterations are computed by both: " + num(done) + " elements for the " +
           num(f.report->distinct) + " read, each " + timesOnAverage(*done, *f.report->distinct);
}

void fuseCauses(const BufferFacts& f, std::vector<AllocCause>& out) {
    const std::string& name = f.report->name;
    if (greater(allocated(f, BoundRules::Tvm06), allocated(f, BoundRules::Tvm)))
        for (const FusedSegment& s : fusedSegments(f, *f.runs[0]))
            out.push_back({WasteCause::FuseFallback, "TVM 0.6 widens a fused segment to the full fused ranges",
                           fuseName(s) + "; one iteration reads a segment of " + toString(s.segment) +
                               " elements of the fused loop, which tvm-0.6 widens to the full ranges "
                               "of both: " + name + " allocates " + num(allocated(f, BoundRules::Tvm06)) +
                               " instead of " + num(allocated(f, BoundRules::Tvm)) + " and computes all of " +
                               "them on every iteration, " + num(computed(f, BoundRules::Tvm06)) + " in all",
                           "use --rules tvm or --rules tight (TVM fixed this after 0.6)",
                           {BoundRules::Tvm06}});
    for (const FusedSegment& s : fusedSegments(f, *f.runs[1])) {
        if (!s.wholeRows)
            continue;
        std::vector<BoundRules> rules{BoundRules::Tvm};
        if (f.runs.size() > 2 && greater(allocated(f, BoundRules::Tight), f.report->needed))
            rules.push_back(BoundRules::Tight);
        std::optional<int64_t> row = asConstInt(s.rowLength), segment = asConstInt(s.segment);
        std::string hint = "split the fused loop by a divisor of the row length " + toString(s.rowLength);
        if (row && segment && !divisorsUpTo(*row, *segment).empty())
            hint += " (" + divisorsUpTo(*row, *segment) + ")";
        hint += " or by a multiple of it, so that no segment spans two rows";
        const RuleAllocation* tvm = f.report->allocation(BoundRules::Tvm);
        std::string varies = tvm && tvm->varies ? "; under tvm the number of rows varies with the "
                                                      "iteration (at most " + num(tvm->allocated) + " elements)"
                                                : "";
        out.push_back({WasteCause::FusedSegmentWrapsRow, "the fused segment wraps a row",
                       fuseName(s) + " (rows of " + toString(s.rowLength) + "); one iteration reads " +
                           toString(s.segment) + " consecutive elements of the fused loop, which can "
                           "span two rows, so the bounding box is whole rows: " + name + " holds " +
                           num(allocated(f, BoundRules::Tight)) + " elements for " + num(f.report->needed) +
                           " read" + varies + recomputedRows(f),
                       hint, rules});
    }
}

/// Interval imprecision the fuse causes above do not explain.
void imprecisionCauses(const BufferFacts& f, std::vector<AllocCause>& out) {
    auto explained = [&](WasteCause c) {
        return std::any_of(out.begin(), out.end(), [&](const AllocCause& x) { return x.kind == c; });
    };
    if (greater(allocated(f, BoundRules::Tvm06), allocated(f, BoundRules::Tvm)) && !explained(WasteCause::FuseFallback))
        out.push_back({WasteCause::IntervalImprecision, "TVM 0.6's split and fuse rules are looser",
                       "tvm-0.6 keeps a split's factor as its inner extent and widens fused intervals: " +
                           num(allocated(f, BoundRules::Tvm06)) + " elements instead of " +
                           num(allocated(f, BoundRules::Tvm)),
                       "use --rules tvm or --rules tight", {BoundRules::Tvm06}});
    if (f.runs.size() > 2 && greater(allocated(f, BoundRules::Tvm), allocated(f, BoundRules::Tight)) &&
        !explained(WasteCause::FusedSegmentWrapsRow))
        out.push_back({WasteCause::IntervalImprecision, "interval arithmetic over the consumers' loops is loose",
                       "the tvm rules bound each read by intervals of the fused and split loops; the exact "
                       "need takes " + num(allocated(f, BoundRules::Tight)) + " elements, not " +
                           num(allocated(f, BoundRules::Tvm)),
                       "use --rules tight", {BoundRules::Tvm06, BoundRules::Tvm}});
}

std::string plural(std::optional<int64_t> n, const char* what) {
    return num(n) + " " + what + (n == 1 ? "" : "s");
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
    std::vector<BoundRules> every{BoundRules::Tvm06, BoundRules::Tvm};
    if (f.runs.size() > 2)
        every.push_back(BoundRules::Tight);
    bool wraps = std::any_of(out.begin(), out.end(), [](const AllocCause& c) { return c.kind == WasteCause::FusedSegmentWrapsRow; });
    for (const StageNeed::Access& a : need.accesses) {
        if (wraps || !greater(a.hull, a.count))
            continue;
        out.push_back({WasteCause::StridedRead, "the interval hull of a strided or non-contiguous read",
                       readText(name, a) + ": one iteration reads " + plural(a.count, "element") +
                           " spread over a box of " + num(a.hull),
                       "no rectangle can fix it; compute only the elements read into a compact buffer "
                       "(a stage that reads " + name + " at those indices, computed at " + a.consumer->name +
                           "), or compute_inline " + name,
                       every});
    }
    int64_t largest = 0;
    for (const StageNeed::Access& a : need.accesses)
        largest = std::max(largest, a.hull.value_or(0));
    if (need.accesses.size() < 2 || !greater(need.hull, need.needed) || !greater(need.hull, largest))
        return;
    std::string reads;
    for (size_t i = 0; i < need.accesses.size(); ++i)
        reads += (i == 0 ? "" : i + 1 == need.accesses.size() ? " and " : ", ") + readText(name, need.accesses[i]);
    out.push_back({WasteCause::DisjointRequests, "the dimension-wise union of disjoint consumer requests",
                   reads + ": united axis by axis they span a box of " + num(need.hull) + " elements, " +
                       num(need.needed) + " of them read",
                   "no rectangle can fix it; compute the consumers' regions separately: one copy of " + name +
                       " per consumer (cache_read, or one stage per region, computed at each consumer)",
                   every});
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
        std::string tag = bound != f.runs[1]->bindMap.end() ? bound->second->threadTag : iv->threadTag;
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
    std::string hint = scope == "shared" ? "intended when the threads of a block load it together; "
                                           "set_scope('local') gives each thread its own " + num(f.report->perThread)
                     : scope == "warp"   ? "a warp's lanes share it by design"
                                         : "set_scope('local') (or 'shared' for the threads of one block) so that "
                                           "the threads do not share one " + scope + " buffer";
    out.push_back({WasteCause::ThreadRelaxation, "relaxation by thread binding or storage scope",
                   (list.empty() ? std::string("thread loops") : list) + " relaxed: the " + scope +
                       " buffer is shared by the threads bound to them; one thread reads " +
                       plural(f.report->perThread, "element") + ", all of them " + num(f.report->needed),
                   hint, {BoundRules::Tvm06, BoundRules::Tvm, BoundRules::Tight}});
}

/// " (the interpreter ran N stores: the bound check skips the rest)" where it tells.
std::string skippedText(const BufferFacts& f, const Stage& stage) {
    std::optional<int64_t> iterations = computed(f, BoundRules::Tvm), stores = f.report->computedRun;
    const auto* op = stage->op.as<ComputeOpNode>();
    if (!greater(iterations, stores) || !op || op->isReduction()) // a reduction also stores its init
        return "";
    return " (the interpreter ran " + num(stores) + " stores: a bound check skips the other " +
           std::to_string(*iterations - *stores) + ")";
}

/// Why the tight rules keep a split's factor: a thread runs every index of the inner loop.
std::string keptReason(const RuleRun& run, const Stage& stage, const SplitNode* s) {
    auto bound = run.bindMap.find(s->inner);
    if (bound != run.bindMap.end())
        return "its inner loop is bound to " + bound->second->threadTag + ", so the last " +
               (bound->second->threadTag.rfind("blockIdx", 0) == 0 ? "blocks" : "threads") +
               " run idle behind a bound check";
    const IterVarAttr* attr = stage.attrOf(s->inner);
    if (attr && attr->iterType == IterVarType::Vectorized)
        return "its inner loop is vectorized, so the last vector runs past the end behind a bound check";
    return "its loops are reordered, so the last iterations run behind a bound check";
}

/// "a factor that divides 20 (10, 5, 4)", or "" where there is none up to the factor.
std::string dividingFactors(std::optional<int64_t> extent, std::optional<int64_t> factor) {
    if (!extent || !factor || divisorsUpTo(*extent, *factor).empty())
        return "";
    return "a factor that divides " + std::to_string(*extent) + " (" + divisorsUpTo(*extent, *factor) + ")";
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
            std::optional<int64_t> e = asConstInt(extent), fct = asConstInt(factor);
            bool shortened = tight.result.loopExtents.count(s->inner) > 0;
            if (shortened ? !greater(computed(f, BoundRules::Tvm), computed(f, BoundRules::Tight))
                          : !(e && fct && *e % *fct != 0 && greater(computed(f, BoundRules::Tight), f.report->distinct)))
                continue;
            std::string last = e && fct ? std::to_string(*e % *fct) : "the remainder";
            std::string what = stage->op->name + " splits " + s->parent->var.name() + " (extent " + toString(extent) +
                               ") by " + toString(factor) + ": the last iteration of " + s->outer->var.name() +
                               " needs " + last + ", not " + toString(factor) + "; ";
            std::string divides = dividingFactors(e, fct);
            if (shortened)
                out.push_back({WasteCause::SplitRemainder, "a split remainder (computed, not allocated)",
                               what + f.report->name + " computes " + num(computed(f, BoundRules::Tvm)) +
                                   " elements under tvm" + skippedText(f, stage) + ", " +
                                   num(computed(f, BoundRules::Tight)) + " under tight",
                               "use --rules tight" + (divides.empty() ? "" : ", or " + divides),
                               {BoundRules::Tvm06, BoundRules::Tvm}});
            else
                out.push_back({WasteCause::SplitRemainder, "a split remainder (computed, not allocated)",
                               what + keptReason(tight, stage, s) + ": " + f.report->name + " runs " +
                                   num(computed(f, BoundRules::Tight)) + " iterations for " +
                                   num(f.report->distinct) + " elements under every rule set" + skippedText(f, stage),
                               divides.empty() ? "" : "use " + divides,
                               {BoundRules::Tvm06, BoundRules::Tvm, BoundRules::Tight}});
        }
}

/// Iterations whose regions overlap compute the shared elements again (a stencil's halo, a
/// block's copy of a tile). What the other causes already explain is not counted twice.
void recomputeCause(const BufferFacts& f, std::vector<AllocCause>& out) {
    std::optional<int64_t> done = elementsComputed(f, f.runs.size() > 2 ? BoundRules::Tight : BoundRules::Tvm);
    const StageTrace* trace = f.runs[1]->traceOf(f.origin);
    // A stage computed at the root computes each element once; its excess is the box's.
    if (f.report->isOutput || !trace || trace->attachPath.empty() || !greater(done, f.report->distinct))
        return;
    for (const AllocCause& c : out)
        if (c.kind != WasteCause::FuseFallback && c.kind != WasteCause::IntervalImprecision &&
            c.kind != WasteCause::ThreadRelaxation)
            return; // the box's own waste is computed too: the excess is not all recomputation
    std::string at = trace->attachPath.front()->var.name();
    const std::string& name = f.report->name;
    const std::string& scope = f.report->scope;
    bool cache = scope == "shared" || scope == "local" || scope == "warp";
    out.push_back({WasteCause::Recompute, "overlapping iterations compute the same elements again",
                   "the iterations of the loops around " + name + " (attached at " + at + ") need overlapping "
                   "regions: " + name + " computes " + num(done) + " elements for the " + num(f.report->distinct) +
                   " its consumers read, each of them " + timesOnAverage(*done, *f.report->distinct),
                   cache ? "by design for a " + scope + " copy: each block or thread loads what it reads; "
                           "larger tiles per block load each element fewer times"
                         : "compute_root computes each element once (at the cost of a buffer for all of " + name +
                               "), or attach at an outer loop so that fewer iterations overlap",
                   {BoundRules::Tvm06, BoundRules::Tvm, BoundRules::Tight}});
}

void notQuasiAffineCause(const BufferFacts& f, std::vector<AllocCause>& out) {
    if (f.runs.size() < 3)
        return;
    const StageTrace* trace = f.runs[2]->traceOf(f.origin);
    for (const RootBound& b : trace->rootBounds) {
        if (b.source.find("not quasi-affine") == std::string::npos)
            continue;
        out.push_back({WasteCause::NotQuasiAffine, "a read the tight rules cannot reason about exactly",
                       "a read of " + f.report->name + " (axis " + std::to_string(b.outputAxis) +
                           ") or a consumer loop is not quasi-affine (a product of loop variables, a "
                           "division by a variable, a load): the tight rules keep the interval result",
                       "", {BoundRules::Tight}});
        return;
    }
}

} // namespace

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
    remainderCause(facts, out);
    recomputeCause(facts, out);
    notQuasiAffineCause(facts, out);
    virtualThreadCause(facts, out);
    return out;
}

} // namespace bs::alloc
