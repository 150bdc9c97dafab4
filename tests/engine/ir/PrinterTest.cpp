#include "ir/Printer.h"
#include "ir/Op.h"
#include "ir/Stmt.h"

#include <gtest/gtest.h>

using namespace bs;

TEST(Printer, PrintsArithmeticInTvmClassicForm) {
    Var i("i"), j("j");
    EXPECT_EQ(toString(i * 64 + j), "((i*64) + j)");
    EXPECT_EQ(toString(i - j), "(i - j)");
    EXPECT_EQ(toString(floordiv(i, 8)), "floordiv(i, 8)");
    EXPECT_EQ(toString(floormod(i, 8)), "floormod(i, 8)");
    EXPECT_EQ(toString(truncdiv(i, j)), "(i/j)");
    EXPECT_EQ(toString(truncmod(i, j)), "(i % j)");
    EXPECT_EQ(toString(min(i, j)), "min(i, j)");
    EXPECT_EQ(toString(max(i, 3)), "max(i, 3)");
}

TEST(Printer, PrintsComparisonsAndLogic) {
    Var i("i"), j("j");
    EXPECT_EQ(toString(i < j), "(i < j)");
    EXPECT_EQ(toString(i >= 2), "(i >= 2)");
    EXPECT_EQ(toString(eq(i, j)), "(i == j)");
    EXPECT_EQ(toString((i < j) && (j < 10)), "((i < j) && (j < 10))");
    EXPECT_EQ(toString(!(i < j)), "!(i < j)");
    EXPECT_EQ(toString(select(i < j, i, j)), "select((i < j), i, j)");
    EXPECT_EQ(toString(likely(i < 4)), "likely((i < 4))");
}

TEST(Printer, PrintsConstantsWithTheirTypes) {
    EXPECT_EQ(toString(Expr(3.14f) * Var("x", DataType::float32())), "(3.140000f*x)");
    EXPECT_EQ(toString(makeConst(DataType::float64(), 2.5)), "2.500000");
    EXPECT_EQ(toString(makeBool(true)), "(bool)1");
    EXPECT_EQ(toString(makeConst(DataType::int64(), int64_t(5))), "(int64)5");
    EXPECT_EQ(toString(cast(DataType::float32(), Var("n"))), "float32(n)");
    EXPECT_EQ(toString(StringImmNode::make("shared")), "\"shared\"");
}

TEST(Printer, PrintsRangesAndIterVars) {
    IterVar k(Range(0, 16), Var("k"), IterVarType::CommReduce);
    EXPECT_EQ(toString(k), "iter_var(k, range(min=0, ext=16))");
    IterVar bx(Range(), Var("blockIdx.x"), IterVarType::ThreadIndex, "blockIdx.x");
    EXPECT_EQ(toString(bx), "iter_var(blockIdx.x, , blockIdx.x)");
    EXPECT_EQ(regionToString({Range(Var("blockIdx.x"), 1), Range(0, 200)}),
              "[blockIdx.x, 1], [0, 200]");
}

TEST(Printer, PrintsLoopsAttributesAndAllocations) {
    Var i("i"), j("j"), buf("B");
    Stmt store = StoreNode::make(buf, i + j, i * 64 + j);
    Stmt loops = ForNode::make(i, 0, 64, ForKind::Serial,
                               ForNode::make(j, 0, 64, ForKind::Vectorized, store));
    Stmt alloc = AllocateNode::make(buf, DataType::int32(), {Expr(4096)}, Expr(), loops);
    Stmt attr = AttrStmtNode::make(buf, attr::kStorageScope, StringImmNode::make("global"), alloc);
    EXPECT_EQ(toString(attr), R"(// attr [B] storage_scope = "global"
allocate B[int32 * 4096]
for (i, 0, 64) {
  vectorized (j, 0, 64) {
    B[((i*64) + j)] = (i + j)
  }
}
)");
}

TEST(Printer, PrintsThreadExtentAndIfElseChains) {
    IterVar tx(Range(), Var("threadIdx.x"), IterVarType::ThreadIndex, "threadIdx.x");
    Var x("x");
    Stmt body = IfThenElseNode::make(
        x < 1, EvaluateNode::make(x),
        IfThenElseNode::make(x < 2, EvaluateNode::make(x + 1), EvaluateNode::make(x + 2)));
    Stmt attr = AttrStmtNode::make(tx, attr::kThreadExtent, 200, body);
    EXPECT_EQ(toString(attr), R"(// attr [iter_var(threadIdx.x, , threadIdx.x)] thread_extent = 200
if ((x < 1)) {
  x
} else if ((x < 2)) {
  (x + 1)
} else {
  (x + 2)
}
)");
}

TEST(Printer, PrintsLetExpressionsAndStatements) {
    Var x("x"), y("y");
    EXPECT_EQ(toString(LetNode::make(x, y + 1, x * x)), "(let x = (y + 1) in (x*x))");
    Stmt s = LetStmtNode::make(x, y * 2, EvaluateNode::make(x));
    EXPECT_EQ(toString(s), "let x = (y*2)\nx\n");
}
