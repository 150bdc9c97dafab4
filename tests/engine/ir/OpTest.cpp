#include "ir/Op.h"
#include "ir/Printer.h"

#include <gtest/gtest.h>

#include <limits>

using namespace bs;

TEST(Op, FoldsConstantsLikeTvm) {
    Var x("x");
    EXPECT_EQ(toString(Expr(2) + 3), "5");
    EXPECT_EQ(toString(Expr(0) + x), "x");
    EXPECT_EQ(toString(x + 0), "x");
    EXPECT_EQ(toString(x - 0), "x");
    EXPECT_EQ(toString(x * 1), "x");
    EXPECT_EQ(toString(Expr(1) * x), "x");
    EXPECT_EQ(toString(x * 0), "0");
    EXPECT_EQ(toString(floordiv(Expr(-7), 2)), "-4");
    EXPECT_EQ(toString(floormod(Expr(-7), 2)), "1");
    EXPECT_EQ(toString(truncdiv(Expr(-7), 2)), "-3");
    EXPECT_EQ(toString(truncmod(Expr(-7), 2)), "-1");
    EXPECT_EQ(toString(floordiv(x, 1)), "x");
    EXPECT_EQ(toString(floormod(x, 1)), "0");
    EXPECT_EQ(toString(min(Expr(8), 20)), "8");
    EXPECT_EQ(toString(Expr(3) < 4), "(bool)1");
}

TEST(Op, TheSmallestIntegerOverMinusOneWrapsInsteadOfTrapping) {
    // C's INT64_MIN / -1 raises SIGFPE on x86: a script's constants folded that way killed the
    // CLI. Every integer division of the engine goes through these helpers.
    const int64_t min64 = std::numeric_limits<int64_t>::min();
    EXPECT_EQ(truncDivInt(min64, -1), min64);
    EXPECT_EQ(truncModInt(min64, -1), 0);
    EXPECT_EQ(floorDivInt(min64, -1), min64);
    EXPECT_EQ(floorModInt(min64, -1), 0);
    EXPECT_EQ(floorDivInt(-7, 2), -4);
    EXPECT_EQ(floorModInt(-7, 2), 1);
    EXPECT_EQ(floorModInt(7, -2), -1);
    EXPECT_EQ(floorDivInt(min64, 2), min64 / 2);
    const DataType i64 = DataType::int64();
    const Expr min = makeConst(i64, min64), minusOne = makeConst(i64, int64_t(-1));
    for (const Expr& folded : {truncdiv(min, minusOne), floordiv(min, minusOne), min / minusOne}) {
        EXPECT_EQ(asConstInt(folded), min64) << toString(folded);
    }
    EXPECT_EQ(asConstInt(truncmod(min, minusOne)), 0);
    EXPECT_EQ(asConstInt(floormod(min, minusOne)), 0);
    // int32 wraps at its own width.
    const Expr min32 = makeConst(DataType::int32(), int64_t(std::numeric_limits<int32_t>::min()));
    EXPECT_EQ(asConstInt(truncdiv(min32, Expr(-1))), std::numeric_limits<int32_t>::min());
}

TEST(Op, MatchesOperandTypes) {
    Var n("n", DataType::int64());
    Expr sum = n + 1;
    EXPECT_EQ(sum.type(), DataType::int64());
    EXPECT_EQ(toString(sum), "(n + (int64)1)");
    Var f("f", DataType::float32());
    EXPECT_EQ((f * 2).type(), DataType::float32());
    EXPECT_EQ(toString(f * 2), "(f*2.000000f)");
    Var i("i");
    EXPECT_EQ((i + n).type(), DataType::int64());
    EXPECT_EQ(toString(i + n), "(int64(i) + n)");
}

TEST(Op, LogicalOperatorsShortCircuitConstants) {
    Var x("x");
    Expr cond = x < 3;
    EXPECT_TRUE((cond && makeBool(true)).same_as(cond));
    EXPECT_EQ(toString(cond && makeBool(false)), "(bool)0");
    EXPECT_TRUE((cond || makeBool(false)).same_as(cond));
    EXPECT_EQ(toString(!makeBool(false)), "(bool)1");
    EXPECT_TRUE(select(makeBool(true), x, 1).same_as(x));
}

TEST(Op, DivisionByZeroIsAUserError) {
    Var x("x");
    EXPECT_THROW(floordiv(x, 0), UserError);
    EXPECT_THROW(truncmod(x, 0), UserError);
}

TEST(Op, CastFoldsConstantsAndSkipsSameType) {
    Var x("x");
    EXPECT_TRUE(cast(DataType::int32(), x).same_as(x));
    EXPECT_EQ(toString(cast(DataType::float32(), Expr(3))), "3.000000f");
    EXPECT_EQ(toString(cast(DataType::int32(), Expr(2.7))), "2");
}

TEST(Type, ParsesAndPrintsTvmSpellings) {
    EXPECT_EQ(DataType::parse("float32x8")->toString(), "float32x8");
    EXPECT_EQ(DataType::parse("float")->toString(), "float32");
    EXPECT_EQ(DataType::parse("int8")->toString(), "int8");
    EXPECT_EQ(DataType::parse("bool")->toString(), "bool");
    EXPECT_FALSE(DataType::parse("int7").has_value());
    EXPECT_FALSE(DataType::parse("complex").has_value());
}
