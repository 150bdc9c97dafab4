// The allocation report's numbers (analysis/AllocReport.h): InferBound under each rule set on
// its own normalized copy, the realize region of every computed stage (the tight rules' static
// region where they set one), its size maximised over the iterations of the loops around it,
// the iterations of its loop nest over the whole run, and the exact per-iteration need from the
// tight rules' model. The causes are in AllocReportCauses.cpp, the printing in
// AllocReportFormat.cpp.
#include "analysis/AllocReportInternal.h"
#include "analysis/Program.h"

#include "arith/Analyzer.h"
#include "arith/ConstEval.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "ir/Substitute.h"
#include "ir/ThreadTag.h"
#include "lower/StorageFlatten.h"
#include "schedule/Graph.h"
#include "te/Operation.h"

#include <algorithm>
#include <functional>
#include <limits>

#include <unordered_set>

namespace bs {

const char* wasteCauseName(WasteCause cause) {
    switch (cause) {
    case WasteCause::FuseFallback:
        return "fuse-fallback";
    case WasteCause::IntervalImprecision:
        return "interval-imprecision";
    case WasteCause::FusedSegmentWrapsRow:
        return "fused-segment-wraps-row";
    case WasteCause::StridedRead:
        return "strided-read";
    case WasteCause::DisjointRequests:
        return "disjoint-requests";
    case WasteCause::ThreadRelaxation:
        return "thread-relaxation";
    case WasteCause::SplitRemainder:
        return "split-remainder";
    case WasteCause::Recompute:
        return "recompute";
    case WasteCause::NotQuasiAffine:
        return "not-quasi-affine";
    case WasteCause::VirtualThreadCopies:
        return "vthread-copies";
    case WasteCause::ThreadIndexVanishes:
        return "thread-index-vanishes";
    case WasteCause::StorageAlignPadding:
        return "storage-align";
    case WasteCause::DoubleBuffer:
        return "double-buffer";
    }
    return "unknown";
}

const RuleAllocation* BufferReport::allocation(BoundRules rules) const {
    for (const RuleAllocation& a : allocations)
        if (a.rules == rules)
            return &a;
    return nullptr;
}

std::optional<int64_t> RuleAllocation::total() const {
    if (!allocated || !copies)
        return std::nullopt;
    return *allocated * *copies * halves;
}

std::string RuleAllocation::copiesSuffix() const {
    if (copies == 1 && halves == 1)
        return "";
    return "x" + (copies ? std::to_string(*copies * halves) : std::string("?"));
}

std::optional<double> BufferReport::wastePercent() const {
    const RuleAllocation* tvm = allocation(wasteRules);
    if (!tvm || !tvm->allocated || !needed || *tvm->allocated <= 0)
        return std::nullopt;
    return 100.0 * double(*tvm->allocated - *needed) / double(*tvm->allocated);
}

std::string BufferReport::causeNames() const {
    std::vector<std::string> names;
    for (const AllocCause& c : causes)
        if (std::find(names.begin(), names.end(), wasteCauseName(c.kind)) == names.end())
            names.push_back(wasteCauseName(c.kind));
    std::string out;
    for (const std::string& n : names)
        out += (out.empty() ? "" : ", ") + n;
    return out;
}

const BufferReport* AllocReport::find(const std::string& name) const {
    for (const BufferReport& b : buffers)
        if (b.name == name)
            return &b;
    return nullptr;
}

namespace alloc {

Stage RuleRun::stageOf(const Operation& origin) const { return stageOfOrigin(normalized, origin); }

const StageTrace* RuleRun::traceOf(const Operation& origin) const {
    Stage s = stageOf(origin);
    return s.defined() ? result.trace.find(s->op) : nullptr;
}

namespace {

/// Enumerating more iterations than this is not worth the wait: counts become unknown.
constexpr int64_t kMaxEnumerated = 1 << 20;

Loop loopOf(const RuleRun& run, const IterVar& iv) {
    Loop loop;
    loop.vars.push_back(iv->var);
    auto bound = run.bindMap.find(iv);
    if (bound != run.bindMap.end()) {
        loop.vars.push_back(bound->second->var);
        loop.threadTag = bound->second->threadTag;
    }
    const Range& r = run.result.bounds.at(iv);
    loop.min = r.min;
    auto it = run.result.loopExtents.find(iv);
    loop.extent = it != run.result.loopExtents.end() ? it->second : r.extent;
    for (const Expr& e : {loop.min, loop.extent})
        if (!asConstInt(e))
            for (const Var& v : usedVars(e))
                loop.named.push_back(v);
    return loop;
}

bool isPlain(const Loop& loop) { return asConstInt(loop.min) && asConstInt(loop.extent); }

/// Walks a loop nest, binding each loop's variables, skipping loops nothing inside depends on.
class NestWalker {
public:
    NestWalker(const Nest& nest, const std::vector<Expr>& uses) : m_loops(nest.loops) {
        // needed[k]: a use or the bounds of a loop inside it name loop k, so its iterations
        // must be told apart; any other loop only multiplies. One walk from the innermost loop
        // out, collecting what is named inside (a nest of attached stages is as deep as the
        // program: pairs of loops would be quadratic in it for every buffer), down to the
        // plain prefix when nothing inside names a variable: those loops only multiply.
        m_needed.assign(m_loops.size(), false);
        VarSet namedInside;
        for (const Expr& e : uses)
            for (const Var& v : usedVars(e))
                namedInside.insert(v);
        for (size_t k = m_loops.size(); k-- > 0;) {
            if (k < nest.plain && namedInside.empty() && nest.plainIterations) {
                m_start = nest.plain;
                m_startIterations = nest.plainIterations;
                break;
            }
            const Loop& loop = *m_loops[k];
            m_needed[k] = !namedInside.empty() &&
                          std::any_of(loop.vars.begin(), loop.vars.end(),
                                      [&](const Var& v) { return namedInside.count(v) != 0; });
            namedInside.insert(loop.named.begin(), loop.named.end());
        }
    }

    /// Calls `leaf(multiplicity)` for every distinct binding of the needed loops; false when an
    /// extent is unknown or the budget is spent.
    bool walk(const std::function<void(int64_t)>& leaf) {
        m_budget = kMaxEnumerated;
        if (!m_startIterations)
            return false;
        if (*m_startIterations <= 0)
            return true;
        return walk(m_start, *m_startIterations, leaf);
    }
    /// Whether a multiplicity passed int64 (and was held at its maximum).
    bool overflowed() const { return m_overflowed; }
    /// The values of the needed loops during a `leaf` call.
    const VarMap<int64_t>& values() const { return m_values; }

private:
    bool walk(size_t k, int64_t multiplicity, const std::function<void(int64_t)>& leaf) {
        // The loops nothing inside names only multiply: one step each, not a level of recursion.
        for (; k < m_loops.size() && !m_needed[k]; ++k) {
            std::optional<int64_t> extent = evaluateInt(m_loops[k]->extent, m_values);
            if (!extent)
                return false;
            if (*extent <= 0)
                return true;
            if (__builtin_mul_overflow(multiplicity, *extent, &multiplicity)) {
                m_overflowed = true; // past int64: a count is unknown, a maximum still holds
                multiplicity = std::numeric_limits<int64_t>::max();
            }
        }
        if (k == m_loops.size()) {
            leaf(multiplicity);
            return true;
        }
        const Loop& loop = *m_loops[k];
        std::optional<int64_t> extent = evaluateInt(loop.extent, m_values);
        if (!extent)
            return false;
        if (*extent <= 0)
            return true;
        std::optional<int64_t> min = evaluateInt(loop.min, m_values);
        if (!min)
            return false;
        for (int64_t v = *min; v < *min + *extent; ++v) {
            if (--m_budget < 0)
                return false;
            for (const Var& var : loop.vars)
                m_values[var] = v;
            if (!walk(k + 1, multiplicity, leaf))
                return false;
        }
        for (const Var& var : loop.vars)
            m_values.erase(var);
        return true;
    }

    const std::vector<const Loop*>& m_loops;
    bool m_overflowed = false;
    size_t m_start = 0; ///< the first loop walked: the plain ones before it only multiply
    std::optional<int64_t> m_startIterations = 1;
    std::vector<bool> m_needed;
    VarMap<int64_t> m_values;
    int64_t m_budget = 0;
};

} // namespace

const Nest& attachLoops(const RuleRun& run, const StageTrace& trace) {
    // A path's loops are its outer path's, then its own segment's (outermost first): each
    // path's own loops are built once, and its nest points at them and at its outer path's.
    static const Nest none;
    auto built = [&](const void* id) { return run.loopsAround.count(id) != 0; };
    for (const AttachPath& path : pathsToBuild(trace.attachPath, built)) {
        auto loops = std::make_unique<RuleRun::PathLoops>();
        for (size_t at = path.segmentSize(); at-- > 0;)
            loops->own.push_back(loopOf(run, path[at]));
        if (auto outer = run.loopsAround.find(path.outer().id()); outer != run.loopsAround.end())
            loops->nest = outer->second->nest;
        for (const Loop& loop : loops->own)
            loops->nest.push(&loop);
        run.loopsAround.emplace(path.id(), std::move(loops));
    }
    auto it = run.loopsAround.find(trace.attachPath.id());
    return it != run.loopsAround.end() ? it->second->nest : none;
}

std::vector<Loop> ownLoops(const RuleRun& run, const Stage& stage) {
    std::vector<Loop> loops;
    for (const IterVar& iv : stage->leafIterVars)
        if (iv->iterType != IterVarType::Opaque)
            loops.push_back(loopOf(run, iv));
    return loops;
}

void Nest::push(const Loop* loop) {
    if (plain == loops.size() && isPlain(*loop)) {
        ++plain;
        const int64_t extent = *asConstInt(loop->extent);
        int64_t product = 0;
        plainIterations =
            plainIterations && !__builtin_mul_overflow(*plainIterations,
                                                       std::max<int64_t>(extent, 0), &product)
                ? std::optional<int64_t>(product)
                : std::nullopt;
    }
    loops.push_back(loop);
}

/// Whether `a` and `b` are one thread: a launch axis (blockIdx, threadIdx) of one tag, or a
/// virtual thread of one variable (a stage's two `vthread` loops are two loops).
bool sameThread(const Loop& a, const Loop& b) {
    if (a.threadTag.empty() || a.threadTag != b.threadTag)
        return false;
    if (threadTagIndex(a.threadTag) >= 0)
        return true;
    return std::any_of(a.vars.begin(), a.vars.end(), [&](const Var& v) {
        return std::any_of(b.vars.begin(), b.vars.end(),
                           [&](const Var& w) { return w.same_as(v); });
    });
}

JoinedNest::JoinedNest(const Nest& outer, const std::vector<Loop>& inner) {
    m_nest = outer;
    // Each inner loop adds one loop to m_own (its own or the outer one it joins): reserved, so
    // the pointers into m_own stay valid.
    m_own.reserve(inner.size());
    for (const Loop& loop : inner) {
        auto same = std::find_if(m_nest.loops.begin(), m_nest.loops.end(),
                                 [&](const Loop* o) { return sameThread(loop, *o); });
        if (same == m_nest.loops.end()) {
            m_own.push_back(loop);
            m_nest.push(&m_own.back());
            continue;
        }
        m_own.push_back(**same);
        m_own.back().vars.insert(m_own.back().vars.end(), loop.vars.begin(), loop.vars.end());
        *same = &m_own.back(); // the same bounds: the plain prefix stays as it is
    }
}

std::optional<int64_t> countIterations(const Nest& loops) {
    int64_t total = 0;
    NestWalker walker(loops, {});
    bool overflowed = false;
    if (!walker.walk([&](int64_t m) {
            overflowed = overflowed || __builtin_add_overflow(total, m, &total);
        }) ||
        overflowed || walker.overflowed())
        return std::nullopt;
    return total;
}

std::optional<int64_t> maxOver(const Nest& loops, const Expr& e, bool* varies) {
    std::optional<int64_t> best;
    bool ok = true;
    *varies = false;
    NestWalker walker(loops, {e});
    bool walked = walker.walk([&](int64_t) {
        std::optional<int64_t> v = evaluateInt(e, walker.values());
        if (!v) {
            ok = false;
            return;
        }
        if (best && *best != *v)
            *varies = true;
        best = best ? std::max(*best, *v) : *v;
    });
    if (!walked || !ok)
        return std::nullopt;
    return best;
}

} // namespace alloc

namespace {

using alloc::RuleRun;

std::string regionText(const Region& region) {
    std::string out;
    for (const Range& r : region)
        out += (out.empty() ? "[" : ", [") + toString(r.min) + ", " + toString(r.extent) + "]";
    return out;
}

/// The realize region of a stage in one run: the tight rules' static region where set. A scan's
/// state holds rows 0 up to its last step (ScheduleOps' realize of a scan).
Region realizeRegion(const RuleRun& run, const Operation& op, int valueIndex) {
    auto rangeOf = [&](const IterVar& iv) {
        auto it = run.result.realizeBounds.find(iv);
        return it != run.result.realizeBounds.end() ? it->second : run.result.bounds.at(iv);
    };
    Region region;
    for (const Compaction& c : run.compactions)
        if (c.tensor.op.same_as(op) && c.tensor.valueIndex == valueIndex)
            return c.after;
    if (const auto* scan = op.as<ScanOpNode>()) {
        const Range& time = run.result.bounds.at(scan->scanAxis);
        region.push_back(Range(makeZero(time.min.type()), time.min + time.extent));
        for (const IterVar& iv : scan->spatialAxesOf(valueIndex))
            region.push_back(rangeOf(iv));
        return region;
    }
    if (op.as<ExternOpNode>()) {
        // ScheduleOps realizes an extern stage's outputs whole.
        for (const Expr& extent : op->outputShape(valueIndex))
            region.push_back(Range(makeZero(extent.type()), extent));
        return region;
    }
    for (const IterVar& iv : *computeAxesOf(op).axis)
        region.push_back(rangeOf(iv));
    return region;
}

/// The elements of output `valueIndex` of `op`, when its shape is constant.
std::optional<int64_t> domainSize(const Operation& op, int valueIndex) {
    int64_t n = 1;
    for (const Expr& extent : op->outputShape(valueIndex)) {
        std::optional<int64_t> e = asConstInt(extent);
        if (!e)
            return std::nullopt;
        n *= *e;
    }
    return n;
}

/// A buffer's numbers (the causes come later): `stage` and `trace` are the tvm run's.
BufferReport bufferReport(const std::vector<RuleRun>& runs, const Stage& stage,
                          const StageTrace& trace, const std::optional<StageNeed>& need,
                          int valueIndex) {
    BufferReport buffer;
    buffer.stage = stage->originOp->name;
    buffer.valueIndex = valueIndex;
    // Lowering realizes a rewritten stage's op (rfactor's `B.repl`) as its origin's tensor.
    buffer.name = bufferName(stage->originOp.output(valueIndex));
    buffer.isOutput = trace.kind == StageTrace::Kind::Output;
    buffer.scope =
        trace.scope.empty() ? (stage->scope.empty() ? "global" : stage->scope) : trace.scope;
    buffer.scopeInferred = trace.scopeInferred;
    for (const RuleRun& run : runs)
        buffer.allocations.push_back(alloc::allocationUnder(
            run, run.stageOf(stage->originOp), *run.traceOf(stage->originOp), valueIndex));
    if (need) {
        buffer.needed = need->needed;
        buffer.perThread = need->perThread;
        buffer.distinct = need->distinct;
        buffer.countGivenUp = need->gaveUp;
    } else if (buffer.isOutput) {
        buffer.needed = buffer.distinct = domainSize(stage->op, valueIndex);
    }
    return buffer;
}

} // namespace

namespace alloc {

RuleAllocation allocationUnder(const RuleRun& run, const Stage& stage, const StageTrace& trace,
                               int valueIndex) {
    RuleAllocation a;
    a.rules = run.rules;
    Region region = realizeRegion(run, stage->op, valueIndex);
    a.region = regionText(region);
    // Counted in int64 (sizes can pass 2^31), printed in the extents' own type.
    Expr size = makeConst(DataType::int64(), int64_t(1)), shown;
    for (const Range& r : region) {
        size = size * cast(DataType::int64(), r.extent);
        shown = shown.defined() ? shown * r.extent : r.extent;
    }
    Analyzer analyzer;
    const Nest& around = attachLoops(run, trace);
    std::vector<DimAlign> aligns = storageAligns(stage);
    if (!aligns.empty() && !region.empty() && !stage->isOutput) {
        // StorageFlatten pads the aligned strides: the allocation is the padded size (an
        // output is the caller's buffer, never padded).
        std::vector<Expr> extents;
        for (const Range& r : region)
            extents.push_back(r.extent);
        Expr padded;
        alignedStrides(extents, aligns, &padded);
        a.padded = true;
        bool varies = false;
        std::optional<int64_t> unpadded = maxOver(around, size, &varies);
        size = cast(DataType::int64(), padded);
        shown = padded;
        std::optional<int64_t> total = maxOver(around, size, &varies);
        if (unpadded && total)
            a.padding = *total - *unpadded;
    }
    a.size = shown.defined() ? toString(analyzer.simplify(shown)) : "1";
    a.allocated = maxOver(around, size, &a.varies);
    addVirtualThreadCopies(run, region, around, &a);
    // InjectDoubleBuffer doubles a double-buffered allocation made inside a serial loop that
    // lowering keeps (one of extent 1 disappears; a thread index is no loop).
    if (stage->doubleBuffer &&
        std::any_of(around.loops.begin(), around.loops.end(), [](const Loop* l) {
            return l->threadTag.empty() && !isConstInt(l->extent, 1);
        }))
        a.halves = 2;
    a.computed = countIterations(JoinedNest(around, ownLoops(run, stage)).loops());
    return a;
}

void addCompactAllocations(const Schedule& sch, const AllocReportOptions& options,
                           const std::vector<Operation>& origins,
                           const std::vector<std::optional<StageNeed>>& needs,
                           AllocReport& report) {
    bool worth = false;
    for (const std::optional<StageNeed>& need : needs) {
        if (!need)
            continue;
        // A read that is strided, requests that are disjoint, or counts that are unknown (a
        // symbolic size, virtual threads): compact storage may change the buffer.
        worth |= !need->hull || !need->needed || *need->hull > *need->needed;
        for (const StageNeed::Access& a : need->accesses)
            worth |= !a.hull || !a.count || *a.hull > *a.count;
    }
    std::optional<RuleRun> run;
    if (worth) {
        LowerOptions lowerOptions;
        lowerOptions.rules = BoundRules::Compact;
        lowerOptions.freeScalarsAsParams = true;
        try {
            LowerResult lowered = lower(
                sch, options.args.empty() ? defaultArguments(sch) : options.args, lowerOptions);
            run = RuleRun{
                BoundRules::Compact, lowered.normalized, std::move(lowered.bounds), {}, {}, {}};
            run->bindMap = createBindMap(run->normalized);
            run->compactions = std::move(lowered.compactions);
            // Lowering realizes a cache_write stage's buffer under its original op's tensor: the
            // report's stages are the normalized copies.
            for (Compaction& c : run->compactions)
                for (const Stage& stage : run->normalized->stages)
                    if (stage->originOp.same_as(c.tensor.op) && !stage->op.same_as(c.tensor.op))
                        c.tensor = stage->op.output(c.tensor.valueIndex);
        } catch (const UserError&) {
            // Not lowered (a schedule InferBound accepts and lowering does not): the compact
            // column is tight's, which is what ScheduleOps would have realized.
        }
    }
    for (size_t i = 0; i < report.buffers.size(); ++i) {
        BufferReport& buffer = report.buffers[i];
        const RuleAllocation* tight = buffer.allocation(BoundRules::Tight);
        if (!tight)
            continue;
        RuleAllocation compact = *tight;
        compact.rules = BoundRules::Compact;
        Stage stage = run ? run->stageOf(origins[i]) : Stage();
        const bool changed =
            stage.defined() &&
            std::any_of(run->compactions.begin(), run->compactions.end(), [&](const Compaction& c) {
                return c.tensor.op.same_as(stage->op) && c.tensor.valueIndex == buffer.valueIndex;
            });
        if (changed) {
            compact = allocationUnder(*run, stage, *run->traceOf(origins[i]), buffer.valueIndex);
            // The producer computes the compact elements on each entry of the allocation.
            const std::optional<int64_t> entries =
                countIterations(attachLoops(*run, *run->traceOf(origins[i])));
            // Exact where tight's loops compute the whole rectangle on every entry (no split
            // remainder, no size that varies): unknown otherwise.
            const bool whole = tight->computed && tight->allocated && entries && !tight->varies &&
                               *tight->computed == *tight->allocated * *entries;
            compact.computed = whole && !compact.varies && compact.allocated
                                   ? std::optional<int64_t>(*compact.allocated * *entries)
                                   : std::nullopt;
        }
        buffer.allocations.push_back(compact);
    }
}

RuleRun runRules(const Schedule& sch, BoundRules rules) {
    RuleRun run{rules, sch.normalize(), {}, {}, {}, {}};
    run.result = inferBound(run.normalized, rules);
    run.bindMap = createBindMap(run.normalized);
    return run;
}

} // namespace alloc

AllocReportOptions allocReportOptions(const Program& program, BoundRules rules) {
    AllocReportOptions options;
    options.args = program.args;
    options.rules = rules;
    options.inSourceNames = program.inSourceNames;
    return options;
}

AllocReport allocReport(const Schedule& sch, const AllocReportOptions& options) {
    AllocReport report;
    report.tightAvailable = hasIsl();
    report.wasteRules = options.rules == BoundRules::Tight && !report.tightAvailable
                            ? BoundRules::Tvm
                            : options.rules;
    std::vector<RuleRun> runs;
    runs.push_back(alloc::runRules(sch, BoundRules::Tvm05));
    runs.push_back(alloc::runRules(sch, BoundRules::Tvm));
    if (report.tightAvailable)
        runs.push_back(alloc::runRules(sch, BoundRules::Tight));
    const RuleRun& reference = runs[1];
    std::vector<const RuleRun*> runPointers;
    for (const RuleRun& run : runs)
        runPointers.push_back(&run);
    std::vector<alloc::BufferFacts> facts;
    std::vector<std::optional<StageNeed>> needs;
    size_t outputs = 0;
    for (const Stage& stage : reference.normalized->stages)
        outputs += size_t(stage->op->numOutputs());
    needs.reserve(outputs); // BufferFacts point into it
    // A scan's inits and updates store into the scan's state, which the scan allocates: they
    // have no buffer of their own.
    StageNeedCache needCache;
    std::unordered_set<const Node*> writesScanState;
    for (const Stage& stage : reference.normalized->stages)
        if (const auto* scan = stage->op.as<ScanOpNode>())
            for (const std::vector<Tensor>* list : {&scan->init, &scan->update})
                for (const Tensor& t : *list)
                    writesScanState.insert(t.op.get());
    for (const Stage& stage : reference.normalized->stages) {
        const StageTrace* trace = reference.result.trace.find(stage->op);
        const bool isScan = stage->op.as<ScanOpNode>() != nullptr;
        // Its exact need is not computed for a stage whose body is not an expression (an
        // extern's statement, a tensor intrinsic's call).
        const bool isExtern = stage->op.as<ExternOpNode>() != nullptr ||
                              stage->op.as<TensorComputeOpNode>() != nullptr;
        if ((!stage->op.as<ComputeOpNode>() && !isScan && !isExtern) || !trace ||
            trace->kind == StageTrace::Kind::InlinedAlready ||
            writesScanState.count(stage->op.get()))
            continue;
        std::optional<StageNeed> need;
        // The exact need of a scan's state (every earlier row a step may read) is not counted.
        if (report.tightAvailable && !isScan && !isExtern) {
            const RuleRun& tight = runs.back();
            need = analyzeStageNeed(tight.normalized, tight.result,
                                    tight.stageOf(stage->originOp)->op, tight.bindMap, &needCache);
        }
        // One buffer per output, as lowering allocates them (their regions agree but for an
        // extern's, whose outputs have their own shapes).
        for (int i = 0; i < stage->op->numOutputs(); ++i) {
            report.buffers.push_back(bufferReport(runs, stage, *trace, need, i));
            report.buffers.back().wasteRules = report.wasteRules;
            needs.push_back(need);
            facts.push_back(alloc::BufferFacts{stage->originOp, nullptr, runPointers, &needs.back(),
                                               &sch, &options});
        }
    }
    std::vector<Operation> origins;
    for (const alloc::BufferFacts& f : facts)
        origins.push_back(f.origin);
    if (report.tightAvailable)
        alloc::addCompactAllocations(sch, options, origins, needs, report);
    // The causes read the interpreter's counts too (which iterations a bound check skipped).
    alloc::addTouchedCounts(sch, options, reference, origins, report);
    for (size_t i = 0; i < facts.size(); ++i) {
        facts[i].report = &report.buffers[i];
        report.buffers[i].causes = alloc::findCauses(facts[i]);
        if (options.inSourceNames)
            for (AllocCause& cause : report.buffers[i].causes)
                cause.hint = options.inSourceNames(cause.hint);
    }
    return report;
}

} // namespace bs
