// The constant evaluator used by the property tests.

#include "ArithTestUtil.h"

#include "arith/ConstEval.h"

namespace bs::test {
namespace {

TEST(ConstEval, EvaluatesArithmeticWithVariableValues) {
    Vars v;
    VarMap<int64_t> values{{v.x, 7}, {v.y, -3}};
    EXPECT_EQ(evaluateInt(v.x * 4 + v.y, values), 25);
    EXPECT_EQ(evaluateInt(floordiv(v.y, 2), values), -2);
    EXPECT_EQ(evaluateInt(floormod(v.y, 2), values), 1);
    EXPECT_EQ(evaluateInt(truncdiv(v.y, 2), values), -1);
    EXPECT_EQ(evaluateInt(truncmod(v.y, 2), values), -1);
    EXPECT_EQ(evaluateInt(min(v.x, v.y) + max(v.x, v.y), values), 4);
}

TEST(ConstEval, EvaluatesConditionsAndSelect) {
    Vars v;
    VarMap<int64_t> values{{v.x, 7}, {v.y, -3}};
    EXPECT_EQ(evaluateInt(v.x < v.y, values), 0);
    EXPECT_EQ(evaluateInt(v.x < 8 && !(v.y > 0), values), 1);
    EXPECT_EQ(evaluateInt(select(v.x > 5, v.x, v.y), values), 7);
    // The branch not taken may divide by zero.
    EXPECT_EQ(evaluateInt(select(v.x > 5, v.x, floordiv(v.x, v.y + 3)), values), 7);
}

TEST(ConstEval, MissingValuesAndDivisionByZeroGiveNothing) {
    Vars v;
    VarMap<int64_t> values{{v.x, 0}};
    EXPECT_FALSE(evaluateInt(v.x + v.z, values).has_value());
    EXPECT_FALSE(evaluateInt(floordiv(v.y + 1, v.x), {{v.y, 2}, {v.x, 0}}).has_value());
    EXPECT_FALSE(evaluateInt(Expr(1.5f), values).has_value());
}

TEST(ConstEval, LetAndCastWrapToType) {
    Vars v;
    VarMap<int64_t> values{{v.x, 300}};
    EXPECT_EQ(evaluateInt(LetNode::make(v.k, v.x * 2, v.k + v.k), values), 1200);
    EXPECT_EQ(evaluateInt(cast(DataType(DataType::Code::Int, 8), v.x), values), 44);
    EXPECT_EQ(evaluateInt(cast(DataType::int64(), v.x) * 2, values), 600);
}

} // namespace
} // namespace bs::test
