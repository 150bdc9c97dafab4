// Substitution of variables inside a reduction's combiner (issue 5: TVM's
// test_loop_dep_reduce_cache_write reduces with `max(x + y, float(n))`, n a compute axis).

#include "ir/Substitute.h"
#include "ir/Op.h"
#include "ir/Printer.h"

#include <gtest/gtest.h>

using namespace bs;

namespace {

/// sum-like reducer whose result and identity use the outer variable `n`:
/// combine(x, y) = max(x + y, float(n)), identity = select(1 < n, 0f, float(n)).
CommReducer reducerUsing(const Var& n, Var& x, Var& y) {
    x = Var("x", DataType::float32());
    y = Var("y", DataType::float32());
    Expr nf = cast(DataType::float32(), n);
    return CommReducer({x}, {y}, {max(x + y, nf)},
                       {SelectNode::make(Expr(1) < n, makeConst(DataType::float32(), 0.0), nf)});
}

} // namespace

TEST(Substitute, ReplacesFreeVariablesOfAReducer) {
    Var n("n"), m("m"), x, y;
    CommReducer combiner = reducerUsing(n, x, y);
    Var a("a", DataType::float32());
    IterVar k(Range(0, n), Var("k"), IterVarType::CommReduce);
    Expr e = ReduceNode::make(combiner, {a}, {k}, Expr(), 0);

    Expr out = substitute(e, VarMap<Expr>{{n, m}});
    const auto* reduce = out.as<ReduceNode>();
    ASSERT_NE(reduce, nullptr);
    EXPECT_EQ(toString(reduce->combiner->result[0]), "max((x + y), float32(m))");
    EXPECT_EQ(toString(reduce->combiner->identityElement[0]),
              "select((1 < m), 0.000000f, float32(m))");
    // The reducer's parameters stay its own, and the reduction axis domain is substituted too.
    EXPECT_TRUE(reduce->combiner->lhs[0].same_as(x));
    EXPECT_TRUE(reduce->combiner->rhs[0].same_as(y));
    EXPECT_EQ(toString(reduce->axis[0]->dom.extent), "m");
}

TEST(Substitute, LeavesAReducerWithoutTheVariableUntouched) {
    Var n("n"), other("other"), x, y;
    CommReducer combiner = reducerUsing(n, x, y);
    Expr e = ReduceNode::make(combiner, {Var("a", DataType::float32())},
                              {IterVar(Range(0, 8), Var("k"), IterVarType::CommReduce)}, Expr(), 0);
    EXPECT_TRUE(substitute(e, VarMap<Expr>{{other, Expr(3)}}).same_as(e));
}

TEST(Substitute, OutputsOfOneReductionKeepSharingTheirReducer) {
    Var n("n"), m("m"), x0("x0"), x1("x1"), y0("y0"), y1("y1");
    CommReducer pair({x0, x1}, {y0, y1}, {x0 + y0, max(x1, y1)}, {Expr(0) * n, Expr(-1) * n});
    IterVar k(Range(0, 8), Var("k"), IterVarType::CommReduce);
    std::vector<Expr> sources = {k->var, Var("v")};
    Stmt both =
        SeqNode::make({EvaluateNode::make(ReduceNode::make(pair, sources, {k}, Expr(), 0)),
                       EvaluateNode::make(ReduceNode::make(pair, sources, {k}, Expr(), 1))});
    Stmt out = substitute(both, VarMap<Expr>{{n, m}});
    const auto* seq = out.as<SeqNode>();
    ASSERT_NE(seq, nullptr);
    const auto* first = seq->seq[0].as<EvaluateNode>()->value.as<ReduceNode>();
    const auto* second = seq->seq[1].as<EvaluateNode>()->value.as<ReduceNode>();
    EXPECT_EQ(toString(first->combiner->identityElement[1]), "(-1*m)");
    EXPECT_TRUE(first->combiner.same_as(second->combiner));
}
