// IntSet construction, predicates, union, intersection, coverRange and matchRange, with
// infinite ends and single points (TVM_INFERBOUND_NOTES.md section 5, "IntSet helpers").

#include "ArithTestUtil.h"

namespace bs::test {
namespace {

TEST(IntSet, FromRangeWithLiteralExtentOneIsSinglePoint) {
    Vars v;
    IntSet s = IntSet::fromRange(Range(v.x * 8, 1));
    EXPECT_TRUE(s.isSinglePoint());
    EXPECT_EQ(toString(s.pointValue()), "(x*8)");
    EXPECT_EQ(s.toString(), "[(x*8), (x*8)]");
}

TEST(IntSet, FromRangeWithOtherExtentIsUnsimplifiedInterval) {
    Vars v;
    IntSet s = IntSet::fromRange(Range(v.x, 8));
    EXPECT_FALSE(s.isSinglePoint());
    EXPECT_EQ(s.toString(), "[x, ((8 + x) - 1)]");
    // A symbolic extent that happens to be 1 is not a literal 1.
    IntSet t = IntSet::fromRange(Range(v.x, v.n - v.n + 1));
    EXPECT_FALSE(t.isSinglePoint());
}

TEST(IntSet, IntervalOfEqualEndsIsSinglePoint) {
    Vars v;
    EXPECT_TRUE(IntSet::interval(v.x + 1, v.x + 1).isSinglePoint());
    EXPECT_FALSE(IntSet::interval(v.x, v.x + 1).isSinglePoint());
}

TEST(IntSet, EverythingAndNothingHaveExplicitEnds) {
    IntSet all = IntSet::everything();
    EXPECT_TRUE(all.isEverything());
    EXPECT_FALSE(all.hasLowerBound());
    EXPECT_FALSE(all.hasUpperBound());
    EXPECT_FALSE(all.isSinglePoint());
    EXPECT_EQ(all.toString(), "[-inf, +inf]");

    IntSet none = IntSet::nothing();
    EXPECT_TRUE(none.isNothing());
    EXPECT_FALSE(none.isEverything());
    EXPECT_FALSE(none.hasLowerBound());
    EXPECT_EQ(none.toString(), "empty");
    EXPECT_TRUE(IntSet().isNothing());
}

TEST(IntSet, HalfBoundedIntervalPrintsInfiniteEnd) {
    Vars v;
    IntSet atLeast = IntSet::interval(v.x, Expr());
    EXPECT_TRUE(atLeast.hasLowerBound());
    EXPECT_FALSE(atLeast.hasUpperBound());
    EXPECT_FALSE(atLeast.isEverything());
    EXPECT_EQ(atLeast.toString(), "[x, +inf]");
    EXPECT_EQ(IntSet::interval(Expr(), Expr(3)).toString(), "[-inf, 3]");
}

TEST(IntSet, UnionTakesMinOfMinsAndMaxOfMaxesSimplified) {
    Vars v;
    IntSet a = IntSet::interval(v.x * 8, v.x * 8 + 7);
    IntSet b = IntSet::interval(v.x * 8 + 8, v.x * 8 + 15);
    EXPECT_EQ(unionSets({a, b}).toString(), "[(x*8), ((x*8) + 15)]");
    EXPECT_EQ(
        unionSets({IntSet::interval(Expr(0), Expr(3)), IntSet::singlePoint(Expr(9))}).toString(),
        "[0, 9]");
}

TEST(IntSet, UnionWithUnboundedEndIsUnbounded) {
    Vars v;
    IntSet u = unionSets({IntSet::interval(Expr(0), Expr(3)), IntSet::interval(v.x, Expr())});
    EXPECT_EQ(u.toString(), "[min(0, x), +inf]");
    EXPECT_TRUE(unionSets({IntSet::everything(), IntSet::singlePoint(v.x)}).isEverything());
}

TEST(IntSet, UnionSkipsEmptySetsAndKeepsSingleSetUnchanged) {
    Vars v;
    EXPECT_TRUE(unionSets({}).isNothing());
    EXPECT_TRUE(unionSets({IntSet::nothing(), IntSet::nothing()}).isNothing());
    IntSet only = IntSet::interval(v.x + 0 * v.y, v.x + 4);
    EXPECT_EQ(unionSets({only}).toString(), only.toString());
    EXPECT_EQ(unionSets({IntSet::nothing(), IntSet::interval(Expr(1), Expr(2))}).toString(),
              "[1, 2]");
}

TEST(IntSet, UnionOfEqualPointsIsSinglePoint) {
    Vars v;
    IntSet u = unionSets({IntSet::singlePoint(v.x * 2), IntSet::singlePoint(v.x * 2)});
    EXPECT_TRUE(u.isSinglePoint());
}

TEST(IntSet, IntersectionTakesMaxOfMinsAndMinOfMaxes) {
    EXPECT_EQ(
        intersectSets({IntSet::interval(Expr(0), Expr(10)), IntSet::interval(Expr(4), Expr(20))})
            .toString(),
        "[4, 10]");
    Vars v;
    EXPECT_EQ(intersectSets({IntSet::everything(), IntSet::interval(v.x, Expr())}).toString(),
              "[x, +inf]");
    EXPECT_EQ(intersectSets({IntSet::interval(Expr(), Expr(5)), IntSet::interval(Expr(2), Expr())})
                  .toString(),
              "[2, 5]");
}

TEST(IntSet, IntersectionProvablyEmptyIsNothing) {
    EXPECT_TRUE(
        intersectSets({IntSet::interval(Expr(0), Expr(3)), IntSet::interval(Expr(5), Expr(9))})
            .isNothing());
    EXPECT_TRUE(intersectSets({IntSet::nothing(), IntSet::everything()}).isNothing());
    EXPECT_TRUE(intersectSets({}).isNothing());
}

TEST(IntSet, CoverRangeSimplifiesWithFreshAnalyzer) {
    Vars v;
    Range r = IntSet::interval(v.x * 8, v.x * 8 + 7).coverRange(Range(0, 100));
    EXPECT_EQ(toString(r), "range(min=(x*8), ext=8)");
    Range p = IntSet::singlePoint(v.i + v.j * 4).coverRange(Range(0, 100));
    EXPECT_EQ(toString(p), "range(min=((j*4) + i), ext=1)");
}

TEST(IntSet, CoverRangeOfUnboundedSetIsFallback) {
    Vars v;
    Range fallback(0, v.n);
    EXPECT_TRUE(IntSet::everything().coverRange(fallback).extent.same_as(v.n));
    EXPECT_TRUE(IntSet::interval(Expr(0), Expr()).coverRange(fallback).extent.same_as(v.n));
    EXPECT_TRUE(IntSet::nothing().coverRange(fallback).extent.same_as(v.n));
}

TEST(IntSet, MatchRangeProvesBothEnds) {
    Vars v;
    EXPECT_TRUE(IntSet::interval(Expr(0), v.n - 1).matchRange(Range(0, v.n)));
    EXPECT_TRUE(IntSet::fromRange(Range(v.x, 16)).matchRange(Range(v.x, 16)));
    EXPECT_FALSE(IntSet::interval(Expr(0), v.n).matchRange(Range(0, v.n)));
    EXPECT_FALSE(IntSet::interval(Expr(0), Expr()).matchRange(Range(0, v.n)));
    EXPECT_TRUE(IntSet::singlePoint(v.x).matchRange(Range(v.x, 1)));
}

TEST(IntSet, MatchRangeCanUseBoundAnalyzer) {
    Vars v;
    // floormod(x, 8) is x only when x is known to lie in [0, 8).
    IntSet s = IntSet::interval(Expr(0), floormod(v.x, 8));
    Range r(0, v.x + 1);
    EXPECT_FALSE(s.matchRange(r));
    Analyzer analyzer;
    analyzer.bind(v.x, Range(0, 8));
    EXPECT_TRUE(s.matchRange(r, analyzer));
}

} // namespace
} // namespace bs::test
