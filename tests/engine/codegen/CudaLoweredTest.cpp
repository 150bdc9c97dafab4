// The CUDA code generator on programs lowered by the real pipeline (te -> schedule -> lower):
// seed 002's Ex. 6, 7 and 8 must give the seed's kernel character for character; classic GPU
// schedules must give TVM-shaped kernels that NVRTC accepts and, on a GPU, compute the right
// values.

#include "codegen/CudaCodegen.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "lower/Lower.h"
#include "run/CudaExecutor.h"
#include "te/Compute.h"
#include "te/Reduce.h"

#include <gtest/gtest.h>

using namespace bs;

namespace {

Expr f32(double v) { return makeConst(DataType::float32(), v); }

/// A lowered and CUDA-generated function with its argument buffers in order.
struct GpuFunction {
    LoweredFunc func;
    CudaModule module;
};

GpuFunction buildLowered(const Schedule& s, const std::vector<Tensor>& args,
                         const std::string& name) {
    GpuFunction f{lower(s, args).func, {}};
    std::vector<Var> arguments = f.func.argBuffers;
    arguments.insert(arguments.end(), f.func.scalarParams.begin(), f.func.scalarParams.end());
    f.module = buildCudaModule(f.func.final, name, arguments);
    return f;
}

/// Seed 002, Ex. 6 (attach at i, B shared), Ex. 7 (attach at j) and Ex. 8 (scope inferred).
struct SharedExample {
    Tensor A = placeholder({200, 400}, DataType::float32(), "A");
    Tensor B = compute({200, 400},
                       [this](const std::vector<Var>& v) {
                           return f32(3.14) * A({v[0], v[1]});
                       },
                       "B", "", {"i", "j"});
    Tensor C = compute({100, 200},
                       [this](const std::vector<Var>& v) {
                           return f32(2.72) * B({v[0], v[1]});
                       },
                       "C", "", {"i", "j"});
    Schedule s = createSchedule(C.op);

    SharedExample(bool setShared, bool attachAtJ) {
        IterVar blockX = threadAxis("blockIdx.x"), threadX = threadAxis("threadIdx.x");
        const auto* c = C.op.as<ComputeOpNode>();
        s[C].bind(c->axis[0], blockX);
        s[C].bind(c->axis[1], threadX);
        if (setShared)
            s[B].setScope("shared");
        s[B].computeAt(s[C], attachAtJ ? c->axis[1] : c->axis[0]);
        s[B].bind(B.op.as<ComputeOpNode>()->axis[1], threadX);
    }
};

/// C = A x B (64 x 64) as TVM's GPU tutorial schedules it: 8 x 8 blocks of 8 x 8 threads, A and
/// B staged in shared memory per k-step of 8 (split, then bound to the threads), C accumulated
/// in a local buffer.
struct TiledMatmul {
    Tensor A = placeholder({64, 64}, DataType::float32(), "A");
    Tensor B = placeholder({64, 64}, DataType::float32(), "B");
    IterVar k = reduceAxis(Range(0, 64), "k");
    Tensor C = compute({64, 64},
                       [this](const std::vector<Var>& v) {
                           return sum(A({v[0], k}) * B({k, v[1]}), k);
                       },
                       "C", "", {"i", "j"});
    Schedule s = createSchedule(C.op);

    TiledMatmul() {
        Tensor as = s.cacheRead(A, "shared", {C.op});
        Tensor bs = s.cacheRead(B, "shared", {C.op});
        Tensor cl = s.cacheWrite(C, "local");
        const auto* c = C.op.as<ComputeOpNode>();
        TileResult t = s[C].tile(c->axis[0], c->axis[1], 8, 8);
        s[C].bind(t.xOuter, threadAxis("blockIdx.y"));
        s[C].bind(t.yOuter, threadAxis("blockIdx.x"));
        s[C].bind(t.xInner, threadAxis("threadIdx.y"));
        s[C].bind(t.yInner, threadAxis("threadIdx.x"));
        s[cl].computeAt(s[C], t.yInner);
        IterVar ko = s[cl].split(cl.op.as<ComputeOpNode>()->reduceAxis[0], 8).first;
        for (const Tensor& shared : {as, bs}) {
            s[shared].computeAt(s[cl], ko);
            const auto* op = shared.op.as<ComputeOpNode>();
            IterVar ty = s[shared].splitByNParts(op->axis[0], 8).first;
            IterVar tx = s[shared].splitByNParts(op->axis[1], 8).first;
            s[shared].bind(ty, threadAxis("threadIdx.y"));
            s[shared].bind(tx, threadAxis("threadIdx.x"));
        }
    }
};

/// C = A * 2 on 1024 floats: 4 blocks of 64 threads, four elements each, vectorized.
struct VectorScale {
    Tensor A = placeholder({1024}, DataType::float32(), "A");
    Tensor C = compute({1024}, [this](const std::vector<Var>& v) { return A({v[0]}) * f32(2.0); },
                       "C", "", {"i"});
    Schedule s = createSchedule(C.op);

    VectorScale() {
        auto [outer, lanes] = s[C].split(C.op.as<ComputeOpNode>()->axis[0], 4);
        auto [block, thread] = s[C].split(outer, 64);
        s[C].bind(block, threadAxis("blockIdx.x"));
        s[C].bind(thread, threadAxis("threadIdx.x"));
        s[C].vectorize(lanes);
    }
};

/// C = A + 1 on n floats, n symbolic: blocks of 64 threads and a bound check.
struct SymbolicAddOne {
    Var n = sizeVar("n");
    Tensor A = placeholder({n}, DataType::float32(), "A");
    Tensor C = compute({n}, [this](const std::vector<Var>& v) { return A({v[0]}) + f32(1.0); }, "C",
                       "", {"i"});
    Schedule s = createSchedule(C.op);

    SymbolicAddOne() {
        auto [block, thread] = s[C].split(C.op.as<ComputeOpNode>()->axis[0], 64);
        s[C].bind(block, threadAxis("blockIdx.x"));
        s[C].bind(thread, threadAxis("threadIdx.x"));
    }
};

#define BS_REQUIRE_GPU()                                                                           \
    do {                                                                                           \
        std::string reason;                                                                        \
        if (!CudaRuntime::isAvailable(&reason))                                                    \
            GTEST_SKIP() << "no usable GPU: " << reason;                                           \
    } while (false)

/// Runs `f` on `buffers` (one per argument buffer, in order).
void runOnGpu(const GpuFunction& f, std::vector<Buffer*> buffers, VarMap<int64_t> scalars = {}) {
    CudaExecutor executor(f.module.program, f.module.source);
    VarMap<Buffer*> bound;
    for (size_t i = 0; i < buffers.size(); ++i)
        bound[f.func.argBuffers.at(i)] = buffers[i];
    executor.run(bound, scalars);
}

} // namespace

TEST(CudaLowered, SeedExamples6To8GiveTheSeedKernel) {
    const char* seedKernel =
        R"(extern "C" __global__ void test_kernel0( float* __restrict__ A,  float* __restrict__ C) {
  __shared__ float B[200];
  B[((int)threadIdx.x)] = (A[((((int)blockIdx.x) * 400) + ((int)threadIdx.x))] * 3.140000e+00f);
  C[((((int)blockIdx.x) * 200) + ((int)threadIdx.x))] = (B[((int)threadIdx.x)] * 2.720000e+00f);
}
)";
    for (auto [setShared, attachAtJ] : {std::pair{true, false}, {true, true}, {false, false}}) {
        SharedExample ex(setShared, attachAtJ);
        GpuFunction f = buildLowered(ex.s, {ex.A, ex.C}, "test");
        EXPECT_EQ(f.module.source, seedKernel) << "shared " << setShared << ", at j " << attachAtJ;
        EXPECT_EQ(toString(f.module.program.host), R"(produce C {
  tvm_call_packed("test_kernel0", A, C, 100, 200)
}
)");
    }
}

TEST(CudaLowered, TiledMatmulStagesTilesBetweenBarriers) {
    TiledMatmul m;
    GpuFunction f = buildLowered(m.s, {m.A, m.B, m.C}, "matmul");
    EXPECT_EQ(
        f.module.source,
        R"(extern "C" __global__ void matmul_kernel0( float* __restrict__ A,  float* __restrict__ B,  float* __restrict__ C) {
  float C_local[1];
  C_local[0] = 0.000000e+00f;
  for (int k_outer = 0; k_outer < 8; ++k_outer) {
    __shared__ float A_shared[64];
    __syncthreads();
    A_shared[((((int)threadIdx.y) * 8) + ((int)threadIdx.x))] = A[((((((int)blockIdx.y) * 512) + (((int)threadIdx.y) * 64)) + (k_outer * 8)) + ((int)threadIdx.x))];
    __shared__ float B_shared[64];
    B_shared[((((int)threadIdx.y) * 8) + ((int)threadIdx.x))] = B[((((k_outer * 512) + (((int)threadIdx.y) * 64)) + (((int)blockIdx.x) * 8)) + ((int)threadIdx.x))];
    __syncthreads();
    for (int k_inner = 0; k_inner < 8; ++k_inner) {
      C_local[0] = (C_local[0] + (A_shared[((((int)threadIdx.y) * 8) + k_inner)] * B_shared[((k_inner * 8) + ((int)threadIdx.x))]));
    }
  }
  C[((((((int)blockIdx.y) * 512) + (((int)threadIdx.y) * 64)) + (((int)blockIdx.x) * 8)) + ((int)threadIdx.x))] = C_local[0];
}
)");
    const DeviceKernel& kernel = f.module.program.kernels.at(0);
    EXPECT_EQ(kernel.threadsPerBlock(), std::optional<int64_t>(64));
    EXPECT_EQ(toString(kernel.gridDim[0]) + "," + toString(kernel.gridDim[1]), "8,8");
}

TEST(CudaLowered, VectorizedLoopBecomesFloat4) {
    VectorScale v;
    GpuFunction f = buildLowered(v.s, {v.A, v.C}, "scale");
    // CSE names the ramp's base; its value shows the base is a multiple of 4.
    EXPECT_EQ(
        f.module.source,
        R"(extern "C" __global__ void scale_kernel0( float* __restrict__ A,  float* __restrict__ C) {
  int cse_var_1 = ((((int)blockIdx.x) * 256) + (((int)threadIdx.x) * 4));
  float4 A_v = ((float4*)(A + cse_var_1))[0];
  ((float4*)(C + cse_var_1))[0] = make_float4((A_v.x * 2.000000e+00f), (A_v.y * 2.000000e+00f), (A_v.z * 2.000000e+00f), (A_v.w * 2.000000e+00f));
}
)");
}

TEST(CudaLowered, SymbolicShapeLaunchesEnoughBlocksAndChecksBounds) {
    SymbolicAddOne p;
    GpuFunction f = buildLowered(p.s, {p.A, p.C}, "addone");
    EXPECT_EQ(
        f.module.source,
        R"(extern "C" __global__ void addone_kernel0( float* __restrict__ A,  float* __restrict__ C, int n) {
  if (((((int)blockIdx.x) * 64) + ((int)threadIdx.x)) < n) {
    int cse_var_1 = ((((int)blockIdx.x) * 64) + ((int)threadIdx.x));
    C[cse_var_1] = (A[cse_var_1] + 1.000000e+00f);
  }
}
)");
    EXPECT_EQ(toString(f.module.program.host),
              "produce C {\n  tvm_call_packed(\"addone_kernel0\", A, C, n, floordiv((n + 63), "
              "64), 64)\n}\n");
}

TEST(CudaLowered, TiledMatmulRunsOnTheGpu) {
    BS_REQUIRE_GPU();
    TiledMatmul m;
    GpuFunction f = buildLowered(m.s, {m.A, m.B, m.C}, "matmul");
    Buffer a("A", DataType::float32(), {64, 64}), b("B", DataType::float32(), {64, 64});
    Buffer c("C", DataType::float32(), {64, 64}), expected("C", DataType::float32(), {64, 64});
    a.fillRandom(1);
    b.fillRandom(2);
    for (int64_t i = 0; i < 64; ++i) {
        for (int64_t j = 0; j < 64; ++j) {
            double total = 0;
            for (int64_t k = 0; k < 64; ++k)
                total += a.at({i, k}) * b.at({k, j});
            expected.set({i, j}, total);
        }
    }
    runOnGpu(f, {&a, &b, &c});
    std::string mismatch;
    EXPECT_TRUE(Buffer::allClose(c, expected, 1e-4, 1e-5, &mismatch)) << mismatch;
}

TEST(CudaLowered, VectorizedAndSymbolicKernelsRunOnTheGpu) {
    BS_REQUIRE_GPU();
    VectorScale v;
    Buffer a("A", DataType::float32(), {1024}), c("C", DataType::float32(), {1024});
    a.fillRandom(3);
    runOnGpu(buildLowered(v.s, {v.A, v.C}, "scale"), {&a, &c});
    for (int64_t i = 0; i < 1024; ++i)
        ASSERT_EQ(c.getDouble(i), a.getDouble(i) * 2) << i;

    SymbolicAddOne p;
    GpuFunction f = buildLowered(p.s, {p.A, p.C}, "addone");
    Buffer a2("A", DataType::float32(), {1000}), c2("C", DataType::float32(), {1000});
    a2.fillRandom(4);
    runOnGpu(f, {&a2, &c2}, {{p.n, 1000}});
    for (int64_t i = 0; i < 1000; ++i)
        ASSERT_EQ(c2.getDouble(i), double(float(a2.getDouble(i) + 1.0))) << i;
}

TEST(CudaLowered, BufferOfTheWrongTypeIsAUserError) {
    BS_REQUIRE_GPU();
    VectorScale v;
    GpuFunction f = buildLowered(v.s, {v.A, v.C}, "scale");
    Buffer a("A", DataType::int32(), {1024}), c("C", DataType::float32(), {1024});
    try {
        runOnGpu(f, {&a, &c});
        FAIL() << "expected a UserError";
    } catch (const UserError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "buffer 'A' holds int32 but kernel 'scale_kernel0' uses it as float32");
    }
}

TEST(CudaLowered, NvrtcCompilesTheLoweredKernels) {
    try {
        cuda::nvrtcApi();
    } catch (const UserError& e) {
        GTEST_SKIP() << e.what();
    }
    SharedExample ex(true, false);
    TiledMatmul m;
    VectorScale v;
    SymbolicAddOne p;
    for (const GpuFunction& f :
         {buildLowered(ex.s, {ex.A, ex.C}, "test"), buildLowered(m.s, {m.A, m.B, m.C}, "matmul"),
          buildLowered(v.s, {v.A, v.C}, "scale"), buildLowered(p.s, {p.A, p.C}, "addone")}) {
        EXPECT_NO_THROW(compileCudaSource(f.module.source, 8, 0)) << f.module.source;
    }
}
