// The allocation report's "really touched" counts (DESIGN.md, "The allocation report"): the
// program, lowered under the tvm rules, runs in the reference interpreter with access tracing;
// each buffer's peak of distinct elements touched in one entry of its allocation (one
// iteration of the loops around it) and its total over the run come from the trace.
#include "analysis/AllocReportInternal.h"

#include "analysis/Program.h"
#include "ir/Op.h"
#include "lower/Lower.h"
#include "runtime/Interpreter.h"

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
                                                    const std::string& name) {
    const Stage stage = stageNamed(lowered.normalized, name);
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

std::vector<int64_t> realizedShape(const LowerResult& lowered, const std::string& name,
                                   int64_t size) {
    const std::optional<std::vector<int64_t>> shape = realizedExtents(lowered, name);
    int64_t product = 1;
    for (int64_t extent : shape ? *shape : std::vector<int64_t>{})
        product *= extent;
    return shape && product == size ? *shape : std::vector<int64_t>{size};
}

std::optional<std::vector<Buffer>> argumentBuffers(const std::vector<Tensor>& args) {
    std::vector<Buffer> buffers;
    buffers.reserve(args.size());
    for (size_t i = 0; i < args.size(); ++i) {
        std::vector<int64_t> shape;
        for (const Expr& e : args[i].shape()) {
            std::optional<int64_t> extent = asConstInt(e);
            if (!extent)
                return std::nullopt;
            shape.push_back(*extent);
        }
        if (!Buffer::isSupportedType(args[i].dtype()))
            return std::nullopt;
        buffers.emplace_back(args[i].name(), args[i].dtype(), shape);
        buffers.back().fillRandom(i + 1);
    }
    return buffers;
}

void addTouchedCounts(const Schedule& sch, const AllocReportOptions& options, AllocReport& report) {
    std::optional<int64_t> work = totalWork(report);
    if (!work || *work > options.interpreterBudget)
        return;
    std::vector<Tensor> args = options.args.empty() ? defaultArguments(sch) : options.args;
    std::optional<std::vector<Buffer>> buffers = argumentBuffers(args);
    if (!buffers)
        return;
    try {
        LowerResult lowered = lower(sch, args);
        if (lowered.func.argBuffers.size() != args.size())
            return;
        Interpreter interpreter(InterpreterOptions{.traceAccesses = true});
        for (size_t i = 0; i < args.size(); ++i)
            interpreter.bindBuffer(lowered.func.argBuffers[i], (*buffers)[i]);
        RunResult run = interpreter.run(lowered.func.deviceCode());
        for (BufferReport& b : report.buffers) {
            const BufferTrace* trace = run.find(b.name);
            for (size_t i = 0; i < args.size() && !trace; ++i)
                if (args[i].name() == b.name)
                    trace = run.find(lowered.func.argBuffers[i]);
            if (!trace)
                continue;
            b.touchedPeak = trace->peakTouched;
            b.touchedTotal = trace->totalTouched();
            b.computedRun = trace->stores;
        }
    } catch (const UserError&) {
        // A program the interpreter cannot run (e.g. an intrinsic it lacks) has no touched
        // counts; the rest of the report stands.
    }
}

} // namespace bs::alloc
