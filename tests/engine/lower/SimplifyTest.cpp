// Statement simplification: loop ranges and let values are known inside their scopes only.
#include "lower/Simplify.h"
#include "ir/Op.h"
#include "ir/Printer.h"

#include <gtest/gtest.h>

using namespace bs;

TEST(SimplifyStmt, SiblingLoopsSharingAVariableKeepTheirOwnRanges) {
    // The tight rules' remainder loops and unrolled copies reuse one loop variable: the value
    // 0 that the extent-1 loop gives `i` must not leak into the next loop over `i`.
    Var c("C", DataType::handle()), i("i");
    Expr one = makeConst(DataType::float32(), 1.0);
    Stmt first = ForNode::make(i, 0, 1, ForKind::Serial, StoreNode::make(c, one, i));
    Stmt second = ForNode::make(i, 0, 3, ForKind::Serial, StoreNode::make(c, one, i + 1));
    EXPECT_EQ(toString(simplifyStmt(SeqNode::make({first, second}))), R"(for (i, 0, 1) {
  C[0] = 1.000000f
}
for (i, 0, 3) {
  C[(i + 1)] = 1.000000f
}
)");
}

TEST(SimplifyStmt, ReductionOverNoAxesBecomesItsSource) {
    // rfactor over a stage's only reduce axis leaves `reduce(..., axis=[])` in the rf stage.
    Var c("C", DataType::handle()), a("A", DataType::handle()), i("i");
    Var x("x", DataType::float32()), y("y", DataType::float32());
    CommReducer sum({x}, {y}, {x + y}, {makeConst(DataType::float32(), 0.0)});
    Expr source = LoadNode::make(DataType::float32(), a, i);
    Stmt plain = StoreNode::make(c, ReduceNode::make(sum, {source}, {}, makeBool(true), 0), i);
    EXPECT_EQ(toString(simplifyStmt(plain)), "C[i] = A[i]\n");
    Stmt guarded = StoreNode::make(c, ReduceNode::make(sum, {source}, {}, i < 4, 0), i);
    EXPECT_EQ(toString(simplifyStmt(guarded)), "C[i] = select((i < 4), A[i], 0.000000f)\n");
}
