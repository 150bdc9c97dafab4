// The Analyzer's proofs, constant bounds, modular sets and constraint scopes.

#include "ArithTestUtil.h"

namespace bs::test {
namespace {

TEST(Analyzer, CanProveSimpleInequalitiesWithBoundVariables) {
    Vars v;
    Analyzer analyzer;
    analyzer.bind(v.i, Range(0, 16));
    analyzer.bind(v.j, Range(0, 8));
    EXPECT_TRUE(analyzer.canProve(v.i * 8 + v.j < 128));
    EXPECT_FALSE(analyzer.canProve(v.i * 8 + v.j < 127));
    EXPECT_TRUE(analyzer.canProve(v.i >= 0));
    EXPECT_TRUE(analyzer.canProve(v.j <= v.j + 1));
    EXPECT_FALSE(analyzer.canProve(v.i < v.j));
    EXPECT_FALSE(analyzer.canProve(v.n < 4)); // unknown
    EXPECT_TRUE(analyzer.canProve(makeBool(true)));
}

TEST(Analyzer, CanProveEqualThroughSimplification) {
    Vars v;
    Analyzer analyzer;
    EXPECT_TRUE(analyzer.canProveEqual(floordiv(v.x * 8 + 7, 8), v.x));
    EXPECT_TRUE(analyzer.canProveEqual(v.x + v.y, v.y + v.x));
    EXPECT_TRUE(analyzer.canProveEqual(Expr(3), Expr(3)));
    EXPECT_FALSE(analyzer.canProveEqual(v.x, v.y));
    EXPECT_FALSE(analyzer.canProveEqual(floormod(v.x, 8), v.x));
    analyzer.bind(v.x, Range(0, 8));
    EXPECT_TRUE(analyzer.canProveEqual(floormod(v.x, 8), v.x));
}

TEST(Analyzer, CanProveGreaterEqualAndLessUseConstantBounds) {
    Vars v;
    Analyzer analyzer;
    analyzer.bind(v.x, Range(2, 6)); // [2, 7]
    EXPECT_TRUE(analyzer.canProveGreaterEqual(v.x, 2));
    EXPECT_FALSE(analyzer.canProveGreaterEqual(v.x, 3));
    EXPECT_TRUE(analyzer.canProveLess(v.x, 8));
    EXPECT_FALSE(analyzer.canProveLess(v.x, 7));
    EXPECT_TRUE(analyzer.canProveGreaterEqual(v.sn, 0));
    EXPECT_FALSE(analyzer.canProveGreaterEqual(v.n, 0));
    EXPECT_TRUE(analyzer.canProveLess(Expr(3), 4));
}

TEST(Analyzer, ConstIntBoundOfOperators) {
    Vars v;
    Analyzer analyzer;
    analyzer.bind(v.x, Range(0, 8));  // [0, 7]
    analyzer.bind(v.y, Range(-4, 9)); // [-4, 4]
    struct Case {
        Expr e;
        std::string expected;
    };
    std::vector<Case> table = {
        {v.x + v.y, "[-4, 11]"},
        {v.x - v.y, "[-4, 11]"},
        {v.x * v.y, "[-28, 28]"},
        {v.x * -3, "[-21, 0]"},
        {floordiv(v.y, 4), "[-1, 1]"},
        {truncdiv(v.y, 4), "[-1, 1]"},
        {floormod(v.y, 4), "[0, 3]"},
        {floormod(v.x, 16), "[0, 7]"},
        {truncmod(v.y, 3), "[-2, 2]"},
        {min(v.x, v.y), "[-4, 4]"},
        {max(v.x, v.y), "[0, 7]"},
        {select(v.x < 3, v.x, v.y * 2), "[-8, 8]"},
        {v.x < v.y, "[0, 1]"},
        {Expr(5), "[5, 5]"},
        {v.sn, "[0, pos_inf]"},
        {v.n, "[-2147483648, 2147483647]"},
        {Var("w", DataType::int64()), "[neg_inf, pos_inf]"},
        {cast(DataType::int64(), v.x) * 2, "[0, 14]"},
        {floordiv(v.x, v.sn), "[0, 7]"},
    };
    for (const Case& c : table)
        EXPECT_EQ(analyzer.constIntBound(c.e).toString(), c.expected) << toString(c.e);
}

TEST(Analyzer, ConstIntBoundSaturatesToInfinity) {
    Var w("w", DataType::int64());
    Analyzer analyzer;
    analyzer.bind(w, Range(makeConst(DataType::int64(), int64_t(0)), maxValue(DataType::int64())));
    EXPECT_EQ(analyzer.constIntBound(w * 4).maxValue, ConstIntBound::kPosInf);
    EXPECT_EQ(analyzer.constIntBound(w + 1).maxValue, ConstIntBound::kPosInf);
}

TEST(Analyzer, ModularSetOfLinearExpressions) {
    Vars v;
    Analyzer analyzer;
    struct Case {
        Expr e;
        int64_t coeff, base;
    };
    std::vector<Case> table = {
        {v.o * 8 + 3, 8, 3},
        {v.o * 8 - 3, 8, 5},
        {v.o * 6 + v.j * 4, 2, 0},
        {Expr(7), 0, 7},
        {v.x, 1, 0},
        {(v.o * 8 + 4) * 3, 24, 12},
        {floordiv(v.o * 8 + 4, 4), 2, 1},
        {floormod(v.o * 6 + 4, 4), 2, 0},
        {min(v.o * 4 + 1, v.j * 8 + 5), 4, 1},
        {select(v.x < 1, v.o * 6, v.j * 9 + 3), 3, 0},
    };
    for (const Case& c : table) {
        ModularSet m = analyzer.modularSet(c.e);
        EXPECT_EQ(m.coeff, c.coeff) << toString(c.e) << " gives " << m.toString();
        EXPECT_EQ(m.base, c.base) << toString(c.e) << " gives " << m.toString();
    }
}

TEST(Analyzer, ModularSetUsesBoundValues) {
    Vars v;
    Analyzer analyzer;
    analyzer.bind(v.k, v.o * 16 + 4);
    EXPECT_EQ(analyzer.modularSet(v.k + 1).toString(), "ModularSet(coeff=16, base=5)");
    EXPECT_EQ(toString(analyzer.simplify(floormod(v.k, 4))), "0");
}

TEST(Analyzer, BindOverrideReplacesRange) {
    Vars v;
    Analyzer analyzer;
    analyzer.bind(v.x, Range(0, 8));
    analyzer.bind(v.x, Range(0, 8)); // same range again is fine
    analyzer.bind(v.x, Range(0, 100), /*allowOverride=*/true);
    EXPECT_EQ(analyzer.constIntBound(v.x).toString(), "[0, 99]");
}

TEST(Analyzer, IntSetOverBoundRanges) {
    Vars v;
    Analyzer analyzer;
    analyzer.bind(v.x, Range(0, 8));
    EXPECT_EQ(analyzer.intSet(v.x * 2 + 1).toString(), "[1, 15]");
}

TEST(Analyzer, ConstraintScopeNarrowsBoundsAndLiterals) {
    Vars v;
    Analyzer analyzer;
    {
        Analyzer::ConstraintScope scope(analyzer, v.x < 8 && v.x >= 0);
        EXPECT_EQ(analyzer.constIntBound(v.x).toString(), "[0, 7]");
        EXPECT_TRUE(analyzer.canProve(v.x < 8));
        EXPECT_EQ(toString(analyzer.simplify(floordiv(v.x, 8))), "0");
        EXPECT_TRUE(analyzer.canProve(v.x < v.n || v.x < 8));
    }
    EXPECT_FALSE(analyzer.canProve(v.x < 8));
    Analyzer::ConstraintScope symbolic(analyzer, v.x < v.n);
    EXPECT_TRUE(analyzer.canProve(v.x < v.n));
    EXPECT_EQ(toString(analyzer.simplify(v.n <= v.x)), "(bool)0");
}

} // namespace
} // namespace bs::test
