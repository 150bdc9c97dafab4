#include "LowerTestUtil.h"

#include "ir/Equality.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "lower/SplitHostDevice.h"

#include <gtest/gtest.h>

using namespace bs;
using namespace bs::test;

namespace {

Var buffer(const std::string& name) { return Var(name, DataType::handle()); }

IterVar threadAxis(const std::string& tag) {
    return IterVar(Range(), Var(tag), IterVarType::ThreadIndex, tag);
}

Stmt threadExtent(const IterVar& iv, Expr extent, Stmt body) {
    return AttrStmtNode::make(iv, attr::kThreadExtent, std::move(extent), std::move(body));
}

Stmt allocate(const Var& buf, const std::string& scope, int size, Stmt body) {
    Stmt alloc =
        AllocateNode::make(buf, DataType::float32(), {Expr(size)}, Expr(), std::move(body));
    return AttrStmtNode::make(buf, attr::kStorageScope, StringImmNode::make(scope), alloc);
}

Expr load(const Var& buf, Expr index, DataType type = DataType::float32()) {
    return LoadNode::make(type, buf, std::move(index));
}

/// Seed 002, Ex. 6 after storage flattening (StorageFlattenTest's listing), with constants on
/// the right as Simplify leaves them.
struct SeedExample6 {
    Var a = buffer("A"), b = buffer("B"), c = buffer("C");
    IterVar bx = threadAxis("blockIdx.x"), tx = threadAxis("threadIdx.x");

    Stmt build() const {
        Expr i = bx->var, j = tx->var;
        Stmt storeB = StoreNode::make(b, load(a, i * 400 + j) * Expr(3.14f), j);
        Stmt storeC = StoreNode::make(c, load(b, j) * Expr(2.72f), i * 200 + j);
        Stmt produceB = ProducerConsumerNode::make(makeTensor("B", {200, 400}).op, true,
                                                   threadExtent(tx, 200, storeB));
        Stmt seq = SeqNode::make({produceB, threadExtent(tx, 200, storeC)});
        Stmt blocks = threadExtent(bx, 100, allocate(b, "shared", 200, seq));
        return ProducerConsumerNode::make(makeTensor("C", {100, 200}).op, true, blocks);
    }
};

std::vector<std::string> paramNames(const DeviceKernel& kernel) {
    std::vector<std::string> names;
    for (const KernelParam& p : kernel.params)
        names.push_back(p.var.name());
    return names;
}

} // namespace

TEST(SplitHostDevice, SeedExample6BecomesOneKernelWithItsParameters) {
    SeedExample6 p;
    HostDeviceSplit split = splitHostDevice(p.build(), "test", {p.a, p.c});
    ASSERT_EQ(split.kernels.size(), 1u);
    const DeviceKernel& kernel = split.kernels[0];
    EXPECT_EQ(kernel.name, "test_kernel0");
    EXPECT_EQ(paramNames(kernel), (std::vector<std::string>{"A", "C"}));
    EXPECT_EQ(kernel.params[0].type, DataType::float32());
    EXPECT_TRUE(kernel.params[0].isBuffer());
    EXPECT_EQ(toString(kernel.gridDim[0]) + " " + toString(kernel.gridDim[1]) + " " +
                  toString(kernel.gridDim[2]),
              "100 1 1");
    EXPECT_EQ(toString(kernel.blockDim[0]) + " " + toString(kernel.blockDim[1]) + " " +
                  toString(kernel.blockDim[2]),
              "200 1 1");
    EXPECT_EQ(kernel.threadsPerBlock(), std::optional<int64_t>(200));
    EXPECT_EQ(kernel.boundAxes, (std::array<bool, 6>{true, false, false, true, false, false}));
}

TEST(SplitHostDevice, HostLaunchesTheKernelWhereItsNestWas) {
    SeedExample6 p;
    HostDeviceSplit split = splitHostDevice(p.build(), "test", {p.a, p.c});
    EXPECT_EQ(toString(split.host), R"(produce C {
  tvm_call_packed("test_kernel0", A, C, 100, 200)
}
)");
}

TEST(SplitHostDevice, KernelKeepsItsSharedAllocationAndThreadNests) {
    SeedExample6 p;
    HostDeviceSplit split = splitHostDevice(p.build(), "test", {p.a, p.c});
    EXPECT_EQ(toString(split.kernels[0].body),
              R"(// attr [iter_var(blockIdx.x, , blockIdx.x)] thread_extent = 100
// attr [B] storage_scope = "shared"
allocate B[float32 * 200]
produce B {
  // attr [iter_var(threadIdx.x, , threadIdx.x)] thread_extent = 200
  B[threadIdx.x] = (A[((blockIdx.x*400) + threadIdx.x)]*3.140000f)
}
// attr [iter_var(threadIdx.x, , threadIdx.x)] thread_extent = 200
C[((blockIdx.x*200) + threadIdx.x)] = (B[threadIdx.x]*2.720000f)
)");
}

TEST(SplitHostDevice, ParametersFollowTheArgumentOrderElseFirstUse) {
    Var a = buffer("A"), c = buffer("C");
    IterVar tx = threadAxis("threadIdx.x");
    Stmt body = threadExtent(tx, 8, StoreNode::make(c, load(a, tx->var), tx->var));
    // TVM's use order visits a store's buffer before its value.
    EXPECT_EQ(paramNames(splitHostDevice(body, "f").kernels[0]),
              (std::vector<std::string>{"C", "A"}));
    EXPECT_EQ(paramNames(splitHostDevice(body, "f", {a, c}).kernels[0]),
              (std::vector<std::string>{"A", "C"}));
}

TEST(SplitHostDevice, SymbolicExtentIsAHostExpressionAndScalarsComeAfterBuffers) {
    Var a = buffer("A"), c = buffer("C");
    Var n = Var::sizeVar("n");
    IterVar bx = threadAxis("blockIdx.x"), tx = threadAxis("threadIdx.x");
    Expr i = bx->var * 64 + tx->var;
    Stmt guarded = IfThenElseNode::make(likely(i < n), StoreNode::make(c, load(a, i), i));
    Stmt body = threadExtent(bx, floordiv(n + 63, 64), threadExtent(tx, 64, guarded));
    HostDeviceSplit split = splitHostDevice(body, "f", {n, a, c});
    const DeviceKernel& kernel = split.kernels[0];
    EXPECT_EQ(paramNames(kernel), (std::vector<std::string>{"A", "C", "n"}));
    EXPECT_EQ(kernel.params[2].type, DataType::int32());
    EXPECT_FALSE(kernel.params[2].isBuffer());
    EXPECT_EQ(toString(kernel.gridDim[0]), "floordiv((n + 63), 64)");
    EXPECT_EQ(toString(split.host), "tvm_call_packed(\"f_kernel0\", A, C, n, floordiv((n + 63), "
                                    "64), 64)\n");
}

TEST(SplitHostDevice, EveryOutermostNestIsAKernelAndHostAllocationsBecomeParameters) {
    Var a = buffer("A"), c = buffer("C"), t = buffer("T");
    IterVar bx0 = threadAxis("blockIdx.x"), tx1 = threadAxis("threadIdx.x");
    Stmt first = threadExtent(bx0, 4, StoreNode::make(t, load(a, bx0->var), bx0->var));
    Stmt second = threadExtent(tx1, 4, StoreNode::make(c, load(t, tx1->var), tx1->var));
    Stmt body = allocate(t, "global", 4, SeqNode::make({first, second}));
    HostDeviceSplit split = splitHostDevice(body, "two", {a, c});
    ASSERT_EQ(split.kernels.size(), 2u);
    EXPECT_EQ(split.kernels[1].name, "two_kernel1");
    EXPECT_EQ(paramNames(split.kernels[0]), (std::vector<std::string>{"A", "T"}));
    EXPECT_EQ(paramNames(split.kernels[1]), (std::vector<std::string>{"C", "T"}));
    EXPECT_EQ(toString(split.kernels[1].gridDim[0]), "1");
    EXPECT_EQ(toString(split.host), R"(// attr [T] storage_scope = "global"
allocate T[float32 * 4]
tvm_call_packed("two_kernel0", A, T, 4)
tvm_call_packed("two_kernel1", C, T, 4)
)");
    EXPECT_EQ(split.findKernel("two_kernel1"), &split.kernels[1]);
    EXPECT_EQ(split.findKernel("two_kernel2"), nullptr);
}

TEST(SplitHostDevice, HostLoopVariablesBecomeScalarParameters) {
    Var c = buffer("C");
    Var i("i");
    IterVar tx = threadAxis("threadIdx.x");
    Stmt kernel =
        threadExtent(tx, 16, StoreNode::make(c, cast(DataType::float32(), i), i * 16 + tx->var));
    HostDeviceSplit split =
        splitHostDevice(ForNode::make(i, 0, 4, ForKind::Serial, kernel), "f", {c});
    EXPECT_EQ(paramNames(split.kernels[0]), (std::vector<std::string>{"C", "i"}));
    EXPECT_EQ(toString(split.host), R"(for (i, 0, 4) {
  tvm_call_packed("f_kernel0", C, i, 16)
}
)");
}

TEST(SplitHostDevice, ElementTypesComeFromLoadsAndStores) {
    Var a = buffer("A"), c = buffer("C");
    IterVar tx = threadAxis("threadIdx.x");
    Expr value = cast(DataType::float64(), load(a, tx->var, DataType::int32()));
    Stmt body = threadExtent(tx, 8, StoreNode::make(c, value, tx->var));
    HostDeviceSplit split = splitHostDevice(body, "f", {a, c});
    const DeviceKernel& kernel = split.kernels[0];
    EXPECT_EQ(kernel.findParam(a)->type, DataType::int32());
    EXPECT_EQ(kernel.findParam(c)->type, DataType::float64());
    EXPECT_EQ(kernel.findParam(Var("A")), nullptr);
}

TEST(SplitHostDevice, ConstantExtentsOfOneAxisMergeToTheLargest) {
    Var c = buffer("C");
    IterVar tx = threadAxis("threadIdx.x"), tx2 = threadAxis("threadIdx.x");
    IterVar bx = threadAxis("blockIdx.x");
    Stmt a = threadExtent(tx, 32, StoreNode::make(c, Expr(1.0f), tx->var));
    Stmt b = threadExtent(tx2, 64, StoreNode::make(c, Expr(2.0f), tx2->var));
    HostDeviceSplit split = splitHostDevice(threadExtent(bx, 2, SeqNode::make({a, b})), "f");
    EXPECT_EQ(toString(split.kernels[0].blockDim[0]), "64");
}

TEST(SplitHostDevice, DifferentSymbolicExtentsOfOneAxisAreAnError) {
    Var c = buffer("C");
    Var n("n"), m("m");
    IterVar tx = threadAxis("threadIdx.x"), tx2 = threadAxis("threadIdx.x");
    Stmt a = threadExtent(tx, n, StoreNode::make(c, Expr(1.0f), tx->var));
    Stmt b = threadExtent(tx2, m, StoreNode::make(c, Expr(2.0f), tx2->var));
    Stmt body = threadExtent(threadAxis("blockIdx.x"), 2, SeqNode::make({a, b}));
    try {
        splitHostDevice(body, "f");
        FAIL() << "expected a UserError";
    } catch (const UserError& e) {
        EXPECT_EQ(std::string(e.what()), "kernel 'f_kernel0' binds threadIdx.x with extents n and "
                                         "m, which cannot be merged into one launch extent");
    }
}

TEST(SplitHostDevice, ExtentDependingOnAKernelVariableIsAnError) {
    Var c = buffer("C");
    Var k("k");
    IterVar tx = threadAxis("threadIdx.x");
    Stmt inner = threadExtent(tx, k + 1, StoreNode::make(c, Expr(1.0f), tx->var));
    Stmt body =
        threadExtent(threadAxis("blockIdx.x"), 2, ForNode::make(k, 0, 4, ForKind::Serial, inner));
    EXPECT_THROW(splitHostDevice(body, "f"), UserError);
}

TEST(SplitHostDevice, VirtualThreadAxisIsAnError) {
    Var c = buffer("C");
    IterVar vx = threadAxis("vthread");
    Stmt body = threadExtent(vx, 2, StoreNode::make(c, Expr(1.0f), vx->var));
    try {
        splitHostDevice(body, "f");
        FAIL() << "expected a UserError";
    } catch (const UserError& e) {
        EXPECT_NE(std::string(e.what()).find("thread axis 'vthread' is not supported"),
                  std::string::npos)
            << e.what();
    }
}

TEST(SplitHostDevice, BodyWithoutThreadsHasNoKernel) {
    Var c = buffer("C");
    Stmt body = StoreNode::make(c, Expr(1.0f), Expr(0));
    HostDeviceSplit split = splitHostDevice(body, "f");
    EXPECT_TRUE(split.kernels.empty());
    EXPECT_TRUE(split.host.same_as(body));
}

TEST(SplitHostDevice, SymbolicBlockHasNoConstantThreadCount) {
    Var c = buffer("C");
    Var n("n");
    IterVar tx = threadAxis("threadIdx.x");
    Stmt body = threadExtent(tx, n, StoreNode::make(c, Expr(1.0f), tx->var));
    EXPECT_EQ(splitHostDevice(body, "f").kernels[0].threadsPerBlock(), std::nullopt);
}
