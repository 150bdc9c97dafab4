// The allocation report's "really touched" counts (DESIGN.md, "The allocation report"): the
// program, lowered under the tvm rules, runs in the reference interpreter with access tracing;
// each buffer's peak of distinct elements touched in one entry of its allocation (one
// iteration of the loops around it) and its total over the run come from the trace. A program
// too large to run whole has each buffer counted from its access sets where they can say
// (analyzeStageTouched), and the others measured on a sample of its outer loops.
#include "analysis/AllocReportInternal.h"

#include "analysis/Program.h"
#include "arith/Analyzer.h"
#include "ir/Functor.h"
#include "ir/Op.h"
#include "ir/ThreadBinding.h"
#include "lower/Lower.h"
#include "runtime/Interpreter.h"
#include "schedule/InferBoundTight.h"

#include <cmath>
#include <iomanip>
#include <set>
#include <sstream>

namespace bs::alloc {

namespace {

/// The work of a run, in elements computed by every buffer's loop nest; nullopt when unknown.
std::optional<int64_t> totalWork(const AllocReport& report) {
    int64_t total = 0;
    for (const BufferReport& b : report.buffers) {
        const RuleAllocation* a = b.allocation(BoundRules::Tvm);
        if (!a || !a->computed)
            return std::nullopt;
        total += *a->computed;
    }
    return total;
}

/// The program with its outer loops thinned so that it does about 1/`factor` of its work: a
/// loop of extent E keeps S evenly spaced iterations, its first and last among them, and the
/// loops inside it are thinned by what is left of the factor. Only serial and parallel loops
/// of constant extent are thinned; vector lanes and threads run whole.
class LoopSampler : public IRMutator {
public:
    /// The budget is soft: a program (or what is left of a loop's factor) over it by less than
    /// this runs whole, which keeps the loops inside a thinned one whole too.
    static constexpr double kWorthThinning = 2.0;

    explicit LoopSampler(double factor) : m_factor(factor) {}

    /// The allocations every entry of which ran whole inside a thinned loop: their peak and
    /// total are those of the entries that ran.
    const std::set<const VarNode*>& wholeEntries() const { return m_whole; }
    /// Whether any loop was thinned.
    bool sampled() const { return m_thinned > 0; }

protected:
    using IRMutator::visit;

    Stmt visit(const ForNode* op) override {
        const std::optional<int64_t> extent = asConstInt(op->extent);
        const bool thinnable = (op->kind == ForKind::Serial || op->kind == ForKind::Parallel) &&
                               extent && *extent > 2 && m_factor >= kWorthThinning;
        if (!thinnable)
            return IRMutator::visit(op);
        const int64_t kept = std::max<int64_t>(2, int64_t(std::ceil(double(*extent) / m_factor)));
        if (kept >= *extent)
            return IRMutator::visit(op);
        const double outer = m_factor;
        m_factor = m_factor * double(kept) / double(*extent);
        ++m_depth;
        Stmt body = visitStmt(op->body);
        --m_depth;
        m_factor = outer;
        ++m_thinned;
        // for (i.sample, 0, kept) { let i = min + i.sample * (E - 1) / (kept - 1) ... }
        const DataType t = op->loopVar.type();
        Var sample(op->loopVar.name() + ".sample", t);
        Expr offset =
            floordiv(cast(DataType::int64(), sample) * makeConst(DataType::int64(), *extent - 1),
                     makeConst(DataType::int64(), kept - 1));
        Stmt let = LetStmtNode::make(op->loopVar, op->min + cast(t, offset), body);
        return ForNode::make(sample, makeZero(t), makeConst(t, kept), op->kind, let);
    }

    Stmt visit(const AllocateNode* op) override {
        const int thinnedBefore = m_thinned;
        Stmt result = IRMutator::visit(op);
        // A buffer allocated twice (a body lowering copied) is whole only if every
        // allocation of it is.
        const VarNode* buffer = op->bufferVar.get();
        if (m_depth > 0 && m_thinned == thinnedBefore && !m_partial.count(buffer)) {
            m_whole.insert(buffer);
        } else {
            m_partial.insert(buffer);
            m_whole.erase(buffer);
        }
        return result;
    }

private:
    double m_factor;
    int m_depth = 0;                  ///< thinned loops around the statement being visited
    int m_thinned = 0;                ///< thinned loops so far
    std::set<const VarNode*> m_whole; ///< held by the statement the sampler returned
    std::set<const VarNode*> m_partial;
};

/// The stores a program runs, from its loops' and threads' constant extents (or, with
/// `upperBounds`, their constant upper bounds: the most stores it can make); nullopt when one
/// is not constant (not bounded). A thread re-entered inside its own kernel is counted once.
class StoreCounter : public IRVisitor {
public:
    explicit StoreCounter(bool upperBounds = false) : m_upperBounds(upperBounds) {}
    std::optional<double> stores = 0.0;

protected:
    using IRVisitor::visit;

    void visit(const ForNode* op) override {
        repeated(op->extent, [&] { IRVisitor::visit(op); });
    }
    void visit(const AttrStmtNode* op) override {
        // A kernel's stages each enter its threads again, with IterVars of their own.
        const IterVarNode* thread = boundThread(*op);
        const std::string key = !thread                           ? ""
                                : op->key == attr::kVirtualThread ? thread->var.name()
                                                                  : thread->threadTag;
        if (!thread || !m_threads.insert(key).second)
            return IRVisitor::visit(op);
        repeated(op->value, [&] { IRVisitor::visit(op); });
        m_threads.erase(key);
    }
    void visit(const StoreNode* op) override {
        if (stores)
            *stores += m_times;
        IRVisitor::visit(op);
    }

private:
    /// Visits a body that runs `extent` times.
    template <typename Body> void repeated(const Expr& extent, Body body) {
        std::optional<int64_t> times = asConstInt(extent);
        if (!times && m_upperBounds) {
            // A split remainder, min(3, 10 - i.outer*3), runs at most its factor.
            const int64_t most = m_analyzer.constIntBound(extent).maxValue;
            if (most != ConstIntBound::kPosInf)
                times = most;
        }
        if (!times) {
            stores.reset();
            return;
        }
        const double outer = m_times;
        m_times *= double(std::max<int64_t>(*times, 0));
        body();
        m_times = outer;
    }

    bool m_upperBounds;
    Analyzer m_analyzer;
    double m_times = 1.0;
    std::set<std::string>
        m_threads; ///< in scope: threadIdx/blockIdx by tag, virtual threads by name
};

} // namespace

/// Pseudo-random argument buffers; nullopt when a shape is symbolic or a type unsupported.
std::string elementName(const std::string& buffer, const std::vector<int64_t>& shape,
                        const std::vector<int64_t>& mins, int64_t cell) {
    std::vector<int64_t> index(shape.size(), 0);
    for (size_t d = shape.size(); d-- > 0;) {
        index[d] = shape[d] > 0 ? cell % shape[d] : 0;
        cell = shape[d] > 0 ? cell / shape[d] : 0;
    }
    std::string text = buffer + "[";
    for (size_t d = 0; d < index.size(); ++d)
        text += (d ? ", " : "") + std::to_string((d < mins.size() ? mins[d] : 0) + index[d]);
    return text + "]";
}

std::optional<std::vector<int64_t>> realizedExtents(const LowerResult& lowered,
                                                    const Operation& origin) {
    const Stage stage = stageOfOrigin(lowered.normalized, origin);
    if (!stage.defined() || !stage->op.defined())
        return std::nullopt;
    std::vector<int64_t> shape;
    for (const IterVar& root : stage->op->rootIterVars()) {
        if (root->iterType == IterVarType::CommReduce)
            continue;
        const auto realized = lowered.bounds.realizeBounds.find(root);
        const auto bound = lowered.bounds.bounds.find(root);
        const Range* range = realized != lowered.bounds.realizeBounds.end() ? &realized->second
                             : bound != lowered.bounds.bounds.end()         ? &bound->second
                                                                            : nullptr;
        const std::optional<int64_t> extent =
            range ? asConstInt(range->extent) : std::optional<int64_t>();
        if (!extent)
            return std::nullopt;
        shape.push_back(*extent);
    }
    if (shape.empty())
        return std::nullopt;
    return shape;
}

std::vector<int64_t> realizedShape(const LowerResult& lowered, const Operation& origin,
                                   int64_t size) {
    const std::optional<std::vector<int64_t>> shape = realizedExtents(lowered, origin);
    int64_t product = 1;
    for (int64_t extent : shape ? *shape : std::vector<int64_t>{})
        product *= extent;
    return shape && product == size ? *shape : std::vector<int64_t>{size};
}

std::optional<double> countStores(const Stmt& program, bool upperBounds) {
    StoreCounter counter(upperBounds);
    counter.visitStmt(program);
    return counter.stores;
}

namespace {

/// `t`'s shape when every extent is constant.
std::optional<std::vector<int64_t>> constantShape(const Tensor& t) {
    std::vector<int64_t> shape;
    for (const Expr& e : t.shape()) {
        std::optional<int64_t> extent = asConstInt(e);
        if (!extent)
            return std::nullopt;
        shape.push_back(*extent);
    }
    return shape;
}

} // namespace

double elementCount(const std::vector<int64_t>& shape) {
    double product = 1;
    for (int64_t extent : shape)
        product *= double(std::max<int64_t>(extent, 0));
    return product;
}

std::optional<double> argumentElements(const std::vector<Tensor>& args) {
    double elements = 0;
    for (const Tensor& t : args) {
        std::optional<std::vector<int64_t>> shape = constantShape(t);
        if (!shape)
            return std::nullopt;
        elements += elementCount(*shape);
    }
    return elements;
}

std::string roughCount(double n) {
    std::ostringstream os;
    if (n >= 1e6)
        os << std::fixed << std::setprecision(1) << n / 1e6 << " million";
    else
        os << int64_t(n);
    return os.str();
}

std::optional<std::vector<Buffer>> argumentBuffers(const std::vector<Tensor>& args) {
    std::vector<Buffer> buffers;
    buffers.reserve(args.size());
    for (size_t i = 0; i < args.size(); ++i) {
        std::optional<std::vector<int64_t>> shape = constantShape(args[i]);
        if (!shape || !Buffer::isSupportedType(args[i].dtype()))
            return std::nullopt;
        buffers.emplace_back(args[i].name(), args[i].dtype(), *shape);
        buffers.back().fillRandom(i + 1);
    }
    return buffers;
}

/// Fills the touched counts of every buffer the access sets count exactly; whether every
/// buffer got them.
bool countFromAccessSets(const RuleRun& reference, const std::vector<Operation>& origins,
                         AllocReport& report) {
    bool all = true;
    for (size_t i = 0; i < report.buffers.size(); ++i) {
        BufferReport& b = report.buffers[i];
        const Stage stage = reference.stageOf(origins.at(i));
        std::optional<StageTouched> touched =
            stage.defined() ? analyzeStageTouched(reference.normalized, reference.result, stage->op,
                                                  reference.bindMap)
                            : std::nullopt;
        if (!touched) {
            all = false;
            continue;
        }
        b.touchedPeak = touched->peak;
        b.touchedTotal = touched->total;
        b.touchedCounted = true;
    }
    return all;
}

bool isOutputOf(const Tensor& arg, const Stage& stage, int valueIndex) {
    return arg.valueIndex == valueIndex &&
           (arg.op.same_as(stage->op) || arg.op.same_as(stage->originOp));
}

Var bufferVarOf(const LowerResult& lowered, const Operation& origin, int valueIndex) {
    const Stage stage = stageOfOrigin(lowered.normalized, origin);
    if (!stage.defined() || valueIndex >= stage->op->numOutputs())
        return Var();
    const Tensor tensor = stage->op.output(valueIndex);
    const std::vector<Tensor>& args = lowered.func.args;
    for (size_t i = 0; i < args.size() && i < lowered.func.argBuffers.size(); ++i)
        if (isOutputOf(args[i], stage, valueIndex))
            return lowered.func.argBuffers[i];
    // A rewritten stage (rfactor's `B.repl`) is realized as its origin's tensor (ScheduleOps'
    // post-processing, as TVM's SchedulePostProc).
    const Tensor originTensor =
        valueIndex < origin->numOutputs() ? origin.output(valueIndex) : Tensor();
    for (const auto& [allocated, buffer] : lowered.func.allocations)
        if (allocated.same_as(tensor) ||
            (originTensor.defined() && allocated.same_as(originTensor)))
            return buffer;
    return Var();
}

const BufferTrace* traceOfBuffer(const RunResult& run, const LowerResult& lowered,
                                 const Operation& origin, int valueIndex) {
    const Var buffer = bufferVarOf(lowered, origin, valueIndex);
    return buffer.defined() ? run.find(buffer) : nullptr;
}

void addTouchedCounts(const Schedule& sch, const AllocReportOptions& options,
                      const RuleRun& reference, const std::vector<Operation>& origins,
                      AllocReport& report) {
    std::optional<int64_t> work = totalWork(report);
    if (!work || options.interpreterBudget <= 0)
        return;
    // A program past the budget has its buffers counted from their access sets, exactly, where
    // they can be; the others come from a sample of its outer loops' iterations (issue 19).
    const double factor = double(*work) / double(options.interpreterBudget);
    if (factor >= LoopSampler::kWorthThinning && countFromAccessSets(reference, origins, report))
        return;
    std::vector<Tensor> args = options.args.empty() ? defaultArguments(sch) : options.args;
    // The interpreter holds every argument, sampled or not.
    std::optional<double> elements = argumentElements(args);
    if (!elements ||
        (options.maxArgumentElements > 0 && *elements > double(options.maxArgumentElements)))
        return;
    std::optional<std::vector<Buffer>> buffers = argumentBuffers(args);
    if (!buffers)
        return;
    try {
        LowerResult lowered = lower(sch, args);
        if (lowered.func.argBuffers.size() != args.size())
            return;
        Stmt program = lowered.func.deviceCode();
        LoopSampler sampler(factor);
        const bool sampling = factor >= LoopSampler::kWorthThinning;
        if (sampling) {
            program = sampler.visitStmt(program);
            // What the loops that could be thinned (serial, of constant extent) did not take
            // stays: a sample still far past the budget would take the time the budget saves.
            std::optional<double> stores = countStores(program);
            if (!sampler.sampled() || !stores || *stores <= 0 ||
                *stores > LoopSampler::kWorthThinning * double(options.interpreterBudget))
                return;
            report.touchedSampleFactor = double(*work) / *stores;
        }
        Interpreter interpreter(InterpreterOptions{.traceAccesses = true});
        for (size_t i = 0; i < args.size(); ++i)
            interpreter.bindBuffer(lowered.func.argBuffers[i], (*buffers)[i]);
        RunResult run = interpreter.run(program);
        for (size_t i = 0; i < report.buffers.size() && i < origins.size(); ++i) {
            BufferReport& b = report.buffers[i];
            const BufferTrace* trace = traceOfBuffer(run, lowered, origins[i], b.valueIndex);
            if (sampling) {
                // Sampled: only the allocations whose entries ran whole have counts, and the
                // stores of a sample say nothing of the whole run's.
                if (b.touchedCounted || !trace ||
                    !sampler.wholeEntries().count(trace->bufferVar.get()))
                    trace = nullptr;
                if (trace) {
                    b.touchedPeak = trace->peakTouched;
                    b.touchedTotal = trace->totalTouched();
                    b.touchedSampled = true;
                }
                continue;
            }
            if (!trace)
                continue;
            b.touchedPeak = trace->peakTouched;
            b.touchedTotal = trace->totalTouched();
            b.computedRun = trace->stores;
        }
    } catch (const UserError& e) {
        // A program the interpreter cannot run (an intrinsic it lacks, a read past a buffer
        // the tvm rules made too small) has no touched counts; the report says why, and the
        // rest of it stands.
        report.touchedFailure = e.diagnostic().message;
    }
}

} // namespace bs::alloc
