#include "run/CudaExecutor.h"

#include "arith/ConstEval.h"
#include "ir/Substitute.h"

#include "ir/Functor.h"
#include "ir/Op.h"
#include "ir/Printer.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cstring>
#include <list>

namespace bs {

int64_t hostValue(const Expr& e, const VarMap<int64_t>& scalars) {
    if (std::optional<int64_t> value = evaluateInt(e, scalars))
        return *value;
    for (const Var& v : usedVars(e))
        if (!scalars.count(v))
            throw UserError("the GPU program needs a value for '" + v.name() + "'");
    throw UserError("the host code of a GPU program cannot evaluate " + toString(e) +
                    ": a division by zero, or a value that is not an integer");
}

double CudaRunResult::best() const {
    return milliseconds.empty() ? 0 : *std::min_element(milliseconds.begin(), milliseconds.end());
}

double CudaRunResult::median() const {
    if (milliseconds.empty())
        return 0;
    std::vector<double> sorted = milliseconds;
    std::sort(sorted.begin(), sorted.end());
    size_t mid = sorted.size() / 2;
    return sorted.size() % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

namespace {

/// Interprets the host statement: loops, lets, conditions, global allocations and launches.
class HostRunner : public StmtFunctor<void> {
public:
    HostRunner(const HostDeviceSplit& program,
               const std::unordered_map<std::string, cuda::CUfunction>& functions,
               VarMap<cuda::CUdeviceptr> buffers, VarMap<int64_t> scalars)
        : m_program(program), m_functions(functions), m_buffers(std::move(buffers)),
          m_scalars(std::move(scalars)) {}

protected:
    using StmtFunctor<void>::visit;

    void visit(const LetStmtNode* op) override {
        m_scalars[op->var] = eval(op->value);
        visitStmt(op->body);
    }
    void visit(const AttrStmtNode* op) override { visitStmt(op->body); }
    void visit(const ProducerConsumerNode* op) override { visitStmt(op->body); }
    void visit(const AssertStmtNode* op) override {
        if (!eval(op->condition)) {
            const auto* message = op->message.as<StringImmNode>();
            throw UserError(message ? message->value
                                    : "assertion failed: " + toString(op->condition));
        }
        visitStmt(op->body);
    }
    void visit(const ForNode* op) override {
        int64_t min = eval(op->min), extent = eval(op->extent);
        for (int64_t i = min; i < min + extent; ++i) {
            m_scalars[op->loopVar] = i;
            visitStmt(op->body);
        }
    }
    void visit(const IfThenElseNode* op) override {
        if (eval(op->condition))
            visitStmt(op->thenCase);
        else if (op->elseCase.defined())
            visitStmt(op->elseCase);
    }
    void visit(const SeqNode* op) override {
        for (const Stmt& s : op->seq)
            visitStmt(s);
    }
    void visit(const AllocateNode* op) override {
        int64_t count = op->type.lanes();
        for (const Expr& e : op->extents)
            count *= eval(e);
        if (count < 0)
            throw UserError("buffer '" + op->bufferVar.name() + "' has a negative size");
        CudaDeviceBuffer buffer =
            CudaRuntime::instance().allocate(size_t(count) * size_t(op->type.element().bytes()));
        m_buffers[op->bufferVar] = buffer.pointer();
        visitStmt(op->body);
        m_buffers.erase(op->bufferVar);
    }
    void visit(const EvaluateNode* op) override {
        const auto* call = op->value.as<CallNode>();
        if (call && call->isIntrinsic(kCallPackedIntrinsic)) {
            launch(call);
            return;
        }
        if (!isConst(op->value))
            throw UserError("the host code of a GPU program cannot run " + toString(op->value));
    }
    void visitStmtDefault(const StmtNode* op) override {
        throw UserError("the host code of a GPU program cannot run " + toString(Stmt(op)) +
                        ": bind the stage's loops to blockIdx/threadIdx");
    }

private:
    int64_t eval(const Expr& e) { return hostValue(e, m_scalars); }

    void launch(const CallNode* call);
    unsigned launchExtent(const DeviceKernel& kernel, int axis);

    const HostDeviceSplit& m_program;
    const std::unordered_map<std::string, cuda::CUfunction>& m_functions;
    VarMap<cuda::CUdeviceptr> m_buffers;
    VarMap<int64_t> m_scalars;
};

unsigned HostRunner::launchExtent(const DeviceKernel& kernel, int axis) {
    int64_t value = eval(kernel.launchExtent(axis));
    if (value < 0 || value > int64_t(UINT_MAX)) {
        throw UserError("kernel '" + kernel.name + "': " + kThreadTags[size_t(axis)] + " extent " +
                        std::to_string(value) + " cannot be launched");
    }
    return unsigned(value);
}

void HostRunner::launch(const CallNode* call) {
    const auto* name = call->args.at(0).as<StringImmNode>();
    const DeviceKernel* kernel = name ? m_program.findKernel(name->value) : nullptr;
    BS_CHECK(kernel && m_functions.count(kernel->name)) << "launch of an unknown kernel";
    CudaLaunchDims dims;
    bool empty = false;
    for (int axis = 0; axis < 6; ++axis) {
        unsigned extent = launchExtent(*kernel, axis);
        (axis < 3 ? dims.grid[size_t(axis)] : dims.block[size_t(axis - 3)]) = extent;
        empty = empty || extent == 0;
    }
    if (empty)
        return;
    // One 8-byte slot per parameter; the driver reads each through its pointer.
    std::vector<std::array<unsigned char, 8>> slots(kernel->params.size());
    std::vector<void*> args;
    for (size_t i = 0; i < kernel->params.size(); ++i) {
        const KernelParam& p = kernel->params[i];
        if (p.isBuffer()) {
            auto it = m_buffers.find(p.var);
            if (it == m_buffers.end())
                throw UserError("kernel '" + kernel->name + "' needs buffer '" + p.var.name() +
                                "', which was not given");
            std::memcpy(slots[i].data(), &it->second, sizeof(it->second));
        } else if (p.type.isIntegral() && p.type.bits() == 64) {
            int64_t value = eval(p.var);
            std::memcpy(slots[i].data(), &value, sizeof(value));
        } else if (p.type.isIntegral() && p.type.bits() == 32) {
            auto value = int32_t(eval(p.var));
            std::memcpy(slots[i].data(), &value, sizeof(value));
        } else {
            throw UserError("kernel '" + kernel->name + "': scalar parameter '" + p.var.name() +
                            "' of type " + p.type.toString() + " is not supported");
        }
        args.push_back(slots[i].data());
    }
    CudaRuntime::instance().launch(m_functions.at(kernel->name), kernel->name, dims, args);
}

} // namespace

CudaExecutor::CudaExecutor(HostDeviceSplit program, const std::string& source)
    : m_program(std::move(program)), m_module(CudaRuntime::instance().load(source)) {
    for (const DeviceKernel& kernel : m_program.kernels)
        m_functions.emplace(kernel.name, m_module.function(kernel.name));
}

CudaRunResult CudaExecutor::run(const VarMap<Buffer*>& buffers, const VarMap<int64_t>& scalars,
                                int repeat) {
    VarMap<CudaHostBuffer> memory;
    for (const auto& [var, buffer] : buffers) {
        for (const DeviceKernel& kernel : m_program.kernels) {
            const KernelParam* param = kernel.findParam(var);
            if (param && param->type != buffer->dtype()) {
                throw UserError("buffer '" + buffer->name() + "' holds " +
                                buffer->dtype().toString() + " but kernel '" + kernel.name +
                                "' uses it as " + param->type.toString());
            }
        }
        memory[var] = {buffer->data(), buffer->bytes()};
    }
    return run(memory, scalars, repeat);
}

CudaRunResult CudaExecutor::run(const VarMap<CudaHostBuffer>& buffers,
                                const VarMap<int64_t>& scalars, int repeat) {
    const CudaRuntime& runtime = CudaRuntime::instance();
    std::list<std::pair<CudaHostBuffer, CudaDeviceBuffer>> copies;
    VarMap<cuda::CUdeviceptr> devicePointers;
    for (const auto& [var, host] : buffers) {
        copies.emplace_back(host, runtime.allocate(host.bytes));
        copies.back().second.upload(host.data);
        devicePointers[var] = copies.back().second.pointer();
    }
    auto runOnce = [&] {
        HostRunner(m_program, m_functions, devicePointers, scalars).visitStmt(m_program.host);
    };
    runOnce();
    runtime.synchronize();
    for (auto& [host, device] : copies)
        device.download(host.data);
    CudaRunResult result;
    for (int i = 0; i < repeat; ++i)
        result.milliseconds.push_back(runtime.time(runOnce));
    return result;
}

} // namespace bs
