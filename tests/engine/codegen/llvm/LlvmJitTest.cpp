// The JIT: kernel lifetime and memory, timings, and the diagnostics of kernels that cannot be
// compiled (each a UserError with a clear message, never a crash).
#include "LlvmTestUtil.h"

#include "ir/OperationNode.h"

#include <gtest/gtest.h>

#include <fstream>
#include <unistd.h>

using namespace bs;
using namespace bs::test;

namespace {

const DataType f32 = DataType::float32();

/// The resident set size of this process, in bytes.
int64_t residentBytes() {
    std::ifstream statm("/proc/self/statm");
    int64_t pages = 0, resident = 0;
    statm >> pages >> resident;
    return resident * sysconf(_SC_PAGESIZE);
}

Stmt scaleBody(const Var& a, float factor) {
    Var i("i");
    return loop(i, 0, 64, store(a, load(a, i) * Expr(factor), i));
}

} // namespace

/// A kernel with some code: 16 unrolled copies of a vectorized body.
Stmt unrolledBody(const Var& a) {
    Var k("k"), i("i");
    Expr index = k * 16 + i;
    Expr value = load(a, index) * Expr(3.0f) + mathCall("sqrt", {load(a, index + 1)});
    Stmt inner = loop(i, 0, 16, store(a, value, index), ForKind::Vectorized);
    return loop(k, 0, 16, inner, ForKind::Unrolled);
}

TEST(LlvmJit, RepeatedCompilesDoNotGrowMemory) {
    Var a = bufferVar("A");
    Stmt body = unrolledBody(a);
    std::vector<float> av(16 * 16 + 1, 1.0f);
    auto compileAndRun = [&] {
        JitKernel kernel = compileKernel("scale", {a}, {}, body);
        kernel.run(pointers(av));
    };
    for (int warmUp = 0; warmUp < 30; ++warmUp)
        compileAndRun();
    int64_t before = residentBytes();
    for (int repeat = 0; repeat < 200; ++repeat)
        compileAndRun();
    int64_t growth = residentBytes() - before;
    // Each kernel's code and data take a few pages of their own: 200 kernels that were never
    // freed would add about 2.5 MB; what stays (allocator caches) is about 0.1 MB.
    EXPECT_LT(growth, 1024 * 1024) << "RSS grew by " << growth << " bytes over 200 compiles";
}

TEST(LlvmJit, ReportsCompileTimings) {
    Var a = bufferVar("A");
    JitKernel kernel = compileKernel("timed", {a}, {}, scaleBody(a, 3.0f));
    const JitTimings& timings = kernel.timings();
    EXPECT_GT(timings.buildSeconds, 0.0);
    EXPECT_GT(timings.optimizeSeconds, 0.0);
    EXPECT_GT(timings.machineCodeSeconds, 0.0);
    EXPECT_DOUBLE_EQ(timings.totalSeconds(),
                     timings.buildSeconds + timings.optimizeSeconds + timings.machineCodeSeconds);
    EXPECT_FALSE(kernel.cpuName().empty());
}

TEST(LlvmJit, AnExpressionTensOfThousandsDeepCompilesAndRunsInOrder) {
    // Past the optimization limit the JIT cuts the loop body's block (about 40,000 LLVM
    // instructions) into pieces of a thousand: the sums must still come out in order, and the
    // second store must read the first one's result (repro 13; its time is bench_llvm_compile's).
    constexpr int kTerms = 20000;
    Var a = bufferVar("A"), b = bufferVar("B"), i("i");
    Expr sum = load(a, i);
    for (int term = 0; term < kTerms; ++term)
        sum = sum + Expr(1.0f);
    Expr twice = load(a, i);
    for (int term = 0; term < kTerms; ++term)
        twice = twice + Expr(2.0f);
    Stmt body = loop(i, 0, 8, seq({store(a, sum, i), store(b, twice, i)}));
    JitKernel kernel = compileKernel("deep", {a, b}, {}, body);
    std::vector<float> av(8), bv(8);
    for (int k = 0; k < 8; ++k)
        av[size_t(k)] = float(k);
    kernel.run(pointers(av, bv));
    for (int k = 0; k < 8; ++k) {
        EXPECT_EQ(av[size_t(k)], float(k + kTerms)) << k;
        EXPECT_EQ(bv[size_t(k)], float(k + 3 * kTerms)) << k;
    }
}

TEST(LlvmJit, KernelsOfTheSameNameLiveSideBySide) {
    Var a = bufferVar("A");
    JitKernel twice = compileKernel("scale", {a}, {}, scaleBody(a, 2.0f));
    JitKernel thrice = compileKernel("scale", {a}, {}, scaleBody(a, 3.0f));
    std::vector<float> av(64, 1.0f);
    twice.run(pointers(av));
    thrice.run(pointers(av));
    EXPECT_EQ(av[63], 6.0f);
}

TEST(LlvmJit, KernelOutlivesItsJit) {
    Var a = bufferVar("A");
    std::optional<JitKernel> kernel;
    {
        LlvmJit jit(cpuKernelRuntime());
        kernel.emplace(jit.compile(CpuKernel{"scale", {a}, {}, scaleBody(a, 5.0f)}));
    }
    std::vector<float> av(64, 1.0f);
    kernel->run(pointers(av));
    EXPECT_EQ(av[0], 5.0f);
}

TEST(LlvmJit, WrongArgumentCountIsAUserError) {
    Var a = bufferVar("A"), n("n");
    JitKernel kernel = compileKernel("scale", {a}, {}, scaleBody(a, 2.0f));
    std::vector<float> av(64);
    try {
        kernel.run(pointers(av, av), {});
        FAIL() << "expected a UserError";
    } catch (const UserError& error) {
        EXPECT_EQ(std::string(error.what()),
                  "kernel 'scale' takes 1 buffers and 0 scalars, got 2 and 0");
    }
}

// ---------------------------------------------------------------------------------------------
// Diagnostics

namespace {

/// A placeholder-like operation, to leave a tensor read in a kernel.
class TestOpNode : public OperationNode {
public:
    TestOpNode() : OperationNode(NodeKind::PlaceholderOp, "T", "") {}
    int numOutputs() const override { return 1; }
    DataType outputDType(int) const override { return DataType::float32(); }
    const std::vector<Expr>& outputShape(int) const override { return m_shape; }
    std::vector<IterVar> rootIterVars() const override { return {}; }
    std::vector<Tensor> inputTensors() const override { return {}; }
    const char* typeKey() const override { return "placeholder"; }

private:
    std::vector<Expr> m_shape{Expr(8)};
};

struct BadKernel {
    std::string what;
    CpuKernel kernel;
    std::string expectedMessage; ///< a part of the UserError's message
};

std::vector<BadKernel> badKernels() {
    Var a = bufferVar("A"), i("i"), m("m"), n("n");
    Tensor tensor(Operation(new TestOpNode()), 0);
    Stmt ok = store(a, Expr(1.0f), 0);
    IterVar thread(Range(0, 32), Var("threadIdx.x"), IterVarType::ThreadIndex, "threadIdx.x");
    auto call = [](const char* name, CallKind kind) {
        return EvaluateNode::make(CallNode::make(f32, name, {Expr(1.0f)}, kind));
    };
    return {
        {"tensor read",
         {"k", {a}, {}, store(a, tensor({Expr(0)}), 0)},
         "cannot compile 'T(0)' in kernel 'k': tensor reads must be flattened"},
        {"unbound variable",
         {"k", {a}, {n}, loop(i, 0, m, ok)},
         "variable 'm' is used but not bound in kernel 'k'"},
        {"thread extent",
         {"k", {a}, {}, AttrStmtNode::make(thread, attr::kThreadExtent, 32, ok)},
         "kernel 'k' binds 'threadIdx.x' to a GPU thread (thread_extent): GPU kernels cannot "
         "run on the CPU target"},
        {"thread binding",
         {"k", {a}, {}, ForNode::make(i, 0, 32, ForKind::ThreadBinding, ok, thread)},
         "loop 'i' of kernel 'k' is bound to a GPU thread"},
        {"unknown intrinsic",
         {"k", {a}, {}, call("no_such_intrinsic", CallKind::Intrinsic)},
         "unknown intrinsic 'no_such_intrinsic'"},
        // A pure extern call that names no math function is a C function (call_pure_extern).
        {"unknown pure extern function",
         {"k", {a}, {}, call("no_such_math", CallKind::PureExtern)},
         "JIT compilation of kernel 'k' failed: Symbols not found: [ no_such_math ]"},
        {"missing extern symbol",
         {"k", {a}, {}, call("no_such_function", CallKind::Extern)},
         "JIT compilation of kernel 'k' failed: Symbols not found: [ no_such_function ]"},
        {"bad name", {"my-kernel", {a}, {}, ok}, "kernel name 'my-kernel' is not a C identifier"},
        {"buffer not a handle",
         {"k", {n}, {}, ok},
         "buffer argument 'n' of kernel 'k' must be a handle"},
        {"string value",
         {"k", {a}, {}, store(a, StringImmNode::make("x"), 0)},
         "string \"x\" used as a value"},
        {"vector condition",
         {"k",
          {a},
          {},
          IfThenElseNode::make(RampNode::make(0, 1, 4) < BroadcastNode::make(2, 4), ok)},
         "the condition of an if '(ramp(0, 1, 4) < x4(2))' in kernel 'k' must be a scalar bool"},
        {"tensor store",
         {"k", {a}, {}, ProducerStoreNode::make(tensor, Expr(1.0f), {Expr(0)})},
         "tensor realizes and stores must be flattened"},
    };
}

} // namespace

TEST(LlvmJit, KernelsThatCannotCompileReportAUserError) {
    for (const BadKernel& bad : badKernels()) {
        try {
            testJit().compile(bad.kernel);
            ADD_FAILURE() << bad.what << ": compiled without an error";
        } catch (const UserError& error) {
            EXPECT_NE(std::string(error.what()).find(bad.expectedMessage), std::string::npos)
                << bad.what << ": got '" << error.what() << "'";
        }
    }
    // The JIT is still usable afterwards.
    Var a = bufferVar("A");
    JitKernel kernel = compileKernel("after_errors", {a}, {}, scaleBody(a, 2.0f));
    std::vector<float> av(64, 1.0f);
    kernel.run(pointers(av));
    EXPECT_EQ(av[0], 2.0f);
}
