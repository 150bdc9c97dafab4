// The host code of a GPU program evaluates its integers with arith's evaluateInt (issue 21,
// item 2): the CUDA executor's own evaluator did not wrap values to their type and read the
// outer value of a variable a let re-binds. These run without a GPU.
#include "run/CudaExecutor.h"

#include "ir/Op.h"
#include "support/Diagnostic.h"

#include <gtest/gtest.h>

using namespace bs;

TEST(CudaHostValue, ValuesWrapToTheirType) {
    Var x("x", DataType(DataType::Code::Int, 8));
    VarMap<int64_t> scalars{{x, 100}};
    // 100 + 100 in int8 is -56, as the device computes it.
    EXPECT_EQ(hostValue(x + makeConst(DataType(DataType::Code::Int, 8), int64_t(100)), scalars),
              -56);
}

TEST(CudaHostValue, AnInnerLetShadowsTheOuterBinding) {
    Var n("n");
    VarMap<int64_t> scalars{{n, 100}};
    EXPECT_EQ(hostValue(LetNode::make(n, Expr(5), n + 1), scalars), 6);
    EXPECT_EQ(hostValue(n * 2, scalars), 200);
}

TEST(CudaHostValue, AMissingScalarOrADivisionByZeroIsAUserError) {
    Var n("n"), m("m");
    VarMap<int64_t> scalars{{m, 0}};
    try {
        hostValue(n + 1, scalars);
        FAIL() << "no error";
    } catch (const UserError& e) {
        EXPECT_EQ(std::string(e.what()), "the GPU program needs a value for 'n'");
    }
    try {
        hostValue(floordiv(Expr(8), m), scalars);
        FAIL() << "no error";
    } catch (const UserError& e) {
        EXPECT_NE(std::string(e.what()).find("cannot evaluate floordiv(8, m): a division by zero"),
                  std::string::npos)
            << e.what();
    }
}
