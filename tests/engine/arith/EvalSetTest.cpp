// EvalSet, one operator at a time: relaxed variables replaced by their intervals, others kept
// symbolic, infinities and signs explicit (TVM's int_set.cc).

#include "ArithTestUtil.h"

#include "arith/EvalSet.h"

namespace bs::test {
namespace {

IntSet range(int lo, int hi) { return IntSet::interval(Expr(lo), Expr(hi)); }

/// The set with both ends simplified by a fresh analyzer, for readable expectations.
std::string simplified(const IntSet& s) {
    Analyzer fresh;
    Expr lo = s.hasLowerBound() ? fresh.simplify(s.min()) : Expr();
    Expr hi = s.hasUpperBound() ? fresh.simplify(s.max()) : Expr();
    return s.isNothing() ? s.toString() : IntSet::interval(lo, hi).toString();
}

TEST(EvalSet, AddAndSubShiftTheEnds) {
    Vars v;
    VarMap<IntSet> dom{{v.x, range(0, 7)}, {v.y, range(1, 3)}};
    EXPECT_EQ(evalSet(v.x + 1, dom).toString(), "[1, 8]");
    EXPECT_EQ(evalSet(v.x - v.y, dom).toString(), "[-3, 6]");
    EXPECT_EQ(evalSet(0 - v.x, dom).toString(), "[-7, 0]");
}

TEST(EvalSet, VarsOutsideDomStaySymbolic) {
    Vars v;
    VarMap<IntSet> dom{{v.x, range(0, 7)}};
    EXPECT_EQ(evalSet(v.i + v.x, dom).toString(), "[i, (i + 7)]");
    IntSet point = evalSet(v.i * 4 + v.j, dom);
    EXPECT_TRUE(point.isSinglePoint());
    EXPECT_EQ(toString(point.pointValue()), "((i*4) + j)");
}

TEST(EvalSet, MultiplicationFollowsTheSignOfTheConstant) {
    Vars v;
    VarMap<IntSet> dom{{v.x, range(0, 7)}};
    EXPECT_EQ(evalSet(v.x * 4, dom).toString(), "[0, 28]");
    EXPECT_EQ(evalSet(v.x * -2, dom).toString(), "[-14, 0]");
    EXPECT_EQ(evalSet(3 * v.x, dom).toString(), "[0, 21]");
    EXPECT_EQ(evalSet(v.x * v.sn, dom).toString(), "[0, (7*sn)]");
    EXPECT_EQ(evalSet(v.x * v.n, dom).toString(),
              "[select((n >= 0), 0, (7*n)), select((n >= 0), (7*n), 0)]");
    EXPECT_TRUE(evalSet(v.x * v.y, {{v.x, range(0, 7)}, {v.y, range(0, 3)}}).isEverything());
}

TEST(EvalSet, RelaxesSymbolicIntervalWithNegativeCoefficient) {
    Vars v;
    VarMap<IntSet> dom{{v.x, IntSet::interval(v.i * 8, v.i * 8 + 7)}};
    EXPECT_EQ(simplified(evalSet(v.j - v.x * 2, dom)), "[((j - (i*16)) - 14), (j - (i*16))]");
}

TEST(EvalSet, FloorDivByPositiveConstantDividesTheEnds) {
    Vars v;
    VarMap<IntSet> dom{{v.x, range(0, 15)}, {v.y, IntSet::interval(v.i * 8, v.i * 8 + 7)}};
    EXPECT_EQ(evalSet(floordiv(v.x, 4), dom).toString(), "[0, 3]");
    EXPECT_EQ(simplified(evalSet(floordiv(v.y, 8), dom)), "[i, i]");
    EXPECT_EQ(evalSet(floordiv(v.x, -4), dom).toString(), "[-4, 0]");
    EXPECT_EQ(evalSet(truncdiv(v.x, 4), dom).toString(), "[0, 3]");
    EXPECT_TRUE(evalSet(floordiv(v.x, v.x), dom).isEverything());
}

TEST(EvalSet, FloorModWithSameQuotientShiftsTheInterval) {
    Vars v;
    VarMap<IntSet> dom{{v.x, IntSet::interval(v.i * 8 + 2, v.i * 8 + 5)}};
    EXPECT_EQ(simplified(evalSet(floormod(v.x, 8), dom)), "[2, 5]");
}

TEST(EvalSet, FloorModWithDifferentQuotientsIsFullResidueRange) {
    Vars v;
    EXPECT_EQ(evalSet(floormod(v.x, 8), {{v.x, range(0, 9)}}).toString(), "[0, 7]");
    EXPECT_EQ(evalSet(floormod(v.x, 8), {{v.x, IntSet::interval(v.i, v.i + 3)}}).toString(),
              "[0, 7]");
    EXPECT_EQ(evalSet(floormod(v.x, 8), {{v.x, range(3, 5)}}).toString(), "[3, 5]");
}

TEST(EvalSet, AnalyzerRangesHelpTheFloorModProof) {
    Vars v;
    VarMap<IntSet> dom{{v.x, IntSet::interval(v.i, v.i + 3)}};
    Analyzer analyzer;
    analyzer.bind(v.i, Range(0, 5));
    IntSet s = analyzer.intSet(floormod(v.x, 8), dom);
    EXPECT_EQ(toString(analyzer.simplify(s.min())), "i");
    EXPECT_EQ(toString(analyzer.simplify(s.max())), "(i + 3)");
    EXPECT_EQ(evalSet(floormod(v.x, 8), dom).toString(), "[0, 7]");
}

TEST(EvalSet, TruncatedRemainderKeepsSignOfDividend) {
    Vars v;
    EXPECT_EQ(evalSet(truncmod(v.x, 4), {{v.x, range(0, 15)}}).toString(), "[0, 3]");
    EXPECT_EQ(evalSet(truncmod(v.x, 4), {{v.x, range(-5, 9)}}).toString(), "[-3, 3]");
}

TEST(EvalSet, MinMaxApplyToBothEnds) {
    Vars v;
    VarMap<IntSet> dom{{v.x, range(0, 7)}};
    EXPECT_EQ(evalSet(min(v.x, 4), dom).toString(), "[0, 4]");
    EXPECT_EQ(evalSet(max(v.x, 4), dom).toString(), "[4, 7]");
    EXPECT_EQ(evalSet(min(v.x, v.n), dom).toString(), "[min(0, n), min(7, n)]");
}

TEST(EvalSet, SelectIsUnionOfBranches) {
    Vars v;
    VarMap<IntSet> dom{{v.x, range(0, 7)}};
    EXPECT_EQ(evalSet(select(v.i < 3, v.x, Expr(10)), dom).toString(), "[0, 10]");
}

TEST(EvalSet, CastAppliesToBothEnds) {
    Vars v;
    EXPECT_EQ(evalSet(cast(DataType::int64(), v.x), {{v.x, range(0, 7)}}).toString(),
              "[(int64)0, (int64)7]");
}

TEST(EvalSet, ComparisonsGiveZeroOrOne) {
    Vars v;
    VarMap<IntSet> dom{{v.x, range(0, 7)}};
    EXPECT_EQ(evalSet(v.x < 3, dom).toString(), "[(bool)0, (bool)1]");
    EXPECT_EQ(evalSet(v.i < v.j, dom).toString(), "[(i < j), (i < j)]");
    EXPECT_EQ(evalSet(!(v.x < 3), dom).toString(), "[(bool)0, (bool)1]");
}

TEST(EvalSet, RelaxesVarWhoseSetMentionsAnotherRelaxedVar) {
    Vars v;
    VarMap<IntSet> dom{{v.x, IntSet::interval(v.y, v.y + 3)}, {v.y, range(0, 4)}};
    EXPECT_EQ(evalSet(v.x, dom).toString(), "[0, 7]");
    EXPECT_EQ(evalSet(v.x * 2 + 1, dom).toString(), "[1, 15]");
}

TEST(EvalSet, CyclicDomainTerminates) {
    Vars v;
    VarMap<IntSet> dom{{v.x, IntSet::interval(v.x - 1, v.x + 1)}};
    EXPECT_EQ(simplified(evalSet(v.x, dom)), "[(x - 2), (x + 2)]");
}

TEST(EvalSet, RangeFormRelaxesBothEnds) {
    Vars v;
    VarMap<IntSet> dom{{v.x, range(0, 7)}};
    EXPECT_EQ(evalSet(Range(v.x, 4), dom).toString(), "[0, 10]");
    EXPECT_EQ(evalSet(Range(v.x * 8, 8), dom).toString(), "[0, 63]");
}

TEST(EvalSet, InfiniteEndsPropagate) {
    Vars v;
    VarMap<IntSet> all{{v.x, IntSet::everything()}};
    EXPECT_TRUE(evalSet(v.x + 1, all).isEverything());
    EXPECT_EQ(evalSet(min(v.x, 5), all).toString(), "[-inf, 5]");
    EXPECT_EQ(evalSet(max(v.x, 5), all).toString(), "[5, +inf]");
    VarMap<IntSet> half{{v.x, IntSet::interval(Expr(0), Expr())}};
    EXPECT_EQ(evalSet(v.x * -1, half).toString(), "[-inf, 0]");
    EXPECT_EQ(evalSet(floordiv(v.x, 2), half).toString(), "[0, +inf]");
    EXPECT_EQ(evalSet(v.j - v.x, half).toString(), "[-inf, j]");
}

TEST(EvalSet, EmptySetPropagates) {
    Vars v;
    VarMap<IntSet> dom{{v.x, IntSet::nothing()}};
    EXPECT_TRUE(evalSet(v.x + 1, dom).isNothing());
    EXPECT_TRUE(evalSet(min(v.x, 3), dom).isNothing());
}

TEST(EvalSet, LetBindsValueSet) {
    Vars v;
    VarMap<IntSet> dom{{v.x, range(0, 7)}};
    EXPECT_EQ(evalSet(LetNode::make(v.k, v.x * 2, v.k + 1), dom).toString(), "[1, 15]");
}

TEST(EvalSet, TensorReadsAndCallsAreEverything) {
    Vars v;
    VarMap<IntSet> dom{{v.x, range(0, 7)}};
    EXPECT_TRUE(evalSet(mathCall("exp", {cast(DataType::float32(), v.x)}), dom).isEverything());
    Var buffer("B", DataType::handle());
    EXPECT_TRUE(evalSet(LoadNode::make(DataType::int32(), buffer, v.x), dom).isEverything());
    EXPECT_TRUE(evalSet(LoadNode::make(DataType::int32(), buffer, v.i), dom).isSinglePoint());
}

} // namespace
} // namespace bs::test
