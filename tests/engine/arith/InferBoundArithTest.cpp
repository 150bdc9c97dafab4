// The arithmetic InferBound's numbers depend on (TVM_INFERBOUND_NOTES.md sections 5-7 and the
// checklist in section 9), checked on the expressions those passes build.

#include "ArithTestUtil.h"

#include "arith/EvalSet.h"

namespace bs::test {
namespace {

/// PassDownDomain's ceil_div: exact division when provable, else floordiv(a + b - 1, b).
Expr ceilDiv(Analyzer& analyzer, const Expr& a, const Expr& b) {
    if (analyzer.canProve(eq(floormod(a, b), 0)))
        return analyzer.simplify(floordiv(a, b));
    return analyzer.simplify(floordiv(a + (b - 1), b));
}

TEST(InferBoundArith, SplitCeilDivIsExactWhenProvable) {
    Vars v;
    Analyzer analyzer;
    EXPECT_EQ(toString(ceilDiv(analyzer, Expr(20), Expr(16))), "2");
    EXPECT_EQ(toString(ceilDiv(analyzer, Expr(64), Expr(8))), "8");
    EXPECT_EQ(toString(ceilDiv(analyzer, v.m * 8, Expr(8))), "m");
    EXPECT_EQ(toString(ceilDiv(analyzer, v.n, Expr(8))), "floordiv((n + 7), 8)");
    EXPECT_EQ(toString(ceilDiv(analyzer, v.sn * 32, Expr(8))), "(sn*4)");
}

TEST(InferBoundArith, SplitTighteningProvesParentSmallerThanFactor) {
    Vars v;
    Analyzer analyzer;
    EXPECT_TRUE(analyzer.canProve(Expr(8) < Expr(32)));
    EXPECT_FALSE(analyzer.canProve(v.sn < 32));
    analyzer.bind(v.n, Range(0, 16));
    EXPECT_TRUE(analyzer.canProve(v.n < 32));
}

TEST(InferBoundArith, PassUpSplitOfPointOuterCoversOneTile) {
    Vars v;
    // parent = outer*8 + inner with outer a point and inner its full range [0, 7].
    VarMap<IntSet> dom{{v.o, IntSet::singlePoint(v.o)}, {v.i, IntSet::fromRange(Range(0, 8))}};
    IntSet parent = evalSet(v.o * 8 + v.i, dom);
    EXPECT_EQ(toString(parent.coverRange(Range(0, 64))), "range(min=(o*8), ext=8)");
}

TEST(InferBoundArith, PassUpFuseOfTileGivesTightInnerRow) {
    Vars v;
    // Seed 002's fuse + split: fused = [o*8, o*8 + 7] over an inner extent of 64.
    Analyzer analyzer;
    Expr fmin = v.o * 8, fmax = v.o * 8 + 7;
    Expr innerExtent(64);
    Expr fusedExtent = analyzer.simplify(fmax - fmin + 1);
    EXPECT_EQ(toString(fusedExtent), "8");
    EXPECT_TRUE(isZero(analyzer.simplify(floormod(innerExtent, fusedExtent))));
    EXPECT_TRUE(isZero(analyzer.simplify(floormod(fmin, fusedExtent))));
    IntSet outer = IntSet::interval(floordiv(fmin, innerExtent), floordiv(fmax, innerExtent));
    EXPECT_EQ(toString(outer.coverRange(Range(0, 64))), "range(min=floordiv(o, 8), ext=1)");
    IntSet inner = IntSet::interval(floormod(fmin, innerExtent), floormod(fmax, innerExtent));
    EXPECT_EQ(toString(inner.coverRange(Range(0, 64))), "range(min=(floormod(o, 8)*8), ext=8)");
}

TEST(InferBoundArith, FuseWithNonDividingRowsIsNotProvablyAligned) {
    Vars v;
    Analyzer analyzer;
    // fused = [o*3, o*3 + 2] over rows of 4: floormod(o*3, 3) is 0 but 4 % 3 is not.
    EXPECT_FALSE(isZero(analyzer.simplify(floormod(Expr(4), Expr(3)))));
    EXPECT_TRUE(isZero(analyzer.simplify(floormod(v.o * 3, 3))));
    // Symbolic row length l: floormod(l, 8) stays symbolic.
    EXPECT_FALSE(isZero(analyzer.simplify(floormod(v.n, 8))));
}

TEST(InferBoundArith, RelaxingAttachPathLoopsRelaxesEndsSeparately) {
    Vars v;
    // r.min = i.outer*8 + i.inner with i.inner relaxed over [0, 7]: min end uses its min,
    // max end (r.min + r.extent - 1) its max.
    VarMap<IntSet> relax{{v.i, IntSet::fromRange(Range(0, 8))}};
    Analyzer analyzer;
    Expr rmin = v.o * 8 + v.i;
    Expr lo = analyzer.intSet(rmin, relax).min();
    Expr hi = analyzer.intSet(rmin + 1 - 1, relax).max();
    EXPECT_EQ(toString(analyzer.simplify(lo)), "(o*8)");
    EXPECT_EQ(toString(analyzer.simplify(hi)), "((o*8) + 7)");
}

TEST(InferBoundArith, ClampToShapeNeedsShapeInsideAccess) {
    Vars v;
    Analyzer analyzer;
    analyzer.bind(v.i, Range(0, 16));
    VarMap<IntSet> dom{{v.i, IntSet::fromRange(Range(0, 16))}};
    // A[i - 1] over i in [0, 15] reads [-1, 14]: it covers 0 but not the last row of 16.
    IntSet s = analyzer.intSet(v.i - 1, dom);
    EXPECT_TRUE(analyzer.canProve(Expr(0) >= s.min()));
    EXPECT_FALSE(analyzer.canProve(Expr(15) <= s.max()));
    // A[i + 1] over [0, 15] with shape 16 covers [1, 16]: not provably starting at 0.
    IntSet t = analyzer.intSet(v.i + 1, dom);
    EXPECT_FALSE(analyzer.canProve(Expr(0) >= t.min()));
}

TEST(InferBoundArith, FinalSimplifyUsesLoopRanges) {
    Vars v;
    Analyzer analyzer;
    analyzer.bind(v.i, Range(0, 8));
    EXPECT_EQ(toString(analyzer.simplify(floordiv(v.o * 8 + v.i, 8))), "o");
    EXPECT_EQ(toString(analyzer.simplify(floormod(v.o * 8 + v.i, 8))), "i");
    EXPECT_EQ(toString(analyzer.simplify(cast(DataType::int32(), v.bx * 400 + v.tx))),
              "((blockIdx.x*400) + threadIdx.x)");
}

TEST(InferBoundArith, UnionOfConsumerRequestsIsSimplified) {
    Vars v;
    // Two consumers read rows [o*8, o*8 + 7] and [o*8 + 1, o*8 + 8] (a stencil).
    IntSet a = IntSet::interval(v.o * 8, v.o * 8 + 7);
    IntSet b = IntSet::interval(v.o * 8 + 1, v.o * 8 + 8);
    EXPECT_EQ(toString(unionSets({a, b}).coverRange(Range(0, 64))), "range(min=(o*8), ext=9)");
}

} // namespace
} // namespace bs::test
