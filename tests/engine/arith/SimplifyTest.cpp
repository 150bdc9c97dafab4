// Table-driven tests of Analyzer::simplify: each row is an input expression and the text
// TVM's simplifier prints for it.

#include "ArithTestUtil.h"

namespace bs::test {
namespace {

Expr simplifyFresh(const Expr& e) {
    Analyzer analyzer;
    return analyzer.simplify(e);
}

TEST(Simplify, FoldsConstants) {
    Var q("q");
    checkTable({{Expr(2) + 3, "5"},
                {(Expr(2) + 3) * q - q * 5, "0"},
                {min(Expr(8), Expr(20)), "8"},
                {max(Expr(8), Expr(20)), "20"},
                {floordiv(Expr(-7), Expr(2)), "-4"},
                {floormod(Expr(-7), Expr(2)), "1"},
                {truncdiv(Expr(-7), Expr(2)), "-3"},
                {truncmod(Expr(-7), Expr(2)), "-1"}},
               simplifyFresh);
}

TEST(Simplify, PutsSumsInCanonicalOrder) {
    Vars v;
    checkTable({{v.j + v.i * 64, "((i*64) + j)"},
                {v.bx * 400 + v.tx, "((blockIdx.x*400) + threadIdx.x)"},
                {v.tx + v.bx * 400, "((blockIdx.x*400) + threadIdx.x)"},
                {(v.x + 1) - 1, "x"},
                {((v.x * 8 + 7) - v.x * 8) + 1, "8"},
                {v.x - v.x, "0"},
                {v.x + v.x, "(x*2)"},
                {v.x * 2 + v.y + v.x * 3, "((x*5) + y)"},
                {(v.x - v.y) + 1, "((x + 1) - y)"},
                {1 - v.x, "(1 - x)"},
                {0 - v.x, "(0 - x)"},
                {(v.x + 2) * 3, "((x*3) + 6)"},
                {v.y + v.x + v.z - v.x, "(y + z)"},
                {3 * v.x, "(x*3)"},
                {v.x * v.y + v.x * v.z, "((y + z)*x)"}},
               simplifyFresh);
}

TEST(Simplify, ReasonsAboutFloorDivisionWithModularFacts) {
    Vars v;
    checkTable({{floordiv(8 * v.m, 8), "m"},
                {floormod(v.o * 8, 8), "0"},
                {floordiv(v.o * 8 + 7, 64), "floordiv(o, 8)"},
                {floordiv(v.x, 1), "x"},
                {floordiv(v.x * 8 + 7, 8), "x"},
                {floormod(v.x * 8 + 3, 8), "3"},
                {floordiv(v.x, 8) * 8 + floormod(v.x, 8), "x"},
                {floordiv(v.x * 16, 4), "(x*4)"},
                {floordiv(v.x * 4, 16), "floordiv(x, 4)"},
                {floormod(v.x * 4, 16), "(floormod(x, 4)*4)"},
                {floordiv(floordiv(v.x, 4), 8), "floordiv(x, 32)"},
                {floormod(floormod(v.x, 16), 4), "floormod(x, 4)"},
                {floormod(v.x - 5, 3), "floormod((x + 1), 3)"}},
               simplifyFresh);
}

TEST(Simplify, UsesBoundVariableRanges) {
    Vars v;
    Analyzer analyzer;
    analyzer.bind(v.x, Range(0, 8));
    analyzer.bind(v.i, Range(0, 16));
    auto simplify = [&](const Expr& e) { return analyzer.simplify(e); };
    checkTable({{floormod(v.x, 8), "x"},
                {floordiv(v.x, 8), "0"},
                {floordiv(v.i * 8 + v.x, 8), "i"},
                {floormod(v.i * 8 + v.x, 8), "x"},
                {min(v.x, 7), "x"},
                {max(v.x, 0), "x"},
                {min(v.i * 8 + v.x, 127), "((i*8) + x)"},
                {v.x < 8, "(bool)1"},
                {v.x >= 8, "(bool)0"},
                {select(v.x < 8, v.i, v.y), "i"}},
               simplify);
}

TEST(Simplify, SimplifiesMinMaxWhenOneSideDominates) {
    Vars v;
    checkTable({{min(v.x, v.x + 1), "x"},
                {min(v.x + 1, v.x), "x"},
                {max(v.x, v.x + 1), "(x + 1)"},
                {max(v.y * 2, v.y * 2), "(y*2)"},
                {min(16, v.n), "min(16, n)"},
                {min(v.x - 1, v.x + 5), "(x - 1)"},
                {min(max(v.x, v.y), v.x), "x"},
                {max(min(v.x, v.y), v.x), "x"},
                {min(v.x + v.y, v.x + v.z), "(min(y, z) + x)"},
                {min(v.x * 4, v.y * 4), "(min(x, y)*4)"},
                {min(v.x, 3) + 0, "min(x, 3)"}},
               simplifyFresh);
}

TEST(Simplify, CancelsThroughMinMax) {
    Vars v;
    checkTable({{min(v.x + 8, v.n) - v.x, "min(8, (n - x))"},
                {min(v.n, v.x * 4 + 1) - v.x * 4, "min((n - (x*4)), 1)"},
                // TVM first rewrites x*8 + 8 into (x + 1)*8 (`y*x + x`), which then no longer
                // matches the cancellation rule: the subtraction stays.
                {min(v.x * 8 + 8, v.n) - v.x * 8, "(min(((x*8) + 8), n) - (x*8))"},
                {v.n - min(v.n, 4), "max(0, (n - 4))"},
                {max(v.x, v.y) - v.y, "max((x - y), 0)"},
                {min(v.x, v.y) + max(v.x, v.y), "(x + y)"}},
               simplifyFresh);
}

TEST(Simplify, DecidesProvableComparisons) {
    Vars v;
    checkTable({{v.x < v.x + 1, "(bool)1"},
                {v.x * 8 + 7 < v.x * 8, "(bool)0"},
                {eq(v.x * 2, v.x * 2), "(bool)1"},
                {ne(v.x * 2 + 1, v.y * 2), "(bool)1"},
                {v.x > 3, "(3 < x)"},
                {v.x >= v.y, "(y <= x)"},
                {v.x + 2 < v.y + 2, "(x < y)"},
                {v.x * 4 < v.y * 4, "(x < y)"},
                {v.sn >= 0, "(bool)1"},
                {v.x < 3 && v.x > 5, "(bool)0"},
                {v.x < 3 || v.x >= 3, "(bool)1"},
                {!(v.x < v.y), "(y <= x)"}},
               simplifyFresh);
}

TEST(Simplify, PicksSelectBranchOnProvableCondition) {
    Vars v;
    checkTable({{select(v.x < v.x + 1, v.y, v.z), "y"},
                {select(v.x < v.y, v.z + 1, v.z + 1), "(z + 1)"},
                {select(v.sn < 0, v.y, v.z), "z"},
                {select(v.x < 5, select(v.x < 8, v.y, v.z), v.z), "select((x < 5), y, z)"}},
               simplifyFresh);
}

TEST(Simplify, HandlesLet) {
    Vars v;
    checkTable({{LetNode::make(v.k, Expr(4), v.k * v.x + v.k), "((x*4) + 4)"},
                {LetNode::make(v.k, v.x * 2, v.k + v.k - v.k), "(let k = (x*2) in k)"}},
               simplifyFresh);
}

TEST(Simplify, WorksOnSymbolicShapes) {
    Vars v;
    checkTable({{floordiv(v.sn + 7, 8) * 8 - floordiv(v.sn + 7, 8) * 8, "0"},
                {floordiv(v.n * 8, 8), "n"},
                {(v.n + 15) - 15, "n"},
                {min(v.sn, v.sn + 3), "sn"},
                {floordiv(v.sn * 4 + 3, 4), "sn"}},
               simplifyFresh);
}

TEST(Simplify, CombinesRampsAndBroadcastsLaneWise) {
    Vars v;
    auto ramp = [](Expr base, Expr stride) { return RampNode::make(base, stride, 4); };
    auto x4 = [](Expr value) { return BroadcastNode::make(value, 4); };
    checkTable({{ramp(v.x * 4, 1) + x4(Expr(8)), "ramp(((x*4) + 8), 1, 4)"},
                {x4(v.y) + ramp(v.x, 2), "ramp((y + x), 2, 4)"},
                {x4(v.y) - ramp(v.x, 2), "ramp((y - x), -2, 4)"},
                {ramp(v.x, 1) + ramp(v.y, 2), "ramp((x + y), 3, 4)"},
                {ramp(v.x, 1) * x4(Expr(4)), "ramp((x*4), 4, 4)"},
                {x4(v.x) * x4(v.y), "x4((x*y))"},
                {floordiv(ramp(v.x * 8, 8), x4(Expr(8))), "ramp(x, 1, 4)"},
                {floordiv(ramp(v.x * 4, 1), x4(Expr(8))), "x4(floordiv(x, 2))"},
                {floormod(ramp(v.x * 8, 1), x4(Expr(8))), "ramp(0, 1, 4)"},
                {floormod(ramp(v.x * 8, 8), x4(Expr(8))), "x4(0)"},
                {floordiv(ramp(v.x, 1), x4(Expr(8))), "floordiv(ramp(x, 1, 4), x4(8))"}},
               simplifyFresh);
}

TEST(Simplify, BindsExtentOneRangeAsValue) {
    Vars v;
    Analyzer analyzer;
    analyzer.bind(v.x, Range(v.y * 2, 1));
    EXPECT_EQ(toString(analyzer.simplify(v.x + 1)), "((y*2) + 1)");
}

TEST(Simplify, IsIdempotentOnTables) {
    Vars v;
    std::vector<Expr> inputs = {
        v.j + v.i * 64,  floordiv(v.o * 8 + 7, 64), min(v.x * 8 + 8, v.n) - v.x * 8,
        (v.x - v.y) + 1, floormod(v.x * 4, 16),     v.x > 3};
    for (const Expr& e : inputs) {
        Analyzer analyzer;
        Expr once = analyzer.simplify(e);
        EXPECT_EQ(toString(analyzer.simplify(once)), toString(once)) << toString(e);
    }
}

TEST(Simplify, ReturnsSameHandleWhenNothingChanges) {
    Vars v;
    Expr e = v.i * 64 + v.j;
    Analyzer analyzer;
    Expr once = analyzer.simplify(e);
    EXPECT_TRUE(analyzer.simplify(once).same_as(once));
}

} // namespace
} // namespace bs::test
