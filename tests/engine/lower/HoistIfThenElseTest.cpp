// HoistIfThenElse as TVM's default pipeline runs it (tir.transform.HoistIfThenElse): where an
// `if` may move, where it must stay, and that the moved guard keeps its step.
#include "LowerTestUtil.h"

#include "ir/Equality.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "lower/HoistIfThenElse.h"

#include <gtest/gtest.h>

using namespace bs;
using namespace bs::test;

namespace {
Var buffer(const std::string& name) { return Var(name, DataType::handle()); }
Stmt loop(const Var& v, int extent, Stmt body) {
    return ForNode::make(v, 0, extent, ForKind::Serial, std::move(body));
}
} // namespace

TEST(HoistIfThenElse, AGuardOnOuterLoopsLeavesTheInnerLoop) {
    // The uneven split's guard (TVM's test_split_uneven_unique_likely): tested once per row.
    Var xo("x.outer"), xi("x.inner"), y("y"), c = buffer("C");
    Expr guard = likely(xo * 5 + xi < 16);
    Stmt body =
        withStep(IfThenElseNode::make(guard, StoreNode::make(c, 1.0f, (xo * 5 + xi) * 16 + y)), 7);
    Stmt out = hoistIfThenElse(loop(xo, 4, loop(xi, 5, loop(y, 16, body))));
    EXPECT_EQ(toString(out), R"(for (x.outer, 0, 4) {
  for (x.inner, 0, 5) {
    if (likely((((x.outer*5) + x.inner) < 16))) {
      for (y, 0, 16) {
        C[((((x.outer*5) + x.inner)*16) + y)] = 1.000000f
      }
    }
  }
}
)");
    const auto* inner = out.as<ForNode>()->body.as<ForNode>();
    ASSERT_NE(inner->body.as<IfThenElseNode>(), nullptr);
    EXPECT_EQ(inner->body->stepId(), 7);
}

TEST(HoistIfThenElse, AConditionOnNoLoopGoesAroundTheOutermost) {
    Var i("i"), j("j"), n("n"), a = buffer("A");
    Stmt s = loop(i, 4,
                  loop(j, 4,
                       IfThenElseNode::make(n > 2, StoreNode::make(a, 0.0f, i * 4 + j),
                                            StoreNode::make(a, 1.0f, i * 4 + j))));
    EXPECT_EQ(toString(hoistIfThenElse(s)), R"(if ((n > 2)) {
  for (i, 0, 4) {
    for (j, 0, 4) {
      A[((i*4) + j)] = 0.000000f
    }
  }
} else {
  for (i, 0, 4) {
    for (j, 0, 4) {
      A[((i*4) + j)] = 1.000000f
    }
  }
}
)");
}

TEST(HoistIfThenElse, StaysWhereItMust) {
    Var i("i"), j("j"), t("t"), a = buffer("A"), b = buffer("B");
    Stmt store = StoreNode::make(a, 0.0f, i * 4 + j);
    // uses the innermost loop's variable
    Stmt inner = loop(i, 4, loop(j, 4, IfThenElseNode::make(j < 3, store)));
    EXPECT_TRUE(structuralEqual(hoistIfThenElse(inner), inner));
    // reads memory
    Stmt reads = loop(
        i, 4, loop(j, 4, IfThenElseNode::make(LoadNode::make(DataType::int32(), b, i) > 0, store)));
    EXPECT_TRUE(structuralEqual(hoistIfThenElse(reads), reads));
    // a sequence in the loop before the `if`: the condition would guard the other statement too
    Stmt seq = loop(
        i, 4,
        loop(j, 4,
             SeqNode::make({StoreNode::make(b, 1.0f, j), IfThenElseNode::make(i < 3, store)})));
    EXPECT_TRUE(structuralEqual(hoistIfThenElse(seq), seq));
    // inside one branch of an if-else: the other branch must still run when it is false
    Stmt branches = loop(i, 4,
                         loop(j, 4,
                              IfThenElseNode::make(j < 2, IfThenElseNode::make(i > 1, store),
                                                   StoreNode::make(b, 3.0f, j))));
    EXPECT_TRUE(structuralEqual(hoistIfThenElse(branches), branches));
    // a let-bound variable
    Stmt let =
        loop(i, 4, loop(j, 4, LetStmtNode::make(t, i * 2, IfThenElseNode::make(t < 3, store))));
    EXPECT_TRUE(structuralEqual(hoistIfThenElse(let), let));
}

TEST(HoistIfThenElse, NeverCrossesAThreadBinding) {
    Var j("j"), a = buffer("A");
    IterVar tx(Range(), Var("threadIdx.x"), IterVarType::ThreadIndex, "threadIdx.x");
    Stmt store = StoreNode::make(a, 0.0f, tx->var * 4 + j);
    Stmt s = AttrStmtNode::make(tx, attr::kThreadExtent, Expr(32),
                                loop(j, 4, IfThenElseNode::make(likely(tx->var < 30), store)));
    Stmt out = hoistIfThenElse(s);
    // just inside the binding, around the loop
    const auto* attrStmt = out.as<AttrStmtNode>();
    ASSERT_NE(attrStmt, nullptr);
    ASSERT_NE(attrStmt->body.as<IfThenElseNode>(), nullptr);
    EXPECT_NE(attrStmt->body.as<IfThenElseNode>()->thenCase.as<ForNode>(), nullptr);
}
