#include "LowerTestUtil.h"

#include "ir/Op.h"
#include "ir/Printer.h"
#include "lower/RemoveNoOp.h"

#include <gtest/gtest.h>

using namespace bs;
using namespace bs::test;

namespace {
Var buffer(const std::string& name) { return Var(name, DataType::handle()); }
Expr barrier() {
    return CallNode::make(DataType::int32(), "tvm_storage_sync", {StringImmNode::make("shared")},
                          CallKind::Intrinsic);
}
} // namespace

TEST(RemoveNoOp, DropsZeroExtentLoopsAndConstantEvaluates) {
    Var i("i"), j("j"), a = buffer("A");
    Stmt s = SeqNode::make({ForNode::make(i, 0, 0, ForKind::Serial, StoreNode::make(a, i, i)),
                            EvaluateNode::make(Expr(7)), StoreNode::make(a, 1, 0),
                            ForNode::make(j, 0, 4, ForKind::Serial, EvaluateNode::make(j + 1))});
    EXPECT_EQ(toString(removeNoOp(s)), "A[0] = 1\n");
}

TEST(RemoveNoOp, EmptyBlocksDisappearUpToTheRoot) {
    Tensor t = makeTensor("T", {4});
    Var buf = buffer("T"), i("i");
    Stmt empty = ForNode::make(i, 0, 4, ForKind::Serial,
                               SeqNode::make({EvaluateNode::make(Expr(0)), EvaluateNode::make(i)}));
    Stmt alloc = AllocateNode::make(buf, DataType::float32(), {Expr(4)}, Expr(),
                                    ProducerConsumerNode::make(t.op, true, empty));
    Stmt s = AttrStmtNode::make(buf, attr::kStorageScope, StringImmNode::make("global"), alloc);
    Stmt out = removeNoOp(s);
    EXPECT_EQ(toString(out), "0\n");
    EXPECT_TRUE(isNoOp(out));
}

TEST(RemoveNoOp, KeepsSideEffects) {
    Var i("i");
    Stmt sync = EvaluateNode::make(barrier());
    Stmt s = SeqNode::make({sync, EvaluateNode::make(likely(i < 3))});
    Stmt out = removeNoOp(ForNode::make(i, 0, 2, ForKind::Serial, s));
    EXPECT_EQ(toString(out), R"(for (i, 0, 2) {
  tvm_storage_sync("shared")
}
)");
    EXPECT_TRUE(hasSideEffect(barrier()));
    EXPECT_FALSE(hasSideEffect(likely(i < 3) && (i > 0)));
    EXPECT_TRUE(hasSideEffect(CallNode::make(DataType::int32(), "f", {}, CallKind::Extern)));
    EXPECT_FALSE(hasSideEffect(mathCall("exp", {cast(DataType::float32(), i)})));
}

TEST(RemoveNoOp, IfWithEmptyThenNegatesItsCondition) {
    Var i("i"), a = buffer("A");
    Stmt s = IfThenElseNode::make(i < 2, EvaluateNode::make(Expr(0)), StoreNode::make(a, i, i));
    EXPECT_EQ(toString(removeNoOp(s)), R"(if (!(i < 2)) {
  A[i] = i
}
)");
    Stmt emptyElse =
        IfThenElseNode::make(i < 2, StoreNode::make(a, i, i), EvaluateNode::make(Expr(0)));
    EXPECT_EQ(toString(removeNoOp(emptyElse)), R"(if ((i < 2)) {
  A[i] = i
}
)");
    EXPECT_TRUE(isNoOp(removeNoOp(IfThenElseNode::make(i < 2, EvaluateNode::make(Expr(1))))));
}

TEST(RemoveNoOp, LeavesUsefulCodeUntouched) {
    Var i("i"), a = buffer("A");
    Stmt s = ForNode::make(i, 0, 4, ForKind::Serial,
                           SeqNode::make({StoreNode::make(a, i, i), StoreNode::make(a, 0, i)}));
    EXPECT_TRUE(removeNoOp(s).same_as(s));
}

TEST(RemoveNoOp, LetWithEmptyBodyKeepsOnlyAnEffectfulValue) {
    Var x("x");
    EXPECT_EQ(
        toString(removeNoOp(LetStmtNode::make(x, Expr(1) + Var("n"), EvaluateNode::make(Expr(0))))),
        "0\n");
    Var y("y", DataType::int32());
    Stmt effectful = LetStmtNode::make(y, barrier(), EvaluateNode::make(Expr(0)));
    EXPECT_EQ(toString(removeNoOp(effectful)), "tvm_storage_sync(\"shared\")\n");
}
