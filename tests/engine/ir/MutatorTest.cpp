#include "ir/Equality.h"
#include "ir/Functor.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "ir/Substitute.h"

#include <gtest/gtest.h>

using namespace bs;

namespace {
/// Replaces constant 3 by 4 and leaves everything else alone.
class ThreeToFour : public IRMutator {
protected:
    using IRMutator::visit;
    Expr visit(const IntImmNode* op) override {
        return op->value == 3 ? makeConst(op->type, int64_t(4)) : Expr(op);
    }
};

/// Counts the variables it meets.
class VarCounter : public IRVisitor {
public:
    int count = 0;

protected:
    using IRVisitor::visit;
    void visit(const VarNode*) override { ++count; }
};
} // namespace

TEST(IRMutator, ReturnsTheSameHandleWhenNothingChanged) {
    Var i("i"), j("j");
    Expr e = min(i * 2 + j, j - 1);
    ThreeToFour m;
    EXPECT_TRUE(m.visitExpr(e).same_as(e));
    Stmt s = ForNode::make(i, 0, 10, ForKind::Serial, EvaluateNode::make(e));
    EXPECT_TRUE(m.visitStmt(s).same_as(s));
}

TEST(IRMutator, RebuildsOnlyChangedPaths) {
    Var i("i"), j("j");
    Expr left = i * 2;
    Expr e = AddNode::make(left, j * 3);
    ThreeToFour m;
    Expr out = m.visitExpr(e);
    EXPECT_EQ(toString(out), "((i*2) + (j*4))");
    EXPECT_TRUE(out.as<AddNode>()->a.same_as(left));
}

TEST(IRVisitor, VisitsEveryChild) {
    Var i("i"), j("j");
    Stmt s = ForNode::make(i, 0, j, ForKind::Serial,
                           IfThenElseNode::make(i < j, EvaluateNode::make(select(i < 2, i, j))));
    VarCounter c;
    c.visitStmt(s);
    EXPECT_EQ(c.count, 6);
}

TEST(Substitute, ReplacesVariablesByIdentity) {
    Var i("i"), other("i"), j("j");
    Expr e = i * 64 + other;
    VarMap<Expr> map{{i, j + 1}};
    EXPECT_EQ(toString(substitute(e, map)), "(((j + 1)*64) + i)");
    EXPECT_TRUE(substitute(e, VarMap<Expr>{}).same_as(e));
    EXPECT_TRUE(usesVar(e, other));
    EXPECT_FALSE(usesVar(e, j));
    EXPECT_EQ(usedVars(e).size(), 2u);
}

TEST(Equality, ComparesStructureWithVariablesByIdentity) {
    Var i("i"), j("j");
    EXPECT_TRUE(structuralEqual(i * 2 + j, i * 2 + j));
    EXPECT_FALSE(structuralEqual(i * 2 + j, j * 2 + i));
    EXPECT_FALSE(structuralEqual(i + 1, i + 2));
    Var wide("i", DataType::int64());
    EXPECT_FALSE(structuralEqual(Expr(i), Expr(wide), /*mapFreeVars=*/true));
    EXPECT_EQ(structuralHash(i * 2 + j), structuralHash(i * 2 + j));
}

TEST(Equality, MapsVariablesWhenAsked) {
    Var a("a"), b("b"), c("c");
    EXPECT_FALSE(structuralEqual(a + 1, b + 1));
    EXPECT_TRUE(structuralEqual(a + 1, b + 1, /*mapFreeVars=*/true));
    EXPECT_FALSE(structuralEqual(a + a, b + c, /*mapFreeVars=*/true));
}

TEST(Equality, BoundVariablesAreRenamedConsistently) {
    Var x("x"), y("y"), z("z");
    Expr l1 = LetNode::make(x, z + 1, x * x);
    Expr l2 = LetNode::make(y, z + 1, y * y);
    EXPECT_TRUE(structuralEqual(l1, l2));
    Stmt f1 = ForNode::make(x, 0, 4, ForKind::Serial, EvaluateNode::make(x));
    Stmt f2 = ForNode::make(y, 0, 4, ForKind::Serial, EvaluateNode::make(y));
    EXPECT_TRUE(structuralEqual(f1, f2));
}

TEST(Seq, FlattensNestedSequencesAndDropsUndefinedParts) {
    Var x("x");
    Stmt a = EvaluateNode::make(x), b = EvaluateNode::make(x + 1);
    Stmt seq = SeqNode::make({a, Stmt(), SeqNode::make({b, a})});
    ASSERT_NE(seq.as<SeqNode>(), nullptr);
    EXPECT_EQ(seq.as<SeqNode>()->seq.size(), 3u);
    EXPECT_TRUE(SeqNode::make({Stmt(), a}).same_as(a));
}
