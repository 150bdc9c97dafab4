// run/CpuExecutable: the one way generated CPU code runs (runKernel and tvm.build both use it).
// Its kernels call engine/runtime's functions (a parallel loop, heap memory) and run under its
// fault guard, which codegen never links: these tests run each through it.
#include "run/CpuExecutable.h"

#include "ir/Op.h"
#include "ir/Stmt.h"
#include "support/Diagnostic.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace bs;

namespace {

const DataType f32 = DataType::float32();

/// c[i] = a[i] + b[i] for i < n, the loop `kind`.
CpuKernel addKernel(ForKind kind) {
    Var a("A", DataType::handle()), b("B", DataType::handle()), c("C", DataType::handle());
    Var n("n"), i("i");
    Expr sum = LoadNode::make(f32, a, i) + LoadNode::make(f32, b, i);
    Stmt body = ForNode::make(i, 0, n, kind, StoreNode::make(c, sum, i));
    return CpuKernel{"add", {a, b, c}, {n}, body};
}

} // namespace

TEST(CpuExecutable, RunsAKernelOnTheCallersBuffers) {
    if (!CpuExecutable::available())
        GTEST_SKIP() << "built without LLVM";
    CpuExecutable add(addKernel(ForKind::Serial));
    std::vector<float> a{1, 2, 3, 4}, b{10, 20, 30, 40}, c(4, 0);
    add.run({a.data(), b.data(), c.data()}, {4});
    EXPECT_EQ(c, (std::vector<float>{11, 22, 33, 44}));
    EXPECT_FALSE(add.cpuName().empty());
    EXPECT_GT(add.timings().totalSeconds(), 0);
}

TEST(CpuExecutable, AParallelLoopRunsOnTheRuntimesThreadPool) {
    if (!CpuExecutable::available())
        GTEST_SKIP() << "built without LLVM";
    // The parallel loop is a call of bs_llvm_parallel_for, which only engine/runtime defines:
    // without the runtime the JIT would not link the kernel.
    CpuExecutable add(addKernel(ForKind::Parallel));
    const int n = 100000;
    std::vector<float> a(n, 1.5f), b(n, 2.0f), c(n, 0);
    add.run({a.data(), b.data(), c.data()}, {n});
    EXPECT_EQ(c.front(), 3.5f);
    EXPECT_EQ(c.back(), 3.5f);
}

TEST(CpuExecutable, AFaultIsTheKernelsErrorNotACrash) {
    if (!CpuExecutable::available())
        GTEST_SKIP() << "built without LLVM";
    // The runtime's fault guard turns the memory fault into the kernel's error.
    Var a("A", DataType::handle()), i("i");
    Stmt body =
        ForNode::make(i, 0, 4, ForKind::Serial, StoreNode::make(a, Expr(1.0f), i * 100000000));
    CpuExecutable far(CpuKernel{"far", {a}, {}, body});
    std::vector<float> data(4);
    try {
        far.run({data.data()});
        FAIL() << "the fault was not reported";
    } catch (const UserError& e) {
        EXPECT_NE(std::string(e.what()).find("kernel 'far' stopped: it accessed memory outside "
                                             "its buffers"),
                  std::string::npos)
            << e.what();
    }
}

TEST(CpuExecutable, WrongArgumentCountsAreRefused) {
    if (!CpuExecutable::available())
        GTEST_SKIP() << "built without LLVM";
    CpuExecutable add(addKernel(ForKind::Serial));
    std::vector<float> a(4);
    EXPECT_THROW(add.run({a.data()}, {4}), UserError);
}
