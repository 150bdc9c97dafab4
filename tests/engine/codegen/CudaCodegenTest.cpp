#include "CudaTestPrograms.h"

#include "codegen/CudaCodegen.h"
#include "codegen/CudaCodegenInternal.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "lower/ThreadSync.h"
#include "te/Operation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

using namespace bs;
using namespace bs::test;

namespace {

std::string cudaSource(const GpuProgram& p, const CudaCodegenOptions& options = {}) {
    return buildCudaModule(p.body, p.name, p.arguments, options).source;
}

Var buffer(const std::string& name) { return Var(name, DataType::handle()); }

IterVar threadAxis(const std::string& tag) {
    return IterVar(Range(), Var(tag), IterVarType::ThreadIndex, tag);
}

Stmt threadExtent(const IterVar& iv, Expr extent, Stmt body) {
    return AttrStmtNode::make(iv, attr::kThreadExtent, std::move(extent), std::move(body));
}

Stmt scoped(const Var& buf, const std::string& scope, Stmt alloc) {
    return AttrStmtNode::make(buf, attr::kStorageScope, StringImmNode::make(scope), alloc);
}

Expr load(const Var& buf, Expr index, DataType type = DataType::float32()) {
    return LoadNode::make(type, buf, std::move(index));
}

/// The message of the UserError `fn` throws, or "" when it throws none.
template <typename Fn> std::string errorOf(Fn fn) {
    try {
        fn();
    } catch (const UserError& e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST(CudaCodegen, SeedExample6KernelMatchesTheSeedText) {
    // Seed 002, Ex. 6 (also Ex. 7 and 8), character for character.
    EXPECT_EQ(
        cudaSource(seedExample6()),
        R"(extern "C" __global__ void test_kernel0( float* __restrict__ A,  float* __restrict__ C) {
  __shared__ float B[200];
  B[((int)threadIdx.x)] = (A[((((int)blockIdx.x) * 400) + ((int)threadIdx.x))] * 3.140000e+00f);
  C[((((int)blockIdx.x) * 200) + ((int)threadIdx.x))] = (B[((int)threadIdx.x)] * 2.720000e+00f);
}
)");
}

TEST(CudaCodegen, TheOpenClDialectPrintsTvmsOpenClForm) {
    // tvm.build(..., "opencl"): TVM's CodeGenOpenCL spelling of seed 002's Ex. 6.
    CudaCodegenOptions options;
    options.openCl = true;
    EXPECT_EQ(
        cudaSource(seedExample6(), options),
        R"(__kernel void test_kernel0(__global float* restrict A, __global float* restrict C) {
  __local float B[200];
  B[((int)get_local_id(0))] = (A[((((int)get_group_id(0)) * 400) + ((int)get_local_id(0)))] * 3.140000e+00f);
  C[((((int)get_group_id(0)) * 200) + ((int)get_local_id(0)))] = (B[((int)get_local_id(0))] * 2.720000e+00f);
}
)");
    // Overloaded math functions, double enabled by its extension.
    std::string math = cudaSource(mathFunctions(), options);
    EXPECT_NE(math.find("exp(A["), std::string::npos) << math;
    EXPECT_NE(math.find("(1.000000e+00f / (1.000000e+00f + exp((-A["), std::string::npos) << math;
    EXPECT_EQ(math.find("expf"), std::string::npos) << math;
    EXPECT_EQ(math.find("cl_khr_fp64"), std::string::npos) << math;
}

TEST(CudaCodegen, LaunchBoundsOptionPrintsTheBlockSizeAsLaterTvmDoes) {
    CudaCodegenOptions options;
    options.launchBounds = true;
    std::string source = cudaSource(seedExample6(), options);
    EXPECT_EQ(source.substr(0, source.find("( float*")),
              R"(extern "C" __global__ void __launch_bounds__(200) test_kernel0)");
}

TEST(CudaCodegen, TiledMatmulStagesTilesBetweenBarriers) {
    EXPECT_EQ(
        cudaSource(tiledMatmul()),
        R"(extern "C" __global__ void matmul_kernel0( float* __restrict__ A,  float* __restrict__ B,  float* __restrict__ C) {
  float C_local[1];
  __shared__ float A_shared[256];
  __shared__ float B_shared[256];
  C_local[0] = 0.000000e+00f;
  for (int k_outer = 0; k_outer < 4; ++k_outer) {
    __syncthreads();
    A_shared[((((int)threadIdx.y) * 16) + ((int)threadIdx.x))] = A[(((((((int)blockIdx.y) * 16) + ((int)threadIdx.y)) * 64) + (k_outer * 16)) + ((int)threadIdx.x))];
    B_shared[((((int)threadIdx.y) * 16) + ((int)threadIdx.x))] = B[((((k_outer * 16) + ((int)threadIdx.y)) * 64) + ((((int)blockIdx.x) * 16) + ((int)threadIdx.x)))];
    __syncthreads();
    for (int k_inner = 0; k_inner < 16; ++k_inner) {
      C_local[0] = (C_local[0] + (A_shared[((((int)threadIdx.y) * 16) + k_inner)] * B_shared[((k_inner * 16) + ((int)threadIdx.x))]));
    }
  }
  C[((((((int)blockIdx.y) * 16) + ((int)threadIdx.y)) * 64) + ((((int)blockIdx.x) * 16) + ((int)threadIdx.x)))] = C_local[0];
}
)");
}

TEST(CudaCodegen, ReductionLoopAccumulatesInALocalArray) {
    EXPECT_EQ(
        cudaSource(rowMax()),
        R"(extern "C" __global__ void rowmax_kernel0( float* __restrict__ A,  float* __restrict__ C) {
  float C_local[1];
  C_local[0] = (-__int_as_float(0x7f800000));
  for (int k = 0; k < 64; ++k) {
    C_local[0] = max(C_local[0], A[((((((int)blockIdx.x) * 64) + ((int)threadIdx.x)) * 64) + k)]);
  }
  C[((((int)blockIdx.x) * 64) + ((int)threadIdx.x))] = C_local[0];
}
)");
}

TEST(CudaCodegen, AlignedVectorAccessesUseFloat4) {
    EXPECT_EQ(
        cudaSource(vectorAxpy()),
        R"(extern "C" __global__ void axpy_kernel0( float* __restrict__ A,  float* __restrict__ B,  float* __restrict__ C) {
  float4 A_v = ((float4*)(A + ((((int)blockIdx.x) * 128) + (((int)threadIdx.x) * 4))))[0];
  float4 B_v = ((float4*)(B + ((((int)blockIdx.x) * 128) + (((int)threadIdx.x) * 4))))[0];
  ((float4*)(C + ((((int)blockIdx.x) * 128) + (((int)threadIdx.x) * 4))))[0] = make_float4(((A_v.x * 2.000000e+00f) + B_v.x), ((A_v.y * 2.000000e+00f) + B_v.y), ((A_v.z * 2.000000e+00f) + B_v.z), ((A_v.w * 2.000000e+00f) + B_v.w));
}
)");
}

TEST(CudaCodegen, VectorAccessesToSharedMemoryAreScalarised) {
    EXPECT_EQ(
        cudaSource(sharedReverse()),
        R"(extern "C" __global__ void reverse_kernel0( float* __restrict__ A,  float* __restrict__ C) {
  __shared__ float S[128];
  float4 A_v = ((float4*)(A + ((((int)blockIdx.x) * 128) + (((int)threadIdx.x) * 4))))[0];
  S[(((int)threadIdx.x) * 4)] = A_v.x;
  S[((((int)threadIdx.x) * 4) + 1)] = A_v.y;
  S[((((int)threadIdx.x) * 4) + 2)] = A_v.z;
  S[((((int)threadIdx.x) * 4) + 3)] = A_v.w;
  __syncthreads();
  ((float4*)(C + ((((int)blockIdx.x) * 128) + (((int)threadIdx.x) * 4))))[0] = make_float4(S[(124 - (((int)threadIdx.x) * 4))], S[((124 - (((int)threadIdx.x) * 4)) + 1)], S[((124 - (((int)threadIdx.x) * 4)) + 2)], S[((124 - (((int)threadIdx.x) * 4)) + 3)]);
}
)");
}

TEST(CudaCodegen, UnalignedOrStridedVectorsAreScalarised) {
    // The load's base tx*4 + 1 is not a multiple of 4; the store has stride 2.
    EXPECT_EQ(
        cudaSource(stridedVectors()),
        R"(extern "C" __global__ void strided_kernel0( float* __restrict__ A,  float* __restrict__ C) {
  C[((int)threadIdx.x)] = A[((((int)threadIdx.x) * 4) + 1)];
  C[(((int)threadIdx.x) + 2)] = A[(((((int)threadIdx.x) * 4) + 1) + 1)];
  C[(((int)threadIdx.x) + 4)] = A[(((((int)threadIdx.x) * 4) + 1) + 2)];
  C[(((int)threadIdx.x) + 6)] = A[(((((int)threadIdx.x) * 4) + 1) + 3)];
}
)");
}

TEST(CudaCodegen, VectorStoreReadingItsOwnBufferComputesAllLanesFirst) {
    // Lane 1 reads C[tx], which lane 0 overwrites.
    EXPECT_EQ(cudaSource(vectorOverwrite()),
              R"(extern "C" __global__ void overwrite_kernel0( float* __restrict__ C) {
  float C_lanes[2] = {C[(((int)threadIdx.x) + 2)], C[((((int)threadIdx.x) + 2) + -2)]};
  C[((int)threadIdx.x)] = C_lanes[0];
  C[(((int)threadIdx.x) + 2)] = C_lanes[1];
}
)");
}

TEST(CudaCodegen, SymbolicShapeIsAParameterAndTheBoundCheckAnIf) {
    GpuProgram p = symbolicAddOne();
    CudaModule module = buildCudaModule(p.body, p.name, p.arguments);
    EXPECT_EQ(
        module.source,
        R"(extern "C" __global__ void addone_kernel0( float* __restrict__ A,  float* __restrict__ C, int n) {
  if (((((int)blockIdx.x) * 64) + ((int)threadIdx.x)) < n) {
    C[((((int)blockIdx.x) * 64) + ((int)threadIdx.x))] = (A[((((int)blockIdx.x) * 64) + ((int)threadIdx.x))] + 1.000000e+00f);
  }
}
)");
    EXPECT_EQ(toString(module.program.kernels[0].gridDim[0]), "floordiv((n + 63), 64)");
}

TEST(CudaCodegen, FloorDivisionOfPossiblyNegativeValuesUsesHelpers) {
    EXPECT_EQ(cudaSource(floorDivision()),
              R"(__device__ __forceinline__ int bs_floordiv(int a, int b) {
  int q = a / b;
  return ((a % b != 0) && ((a < 0) != (b < 0))) ? (q - 1) : q;
}
__device__ __forceinline__ long long bs_floordiv(long long a, long long b) {
  long long q = a / b;
  return ((a % b != 0) && ((a < 0) != (b < 0))) ? (q - 1) : q;
}
__device__ __forceinline__ int bs_floormod(int a, int b) {
  int r = a % b;
  return ((r != 0) && ((r < 0) != (b < 0))) ? (r + b) : r;
}
__device__ __forceinline__ long long bs_floormod(long long a, long long b) {
  long long r = a % b;
  return ((r != 0) && ((r < 0) != (b < 0))) ? (r + b) : r;
}

extern "C" __global__ void floordiv_kernel0( int* __restrict__ A,  int* __restrict__ C) {
  C[((((int)blockIdx.x) * 64) + ((int)threadIdx.x))] = (((bs_floordiv(A[((((int)blockIdx.x) * 64) + ((int)threadIdx.x))], 7) * 100) + bs_floormod(A[((((int)blockIdx.x) * 64) + ((int)threadIdx.x))], 7)) + bs_floordiv((((int)threadIdx.x) - 32), 8));
}
)");
}

TEST(CudaCodegen, FloorDivisionOfNonNegativeValuesIsPlainDivision) {
    Var c = buffer("C");
    IterVar tx = threadAxis("threadIdx.x");
    Var k("k");
    Expr value = floordiv(tx->var, 8) + floormod(k, 4) * floordiv(k + 1, 2);
    Stmt loop = ForNode::make(k, 0, 4, ForKind::Serial, StoreNode::make(c, value, tx->var, Expr()));
    std::string source = cudaSource({"f", threadExtent(tx, 32, loop), {c}});
    EXPECT_EQ(source.find("bs_floor"), std::string::npos) << source;
    EXPECT_NE(source.find("((((int)threadIdx.x) / 8) + ((k % 4) * ((k + 1) / 2)))"),
              std::string::npos)
        << source;
}

TEST(CudaCodegen, MathCallsUseTheFloatFunctions) {
    EXPECT_EQ(
        cudaSource(mathFunctions()),
        R"(extern "C" __global__ void math_kernel0( float* __restrict__ A,  float* __restrict__ C) {
  C[((((int)blockIdx.x) * 64) + ((int)threadIdx.x))] = ((((__expf(A[((((int)blockIdx.x) * 64) + ((int)threadIdx.x))]) + sqrtf(fabsf(A[((((int)blockIdx.x) * 64) + ((int)threadIdx.x))]))) + max(A[((((int)blockIdx.x) * 64) + ((int)threadIdx.x))], 0.000000e+00f)) + tanhf(A[((((int)blockIdx.x) * 64) + ((int)threadIdx.x))])) + (1.000000e+00f / (1.000000e+00f + __expf((-A[((((int)blockIdx.x) * 64) + ((int)threadIdx.x))])))));
}
)");
}

TEST(CudaCodegen, MathIntrinsicsFollowTvmsCudaRulesAndExternNamesPrintAsSpelled) {
    // TVM's CUDAFastMath: float32 exp/log/sin/... become __expf/__logf/__sinf; float64 keeps
    // the plain name; tan stays tanf. A pure extern call that names no math intrinsic
    // (call_pure_extern, an intrinsic-lowering rule's result) prints as it is spelled.
    Var a = buffer("A"), c = buffer("C");
    IterVar tx = threadAxis("threadIdx.x");
    Expr x = load(a, tx->var);
    Expr d = cast(DataType::float64(), x);
    Expr value = mathCall("log", {x}) + mathCall("tan", {x}) +
                 cast(DataType::float32(), mathCall("exp", {d})) +
                 CallNode::make(DataType::float32(), "logf", {x}, CallKind::PureExtern) +
                 CallNode::make(DataType::float32(), "__myfn", {x}, CallKind::PureExtern);
    std::string source =
        cudaSource({"m", threadExtent(tx, 32, StoreNode::make(c, value, tx->var, Expr())), {a, c}});
    for (const char* expected : {"__logf(A[", "tanf(A[", "exp(((double)A[", "logf(A[", "__myfn(A["})
        EXPECT_NE(source.find(expected), std::string::npos) << expected << "\n" << source;
    EXPECT_EQ(source.find("__tanf"), std::string::npos) << source;

    Expr bad = CallNode::make(DataType::float32(), "not a name", {x}, CallKind::PureExtern);
    EXPECT_THROW(
        cudaSource({"m", threadExtent(tx, 32, StoreNode::make(c, bad, tx->var, Expr())), {a, c}}),
        UserError);
}

TEST(CudaCodegen, EachThreadNestIsOneKernelOfTheModule) {
    GpuProgram p = twoKernels();
    CudaModule module = buildCudaModule(p.body, p.name, p.arguments);
    EXPECT_EQ(
        module.source,
        R"(extern "C" __global__ void twostage_kernel0( float* __restrict__ A,  float* __restrict__ T) {
  T[((((int)blockIdx.x) * 128) + ((int)threadIdx.x))] = (A[((((int)blockIdx.x) * 128) + ((int)threadIdx.x))] + 1.000000e+00f);
}

extern "C" __global__ void twostage_kernel1( float* __restrict__ C,  float* __restrict__ T) {
  C[((((int)blockIdx.x) * 256) + ((int)threadIdx.x))] = (T[((((int)blockIdx.x) * 256) + ((int)threadIdx.x))] * 2.000000e+00f);
}
)");
    EXPECT_EQ(toString(module.program.host), R"(// attr [T] storage_scope = "global"
allocate T[float32 * 512]
tvm_call_packed("twostage_kernel0", A, T, 4, 128)
tvm_call_packed("twostage_kernel1", C, T, 2, 256)
)");
}

TEST(CudaCodegen, StatementsLetsLoopsAndBranches) {
    EXPECT_EQ(cudaSource(statementKinds()),
              R"(extern "C" __global__ void stmts_kernel0( float* __restrict__ C) {
  int base = (((int)threadIdx.x) * 8);
  #pragma unroll
  for (int k_inner = 2; k_inner < 5; ++k_inner) {
    if ((((int)threadIdx.x) % 2) == 0) {
      C[(base + k_inner)] = ((float)k_inner);
    } else {
      C[base] = ((((int)threadIdx.x) > 3) ? 1.500000e+00f : -2.000000e+00f);
    }
  }
  long long w = (((long long)((int)threadIdx.x)) * 1099511627776LL);
  C[((int)threadIdx.x)] = ((float)w);
}
)");
}

TEST(CudaCodegen, SmallerThreadExtentIsGuarded) {
    EXPECT_EQ(cudaSource(guardedThreadNest()),
              R"(extern "C" __global__ void guarded_kernel0( float* __restrict__ C) {
  if (((int)threadIdx.x) < 32) {
    C[((int)threadIdx.x)] = 1.000000e+00f;
  }
  C[(((int)threadIdx.x) + 32)] = 2.000000e+00f;
}
)");
}

TEST(CudaCodegen, PredicatedStoreIsGuardedPerElement) {
    EXPECT_EQ(
        cudaSource(predicatedStore()),
        R"(extern "C" __global__ void predicated_kernel0( float* __restrict__ A,  float* __restrict__ C) {
  if (((int)threadIdx.x) < 10) {
    C[((int)threadIdx.x)] = A[((int)threadIdx.x)];
  }
}
)");
}

TEST(CudaCodegen, FloatLiteralsKeepTheirValue) {
    using cuda::floatLiteral;
    EXPECT_EQ(floatLiteral(DataType::float32(), double(3.14f)), "3.140000e+00f");
    EXPECT_EQ(floatLiteral(DataType::float32(), double(0.1f)), "1.000000e-01f");
    EXPECT_EQ(floatLiteral(DataType::float32(), double(3.14159265f)), "3.14159274e+00f");
    EXPECT_EQ(floatLiteral(DataType::float64(), 0.5), "5.000000e-01");
    EXPECT_EQ(floatLiteral(DataType::float64(), 1.0 / 3.0), "3.3333333333333331e-01");
    EXPECT_EQ(floatLiteral(DataType::float32(), -INFINITY), "(-__int_as_float(0x7f800000))");
    EXPECT_EQ(floatLiteral(DataType::float64(), NAN), "__longlong_as_double(0x7ff8000000000000LL)");
}

TEST(CudaCodegen, IntegerLiteralsOfEveryWidth) {
    using cuda::intLiteral;
    EXPECT_EQ(intLiteral(DataType::int32(), -7), "-7");
    EXPECT_EQ(intLiteral(DataType::int32(), INT32_MIN), "(-2147483647 - 1)");
    EXPECT_EQ(intLiteral(DataType::int64(), 5), "5LL");
    EXPECT_EQ(intLiteral(DataType(DataType::Code::UInt, 32), 5), "5u");
    EXPECT_EQ(intLiteral(DataType(DataType::Code::Int, 8), 5), "((signed char)5)");
    EXPECT_EQ(intLiteral(DataType::boolean(), 1), "true");
}

TEST(CudaCodegen, NamesAreCIdentifiersAndUnique) {
    cuda::NameTable names;
    EXPECT_EQ(names.allocate("k.inner"), "k_inner");
    EXPECT_EQ(names.allocate("k"), "k");
    EXPECT_EQ(names.allocate("k"), "k1");
    EXPECT_EQ(names.allocate("float4"), "float4_");
    EXPECT_EQ(names.allocate("int"), "int_");
    EXPECT_EQ(names.allocate("threadIdx"), "threadIdx_");
    EXPECT_EQ(names.allocate("2d"), "v2d");
}

TEST(CudaCodegen, GlobalAllocationInsideAKernelIsAnError) {
    Var c = buffer("C"), t = buffer("T");
    IterVar tx = threadAxis("threadIdx.x");
    Stmt alloc = AllocateNode::make(t, DataType::float32(), {Expr(4)}, Expr(),
                                    StoreNode::make(c, load(t, Expr(0)), tx->var));
    Stmt body = threadExtent(tx, 4, scoped(t, "global", alloc));
    EXPECT_EQ(errorOf([&] {
                  cudaSource({"f", body, {c}});
              }),
              "kernel 'f_kernel0' allocates the global buffer 'T': a kernel can only allocate "
              "shared or local memory; compute the stage at a GPU thread loop or give it a "
              "scope with set_scope");
}

TEST(CudaCodegen, WarpStorageIsAnErrorThatSaysWhatToDo) {
    Var c = buffer("C"), t = buffer("T");
    IterVar tx = threadAxis("threadIdx.x");
    Stmt alloc = AllocateNode::make(t, DataType::float32(), {Expr(4)}, Expr(),
                                    StoreNode::make(c, load(t, Expr(0)), tx->var));
    Stmt body = threadExtent(tx, 4, scoped(t, "warp", alloc));
    EXPECT_EQ(errorOf([&] {
                  cudaSource({"f", body, {c}});
              }),
              "kernel 'f_kernel0': buffer 'T' has storage scope 'warp', which the CUDA code "
              "generator cannot emit (only 'shared' and 'local'); give it one of those with "
              "set_scope to get CUDA C, or run the kernel in GPU emulation (the emulate target)");
}

TEST(CudaCodegen, NonConstantAllocationIsAnError) {
    Var c = buffer("C"), t = buffer("T");
    Var n("n");
    IterVar tx = threadAxis("threadIdx.x");
    Stmt alloc = AllocateNode::make(t, DataType::float32(), {n}, Expr(),
                                    StoreNode::make(c, load(t, Expr(0)), tx->var));
    Stmt body = threadExtent(tx, 4, scoped(t, "shared", alloc));
    EXPECT_EQ(errorOf([&] {
                  cudaSource({"f", body, {c, n}});
              }),
              "kernel 'f_kernel0': buffer 'T' needs a constant size on the GPU");
}

TEST(CudaCodegen, UnsupportedTypeAndCallAreErrors) {
    Var c = buffer("C"), h = buffer("H");
    IterVar tx = threadAxis("threadIdx.x");
    DataType half(DataType::Code::Float, 16);
    Stmt halfStore =
        threadExtent(tx, 4, StoreNode::make(h, FloatImmNode::make(half, 1.0), tx->var));
    EXPECT_EQ(errorOf([&] {
                  cudaSource({"f", halfStore, {h}});
              }),
              "the CUDA backend does not support the type float16");
    // An external function is called as it is spelled (TVM's CodeGenC); nvcc resolves it.
    Expr call = CallNode::make(DataType::float32(), "my_function", {Expr(1.0f)}, CallKind::Extern);
    Stmt callStore = threadExtent(tx, 4, StoreNode::make(c, call, tx->var));
    EXPECT_NE(cudaSource({"f", callStore, {c}}).find("my_function(1.000000e+00f)"),
              std::string::npos);
    Expr badCall = CallNode::make(DataType::float32(), "f(", {Expr(1.0f)}, CallKind::Extern);
    Stmt badStore = threadExtent(tx, 4, StoreNode::make(c, badCall, tx->var));
    EXPECT_EQ(errorOf([&] {
                  cudaSource({"f", badStore, {c}});
              }),
              "the CUDA backend cannot call 'f(': not a math function, nor a C function name");
}

TEST(CudaCodegen, HostCodeTouchingABufferIsAnError) {
    Var c = buffer("C");
    Stmt body = StoreNode::make(c, Expr(1.0f), Expr(0));
    EXPECT_EQ(errorOf([&] {
                  cudaSource({"f", body, {c}});
              }),
              "the program writes buffer 'C' outside any GPU kernel: bind its stage's loops to "
              "blockIdx/threadIdx (a GPU target runs no loop on the host)");
    // In a produce block: the stage is named (the message offered the emulate target, which
    // refuses the same program).
    Var a = buffer("A"), b = buffer("B");
    Stmt produceB = ProducerConsumerNode::make(
        PlaceholderOpNode::make("B", {Expr(4)}, DataType::float32()), true,
        StoreNode::make(b, LoadNode::make(DataType::float32(), a, Expr(0), Expr()), Expr(0)));
    EXPECT_EQ(errorOf([&] {
                  cudaSource({"f", produceB, {a, b}});
              }),
              "stage 'B' writes buffer 'B' outside any GPU kernel: bind the loops of 'B' to "
              "blockIdx/threadIdx (a GPU target runs no loop on the host)");
}

TEST(CudaCodegen, SharedBufferOutsideAKernelIsAnError) {
    Var c = buffer("C"), s = buffer("S");
    IterVar tx = threadAxis("threadIdx.x");
    Stmt kernel = threadExtent(tx, 4, StoreNode::make(c, load(s, tx->var), tx->var));
    Stmt alloc = AllocateNode::make(s, DataType::float32(), {Expr(4)}, Expr(), kernel);
    EXPECT_EQ(errorOf([&] {
                  cudaSource({"f", scoped(s, "shared", alloc), {c}});
              }),
              "buffer 'S' has storage scope 'shared' but lives outside any GPU kernel: "
              "compute_at it under a blockIdx loop");
}

TEST(CudaCodegen, BarrierUnderAGuardedThreadNestIsAnError) {
    Var c = buffer("C");
    IterVar tx = threadAxis("threadIdx.x"), tx2 = threadAxis("threadIdx.x");
    Stmt small = threadExtent(
        tx, 32, SeqNode::make({makeStorageSync(), StoreNode::make(c, Expr(1.0f), tx->var)}));
    Stmt large = threadExtent(tx2, 64, StoreNode::make(c, Expr(2.0f), tx2->var));
    Stmt block = threadExtent(threadAxis("blockIdx.x"), 2, SeqNode::make({small, large}));
    HostDeviceSplit split = splitHostDevice(block, "f", {c});
    EXPECT_NE(errorOf([&] {
                  generateCudaKernel(split.kernels[0]);
              }).find("a barrier inside the smaller nest"),
              std::string::npos);
}
