// The generated kernels run on a real GPU (NVRTC + driver API) and agree with a CPU reference.
// Every test skips, saying why, where no GPU is usable.

#include "CudaTestPrograms.h"

#include "codegen/CudaCodegen.h"
#include "run/CudaExecutor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>

using namespace bs;
using namespace bs::test;

namespace {

#define BS_REQUIRE_GPU()                                                                           \
    do {                                                                                           \
        std::string reason;                                                                        \
        if (!CudaRuntime::isAvailable(&reason))                                                    \
            GTEST_SKIP() << "no usable GPU: " << reason;                                           \
    } while (false)

template <typename T> CudaHostBuffer host(std::vector<T>& data) {
    return {data.data(), data.size() * sizeof(T)};
}

/// Compiles and runs `p` with `buffers` bound to its buffer arguments in order.
CudaRunResult runOnGpu(const GpuProgram& p, const std::vector<CudaHostBuffer>& buffers,
                       const VarMap<int64_t>& scalars = {}, int repeat = 0) {
    CudaModule module = buildCudaModule(p.body, p.name, p.arguments);
    CudaExecutor executor(module.program, module.source);
    VarMap<CudaHostBuffer> bound;
    size_t next = 0;
    for (const Var& v : p.arguments) {
        if (v.type().isHandle())
            bound[v] = buffers.at(next++);
    }
    return executor.run(bound, scalars, repeat);
}

/// Deterministic values in [-range, range).
std::vector<float> inputs(size_t count, float range = 4.0f, uint32_t seed = 1) {
    std::vector<float> v(count);
    for (float& x : v) {
        seed = seed * 1664525u + 1013904223u;
        x = (float(seed >> 8) / float(1u << 24) * 2.0f - 1.0f) * range;
    }
    return v;
}

void expectNear(const std::vector<float>& actual, const std::vector<float>& expected,
                float relative) {
    ASSERT_EQ(actual.size(), expected.size());
    for (size_t i = 0; i < actual.size(); ++i) {
        float tolerance = relative * std::max(1.0f, std::fabs(expected[i]));
        ASSERT_NEAR(actual[i], expected[i], tolerance) << "element " << i;
    }
}

} // namespace

TEST(CudaGpu, ReportsTheDevice) {
    BS_REQUIRE_GPU();
    const CudaDeviceInfo& d = CudaRuntime::instance().device();
    std::cout << "GPU: " << d.name << ", compute capability " << d.computeMajor << "."
              << d.computeMinor << ", " << d.multiprocessors << " SMs, driver CUDA "
              << d.driverVersion / 1000 << "." << d.driverVersion % 1000 / 10 << "\n";
    EXPECT_GE(d.computeMajor, 3);
    EXPECT_GE(d.maxThreadsPerBlock, 256);
}

TEST(CudaGpu, SeedExample6MatchesTheCpu) {
    BS_REQUIRE_GPU();
    std::vector<float> a = inputs(200 * 400), c(100 * 200, -1.0f), expected(100 * 200);
    for (size_t i = 0; i < 100; ++i) {
        for (size_t j = 0; j < 200; ++j)
            expected[i * 200 + j] = (a[i * 400 + j] * 3.14f) * 2.72f;
    }
    runOnGpu(seedExample6(), {host(a), host(c)});
    expectNear(c, expected, 1e-6f);
}

TEST(CudaGpu, TiledMatmulMatchesTheCpu) {
    BS_REQUIRE_GPU();
    std::vector<float> a = inputs(64 * 64, 1.0f, 2), b = inputs(64 * 64, 1.0f, 3), c(64 * 64);
    std::vector<float> expected(64 * 64);
    for (size_t i = 0; i < 64; ++i) {
        for (size_t j = 0; j < 64; ++j) {
            double sum = 0;
            for (size_t k = 0; k < 64; ++k)
                sum += double(a[i * 64 + k]) * double(b[k * 64 + j]);
            expected[i * 64 + j] = float(sum);
        }
    }
    runOnGpu(tiledMatmul(), {host(a), host(b), host(c)});
    expectNear(c, expected, 1e-4f);
}

TEST(CudaGpu, RowMaxReductionMatchesTheCpu) {
    BS_REQUIRE_GPU();
    std::vector<float> a = inputs(256 * 64), c(256), expected(256);
    for (size_t i = 0; i < 256; ++i)
        expected[i] = *std::max_element(a.begin() + long(i * 64), a.begin() + long(i * 64 + 64));
    runOnGpu(rowMax(), {host(a), host(c)});
    expectNear(c, expected, 0.0f);
}

TEST(CudaGpu, VectorKernelMatchesTheCpu) {
    BS_REQUIRE_GPU();
    std::vector<float> a = inputs(1024, 4.0f, 4), b = inputs(1024, 4.0f, 5), c(1024);
    std::vector<float> expected(1024);
    for (size_t i = 0; i < 1024; ++i)
        expected[i] = a[i] * 2.0f + b[i];
    runOnGpu(vectorAxpy(), {host(a), host(b), host(c)});
    expectNear(c, expected, 1e-6f);
}

TEST(CudaGpu, SharedMemoryExchangeSeesEveryThreadsWrite) {
    BS_REQUIRE_GPU();
    std::vector<float> a = inputs(1024, 4.0f, 6), c(1024), expected(1024);
    for (size_t block = 0; block < 8; ++block) {
        for (size_t t = 0; t < 32; ++t) {
            for (size_t lane = 0; lane < 4; ++lane)
                expected[block * 128 + t * 4 + lane] = a[block * 128 + (31 - t) * 4 + lane];
        }
    }
    runOnGpu(sharedReverse(), {host(a), host(c)});
    expectNear(c, expected, 0.0f);
}

TEST(CudaGpu, SymbolicShapeIsBoundAtRunTime) {
    BS_REQUIRE_GPU();
    GpuProgram p = symbolicAddOne();
    const int64_t n = 1000;
    std::vector<float> a = inputs(1000), c(1000), expected(1000);
    for (size_t i = 0; i < 1000; ++i)
        expected[i] = a[i] + 1.0f;
    runOnGpu(p, {host(a), host(c)}, {{p.arguments[2], n}});
    expectNear(c, expected, 1e-6f);
}

TEST(CudaGpu, FloorDivisionOfNegativeValuesMatchesPython) {
    BS_REQUIRE_GPU();
    std::vector<int32_t> a(256), c(256), expected(256);
    for (size_t i = 0; i < 256; ++i) {
        a[i] = int32_t(i) - 128;
        auto floorDiv = [](int32_t x, int32_t y) { return int32_t(std::floor(double(x) / y)); };
        int32_t t = int32_t(i % 64);
        expected[i] =
            floorDiv(a[i], 7) * 100 + (a[i] - floorDiv(a[i], 7) * 7) + floorDiv(t - 32, 8);
    }
    runOnGpu(floorDivision(), {host(a), host(c)});
    EXPECT_EQ(c, expected);
}

TEST(CudaGpu, MathFunctionsMatchTheCpu) {
    BS_REQUIRE_GPU();
    std::vector<float> a = inputs(256, 3.0f, 7), c(256), expected(256);
    for (size_t i = 0; i < 256; ++i) {
        float x = a[i];
        expected[i] = std::exp(x) + std::sqrt(std::fabs(x)) + std::max(x, 0.0f) + std::tanh(x) +
                      1.0f / (1.0f + std::exp(-x));
    }
    runOnGpu(mathFunctions(), {host(a), host(c)});
    expectNear(c, expected, 1e-5f);
}

TEST(CudaGpu, TwoKernelsShareAHostAllocatedBuffer) {
    BS_REQUIRE_GPU();
    std::vector<float> a = inputs(512), c(512), expected(512);
    for (size_t i = 0; i < 512; ++i)
        expected[i] = (a[i] + 1.0f) * 2.0f;
    runOnGpu(twoKernels(), {host(a), host(c)});
    expectNear(c, expected, 1e-6f);
}

TEST(CudaGpu, GuardedAndPredicatedStoresTouchOnlyTheirElements) {
    BS_REQUIRE_GPU();
    std::vector<float> c(96, -1.0f);
    runOnGpu(guardedThreadNest(), {host(c)});
    for (size_t i = 0; i < 96; ++i)
        ASSERT_EQ(c[i], i < 32 ? 1.0f : 2.0f) << i;
    std::vector<float> a = inputs(16), d(16, -1.0f);
    runOnGpu(predicatedStore(), {host(a), host(d)});
    for (size_t i = 0; i < 16; ++i)
        ASSERT_EQ(d[i], i < 10 ? a[i] : -1.0f) << i;
}

TEST(CudaGpu, ScalarisedVectorsKeepVectorMeaning) {
    BS_REQUIRE_GPU();
    std::vector<float> a = inputs(40), c(24, -1.0f);
    runOnGpu(stridedVectors(), {host(a), host(c)});
    for (size_t t = 0; t < 8; ++t) {
        for (size_t lane = 0; lane < 4; ++lane) {
            // Threads overlap (stride 2, 4 lanes): the last writer of an element is not fixed,
            // but every element holds one of the values written to it.
            size_t index = t + 2 * lane;
            bool fromSomeThread = false;
            for (size_t u = 0; u < 8; ++u) {
                for (size_t l = 0; l < 4; ++l)
                    fromSomeThread |= u + 2 * l == index && c[index] == a[u * 4 + 1 + l];
            }
            ASSERT_TRUE(fromSomeThread) << index;
        }
    }
}

TEST(CudaGpu, RepeatedRunsAreTimed) {
    BS_REQUIRE_GPU();
    std::vector<float> a = inputs(64 * 64), b = inputs(64 * 64), c(64 * 64);
    CudaRunResult result = runOnGpu(tiledMatmul(), {host(a), host(b), host(c)}, {}, 5);
    ASSERT_EQ(result.milliseconds.size(), 5u);
    EXPECT_GT(result.best(), 0.0);
    EXPECT_LE(result.best(), result.median());
    std::cout << "tiled 64x64 matmul: best " << result.best() << " ms, median " << result.median()
              << " ms\n";
}

TEST(CudaGpu, MissingScalarIsAUserError) {
    BS_REQUIRE_GPU();
    std::vector<float> a(64), c(64);
    try {
        runOnGpu(symbolicAddOne(), {host(a), host(c)});
        FAIL() << "expected a UserError";
    } catch (const UserError& e) {
        EXPECT_EQ(std::string(e.what()), "the GPU program needs a value for 'n'");
    }
}

TEST(CudaGpu, BlockLargerThanTheDeviceAllowsIsAUserError) {
    BS_REQUIRE_GPU();
    Var c("C", DataType::handle());
    IterVar tx(Range(), Var("threadIdx.x"), IterVarType::ThreadIndex, "threadIdx.x");
    Stmt body = AttrStmtNode::make(tx, attr::kThreadExtent, Expr(4096),
                                   StoreNode::make(c, Expr(1.0f), tx->var));
    std::vector<float> data(4096);
    try {
        runOnGpu({"big", body, {c}}, {host(data)});
        FAIL() << "expected a UserError";
    } catch (const UserError& e) {
        EXPECT_NE(std::string(e.what()).find("exceeds the limits of"), std::string::npos)
            << e.what();
    }
}
