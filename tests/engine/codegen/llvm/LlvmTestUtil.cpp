#include "LlvmTestUtil.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace bs::test {

Var bufferVar(const std::string& name) { return Var(name, DataType::handle()); }

Expr load(const Var& buffer, const Expr& index, DataType type) {
    return LoadNode::make(type, buffer, index);
}

Stmt store(const Var& buffer, const Expr& value, const Expr& index) {
    return StoreNode::make(buffer, value, index);
}

Stmt loop(const Var& var, const Expr& min, const Expr& extent, const Stmt& body, ForKind kind) {
    return ForNode::make(var, min, extent, kind, body);
}

Stmt seq(std::vector<Stmt> stmts) { return SeqNode::make(std::move(stmts)); }

LlvmJit& testJit() {
    static LlvmJit jit(cpuKernelRuntime());
    return jit;
}

JitKernel compileKernel(const std::string& name, std::vector<Var> buffers, std::vector<Var> scalars,
                        const Stmt& body, const LlvmCodegenOptions& options) {
    CpuKernel kernel{name, std::move(buffers), std::move(scalars), body};
    try {
        return testJit().compile(kernel, options);
    } catch (const UserError& error) {
        ADD_FAILURE() << "compiling " << name << ": " << error.what() << "\n" << toString(body);
        throw;
    }
}

std::string unoptimizedIr(const std::string& name, std::vector<Var> buffers,
                          std::vector<Var> scalars, const Stmt& body) {
    LlvmCodegenOptions options;
    options.optimize = false;
    return printLlvmIr(CpuKernel{name, std::move(buffers), std::move(scalars), body}, options);
}

std::vector<float> randomFloats(size_t count, uint32_t seed) {
    std::mt19937 generator(seed);
    std::uniform_real_distribution<float> distribution(-1.0f, 1.0f);
    std::vector<float> values(count);
    for (float& v : values)
        v = distribution(generator);
    return values;
}

void expectNear(const std::vector<float>& expected, const std::vector<float>& actual,
                float tolerance) {
    ASSERT_EQ(expected.size(), actual.size());
    size_t mismatches = 0;
    for (size_t i = 0; i < expected.size(); ++i) {
        float bound = tolerance * std::max(1.0f, std::fabs(expected[i]));
        if (std::fabs(expected[i] - actual[i]) > bound && ++mismatches <= 5)
            ADD_FAILURE() << "element " << i << ": expected " << expected[i] << ", got "
                          << actual[i];
    }
    EXPECT_EQ(mismatches, 0u);
}

} // namespace bs::test
