#include "DiffTestUtil.h"

#include "ir/Op.h"

#include <gtest/gtest.h>

namespace bs::test {

namespace {

int64_t extentOf(const Expr& e, const SizeBindings& sizes) {
    if (auto c = asConstInt(e))
        return *c;
    for (const auto& [var, value] : sizes)
        if (e.same_as(var))
            return value;
    ADD_FAILURE() << "no size for a shape expression";
    return 0;
}

} // namespace

std::vector<Buffer> randomArguments(const std::vector<Tensor>& args, const SizeBindings& sizes,
                                    uint64_t seed) {
    std::vector<Buffer> buffers;
    for (size_t i = 0; i < args.size(); ++i) {
        std::vector<int64_t> shape;
        for (const Expr& e : args[i].shape())
            shape.push_back(extentOf(e, sizes));
        buffers.emplace_back(args[i].name(), args[i].dtype(), shape);
        buffers.back().fillRandom(seed + i);
    }
    return buffers;
}

std::vector<Buffer> runLowered(const LoweredFunc& func, const std::vector<Buffer>& inputs,
                               const SizeBindings& sizes, RunResult* result) {
    std::vector<Buffer> buffers = inputs;
    Interpreter interpreter;
    for (size_t i = 0; i < buffers.size(); ++i)
        interpreter.bindBuffer(func.argBuffers.at(i), buffers[i]);
    for (const auto& [var, value] : sizes)
        interpreter.bindScalar(var, value);
    RunResult r = interpreter.run(func.deviceCode());
    if (result)
        *result = std::move(r);
    return buffers;
}

std::vector<Buffer> lowerAndRun(const Schedule& sch, const std::vector<Tensor>& args,
                                const LowerOptions& options, const std::vector<Buffer>& inputs,
                                const SizeBindings& sizes, RunResult* result) {
    LowerResult lowered = lower(sch, args, options);
    return runLowered(lowered.func, inputs, sizes, result);
}

} // namespace bs::test
