/// The interpreter's arithmetic, casts and comparisons per type, on negative operands and at
/// the edges of each width. Nodes are built with their make() functions so that nothing is
/// folded before the interpreter sees it.
#include "RuntimeTestUtil.h"

#include "ir/Printer.h"
#include "runtime/Interpreter.h"

#include <gtest/gtest.h>

#include <climits>
#include <cmath>

using namespace bs;
using namespace bs::test;

namespace {

const DataType kInt8(DataType::Code::Int, 8);
const DataType kUInt8(DataType::Code::UInt, 8);
const DataType kUInt32(DataType::Code::UInt, 32);
const DataType kUInt64(DataType::Code::UInt, 64);

Expr imm(DataType type, int64_t v) { return IntImmNode::make(type, v); }
Expr fimm(DataType type, double v) { return FloatImmNode::make(type, v); }

/// Runs `out[0] = e` and returns the one-element buffer, of e's type.
Buffer evaluate(const Expr& e) {
    Var out = bufferVar("out");
    Buffer result("out", e.type(), {1});
    Interpreter interp;
    interp.bindBuffer(out, result);
    interp.run(store(out, e, 0));
    return result;
}

int64_t evalInt(const Expr& e) { return evaluate(e).getInt(0); }
double evalFloat(const Expr& e) { return evaluate(e).getDouble(0); }

struct DivCase {
    int64_t a, b;
    int64_t truncDiv, truncMod, floorDiv, floorMod;
};

const DivCase kDivCases[] = {
    {7, 2, 3, 1, 3, 1},     {-7, 2, -3, -1, -4, 1}, {7, -2, -3, 1, -4, -1},
    {-7, -2, 3, -1, 3, -1}, {-8, 2, -4, 0, -4, 0},  {0, -3, 0, 0, 0, 0},
};

} // namespace

TEST(InterpreterArith, IntegerDivisionRoundsPerOperator) {
    for (DataType type : {DataType::int32(), DataType::int64(), kInt8}) {
        for (const DivCase& c : kDivCases) {
            Expr a = imm(type, c.a), b = imm(type, c.b);
            SCOPED_TRACE(type.toString() + " " + std::to_string(c.a) + ", " + std::to_string(c.b));
            EXPECT_EQ(evalInt(DivNode::make(a, b)), c.truncDiv);
            EXPECT_EQ(evalInt(ModNode::make(a, b)), c.truncMod);
            EXPECT_EQ(evalInt(FloorDivNode::make(a, b)), c.floorDiv);
            EXPECT_EQ(evalInt(FloorModNode::make(a, b)), c.floorMod);
        }
    }
}

TEST(InterpreterArith, FloatDivisionAndRemainders) {
    for (DataType type : {DataType::float32(), DataType::float64()}) {
        Expr a = fimm(type, -7.5), b = fimm(type, 2.0);
        EXPECT_EQ(evalFloat(DivNode::make(a, b)), -3.75);
        EXPECT_EQ(evalFloat(ModNode::make(a, b)), -1.5); // fmod keeps the dividend's sign
        EXPECT_EQ(evalFloat(FloorDivNode::make(a, b)), -4.0);
        EXPECT_EQ(evalFloat(FloorModNode::make(a, b)), 0.5);
        // Float division by zero is IEEE, not an error.
        EXPECT_TRUE(std::isinf(evalFloat(DivNode::make(a, fimm(type, 0.0)))));
    }
}

TEST(InterpreterArith, IntegersWrapToTheirWidth) {
    EXPECT_EQ(evalInt(AddNode::make(imm(DataType::int32(), INT32_MAX), imm(DataType::int32(), 1))),
              INT32_MIN);
    EXPECT_EQ(evalInt(MulNode::make(imm(DataType::int32(), 65536), imm(DataType::int32(), 65536))),
              0);
    EXPECT_EQ(evalInt(AddNode::make(imm(kInt8, 100), imm(kInt8, 100))), -56);
    EXPECT_EQ(evalInt(AddNode::make(imm(kUInt8, 250), imm(kUInt8, 10))), 4);
    EXPECT_EQ(evalInt(SubNode::make(imm(kUInt32, 0), imm(kUInt32, 1))), 4294967295ll);
    EXPECT_EQ(evalInt(AddNode::make(imm(DataType::int64(), INT64_MAX), imm(DataType::int64(), 1))),
              INT64_MIN);
    EXPECT_EQ(evalInt(DivNode::make(imm(DataType::int64(), INT64_MIN), imm(DataType::int64(), -1))),
              INT64_MIN);
}

TEST(InterpreterArith, Float32RoundsAfterEveryOperation) {
    // 2^24 + 1 is not a float32: the sum rounds back to 2^24 before the subtraction.
    Expr big = fimm(DataType::float32(), 16777216.0);
    Expr one = fimm(DataType::float32(), 1.0);
    EXPECT_EQ(evalFloat(SubNode::make(AddNode::make(big, one), big)), 0.0);
    Expr big64 = fimm(DataType::float64(), 16777216.0);
    Expr one64 = fimm(DataType::float64(), 1.0);
    EXPECT_EQ(evalFloat(SubNode::make(AddNode::make(big64, one64), big64)), 1.0);
}

TEST(InterpreterArith, MinMaxAndComparisonsOnNegativeAndUnsigned) {
    Expr m3 = imm(DataType::int32(), -3), p2 = imm(DataType::int32(), 2);
    EXPECT_EQ(evalInt(MinNode::make(m3, p2)), -3);
    EXPECT_EQ(evalInt(MaxNode::make(m3, p2)), 2);
    EXPECT_EQ(evalInt(LTNode::make(m3, p2)), 1);
    EXPECT_EQ(evalInt(GTNode::make(m3, p2)), 0);
    EXPECT_EQ(evalInt(GENode::make(p2, p2)), 1);
    EXPECT_EQ(evalInt(LENode::make(p2, m3)), 0);
    EXPECT_EQ(evalInt(EQNode::make(m3, m3)), 1);
    EXPECT_EQ(evalInt(NENode::make(m3, m3)), 0);
    // The largest uint64 compares above 1, not as -1.
    Expr maxU = imm(kUInt64, -1), oneU = imm(kUInt64, 1);
    EXPECT_EQ(evalInt(GTNode::make(maxU, oneU)), 1);
    EXPECT_EQ(evalInt(MaxNode::make(maxU, oneU)), -1); // all bits set
    EXPECT_EQ(evalInt(DivNode::make(maxU, imm(kUInt64, 2))), INT64_MAX);
    Expr a = fimm(DataType::float32(), -0.5), b = fimm(DataType::float32(), 0.25);
    EXPECT_EQ(evalFloat(MinNode::make(a, b)), -0.5);
    EXPECT_EQ(evalInt(LTNode::make(b, a)), 0);
}

TEST(InterpreterArith, LogicalOperators) {
    Expr t = makeBool(true), f = makeBool(false);
    EXPECT_EQ(evalInt(AndNode::make(t, f)), 0);
    EXPECT_EQ(evalInt(OrNode::make(t, f)), 1);
    EXPECT_EQ(evalInt(NotNode::make(f)), 1);
    EXPECT_EQ(evalInt(SelectNode::make(f, imm(DataType::int32(), 4), imm(DataType::int32(), -4))),
              -4);
}

TEST(InterpreterArith, CastsConvertAsC) {
    EXPECT_EQ(evalInt(CastNode::make(DataType::int32(), fimm(DataType::float32(), -2.7))), -2);
    EXPECT_EQ(evalInt(CastNode::make(kInt8, fimm(DataType::float32(), 300.0))), 44);
    EXPECT_EQ(evalInt(CastNode::make(kUInt8, imm(DataType::int32(), -1))), 255);
    EXPECT_EQ(evalInt(CastNode::make(DataType::boolean(), imm(DataType::int32(), 5))), 1);
    EXPECT_EQ(evalInt(CastNode::make(DataType::boolean(), fimm(DataType::float32(), 0.0))), 0);
    EXPECT_EQ(evalFloat(CastNode::make(DataType::float32(), imm(DataType::int32(), 16777217))),
              16777216.0);
    EXPECT_EQ(evalFloat(CastNode::make(DataType::float32(), fimm(DataType::float64(), 0.1))),
              double(0.1f));
    EXPECT_EQ(evalFloat(CastNode::make(DataType::float32(), makeBool(true))), 1.0);
    EXPECT_EQ(evalInt(CastNode::make(DataType::int64(), imm(DataType::int32(), -5))), -5);
    EXPECT_EQ(evalFloat(CastNode::make(DataType::float64(), imm(kUInt64, -1))),
              18446744073709551616.0);
}

TEST(InterpreterArith, BitwiseIntrinsics) {
    auto call = [](const char* name, std::vector<Expr> args) {
        DataType type = args[0].type();
        return CallNode::make(type, name, std::move(args), CallKind::Intrinsic);
    };
    Expr m8 = imm(DataType::int32(), -8), one = imm(DataType::int32(), 1);
    EXPECT_EQ(evalInt(call("shift_right", {m8, one})), -4);
    EXPECT_EQ(evalInt(call("shift_right", {imm(kUInt32, 0xF0000000ll), imm(kUInt32, 4)})),
              0x0F000000);
    EXPECT_EQ(evalInt(call("shift_left", {imm(DataType::int32(), 0x40000000), one})), INT32_MIN);
    EXPECT_EQ(
        evalInt(call("bitwise_and", {imm(DataType::int32(), 12), imm(DataType::int32(), 10)})), 8);
    EXPECT_EQ(evalInt(call("bitwise_or", {imm(DataType::int32(), 12), imm(DataType::int32(), 10)})),
              14);
    EXPECT_EQ(
        evalInt(call("bitwise_xor", {imm(DataType::int32(), 12), imm(DataType::int32(), 10)})), 6);
    EXPECT_EQ(evalInt(call("bitwise_not", {imm(DataType::int32(), 0)})), -1);
    EXPECT_EQ(evalInt(call("popcount", {imm(DataType::int32(), -1)})), 32);
}

TEST(InterpreterArith, IntegerDivisionByZeroIsAnError) {
    Var x("x"), y("y"), out = bufferVar("out");
    for (auto make : {&DivNode::make, &ModNode::make, &FloorDivNode::make, &FloorModNode::make}) {
        Expr e = make(x, y);
        Buffer result("out", DataType::int32(), {1});
        Interpreter interp;
        interp.bindBuffer(out, result);
        interp.bindScalar(x, 7);
        interp.bindScalar(y, 0);
        try {
            interp.run(store(out, e, 0));
            ADD_FAILURE() << "expected an error for " << toString(e);
        } catch (const UserError& error) {
            EXPECT_EQ(std::string(error.what()),
                      "division by zero in " + toString(e) + " at: out[0] = " + toString(e));
        }
    }
}

TEST(InterpreterArith, FloorDivByBoundScalarsMatchesPythonSemantics) {
    // Non-constant operands through variables, over a grid of signs.
    Var x("x"), y("y"), out = bufferVar("out");
    for (int64_t a = -9; a <= 9; ++a) {
        for (int64_t b : {-4, -3, -1, 1, 3, 4}) {
            Buffer result("out", DataType::int32(), {2});
            Interpreter interp;
            interp.bindBuffer(out, result);
            interp.bindScalar(x, a);
            interp.bindScalar(y, b);
            interp.run(seq({store(out, FloorDivNode::make(x, y), 0),
                            store(out, FloorModNode::make(x, y), 1)}));
            int64_t q = result.getInt(0), r = result.getInt(1);
            EXPECT_EQ(q * b + r, a) << a << " " << b;
            EXPECT_TRUE(r == 0 || (r < 0) == (b < 0)) << a << " " << b;
        }
    }
}
