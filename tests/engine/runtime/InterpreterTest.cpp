#include "RuntimeTestUtil.h"

#include "ir/Printer.h"
#include "runtime/Interpreter.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace bs;
using namespace bs::test;

TEST(Interpreter, RunsAnElementwiseLoop) {
    Var a = bufferVar("A"), c = bufferVar("C"), i("i");
    Stmt body = loop(i, 100, store(c, load(a, i) * Expr(2.0f) + Expr(1.0f), i));
    Buffer bufA = iotaBuffer("A", 100);
    Buffer bufC("C", DataType::float32(), {100});
    Interpreter interp;
    interp.bindBuffer(a, bufA);
    interp.bindBuffer(c, bufC);
    RunResult result = interp.run(body);
    for (int64_t k = 0; k < 100; ++k)
        ASSERT_EQ(bufC.getDouble(k), 2.0 * double(k) + 1.0) << k;
    EXPECT_EQ(result.stores, 100);
    EXPECT_EQ(result.loads, 100);
}

TEST(Interpreter, RunsAMatmulReduction) {
    // C[i, j] = sum_k A[i, k] * B[k, j], with the init statement TVM places before the update;
    // 64x64x64, the size the differential tests run hundreds of times.
    const int n = 64;
    Var a = bufferVar("A"), b = bufferVar("B"), c = bufferVar("C");
    Var i("i"), j("j"), k("k");
    Expr cij = i * n + j;
    Stmt update = store(c, load(c, cij) + load(a, i * n + k) * load(b, k * n + j), cij);
    Stmt body = loop(i, n, loop(j, n, seq({store(c, Expr(0.0f), cij), loop(k, n, update)})));
    Buffer bufA("A", DataType::float32(), {n, n}), bufB("B", DataType::float32(), {n, n});
    Buffer bufC("C", DataType::float32(), {n, n});
    bufA.fillRandom(1);
    bufB.fillRandom(2);
    Interpreter interp;
    interp.bindBuffer(a, bufA);
    interp.bindBuffer(b, bufB);
    interp.bindBuffer(c, bufC);
    interp.run(body);
    for (int r = 0; r < n; ++r) {
        for (int s = 0; s < n; ++s) {
            float expected = 0;
            for (int t = 0; t < n; ++t)
                expected += float(bufA.at({r, t})) * float(bufB.at({t, s}));
            ASSERT_EQ(bufC.at({r, s}), double(expected)) << r << "," << s;
        }
    }
}

TEST(Interpreter, EveryLoopKindRunsEveryIteration) {
    for (ForKind kind :
         {ForKind::Serial, ForKind::Parallel, ForKind::Vectorized, ForKind::Unrolled}) {
        Var c = bufferVar("C"), i("i");
        Stmt body =
            ForNode::make(i, Expr(3), Expr(5), kind, store(c, cast(DataType::float32(), i), i));
        Buffer bufC("C", DataType::float32(), {8});
        Interpreter interp;
        interp.bindBuffer(c, bufC);
        interp.run(body);
        for (int64_t k = 0; k < 8; ++k)
            EXPECT_EQ(bufC.getDouble(k), k >= 3 ? double(k) : 0.0) << forKindName(kind) << k;
    }
}

TEST(Interpreter, SymbolicExtentsComeFromBoundScalars) {
    Var n("n"), c = bufferVar("C"), i("i");
    Stmt body = loop(i, n, store(c, cast(DataType::float32(), i * i), i));
    Buffer bufC("C", DataType::float32(), {10});
    Interpreter interp;
    interp.bindBuffer(c, bufC);
    interp.bindScalar(n, 7);
    RunResult result = interp.run(body);
    EXPECT_EQ(result.stores, 7);
    EXPECT_EQ(bufC.getDouble(6), 36.0);
    EXPECT_EQ(bufC.getDouble(7), 0.0);
    interp.bindScalar(n, 10); // rebinding replaces the value
    EXPECT_EQ(interp.run(body).stores, 10);
}

TEST(Interpreter, LetStmtAndLetExprBindValues) {
    Var c = bufferVar("C"), i("i"), x("x"), y("y");
    Expr letExpr = LetNode::make(y, x * 3, y + y);
    Stmt body =
        loop(i, 4, LetStmtNode::make(x, i + 1, store(c, cast(DataType::float32(), letExpr), i)));
    Buffer bufC("C", DataType::float32(), {4});
    Interpreter interp;
    interp.bindBuffer(c, bufC);
    interp.run(body);
    EXPECT_EQ(bufC.getDouble(3), 24.0); // x = 4, y = 12
}

TEST(Interpreter, IfThenElseTakesOneBranch) {
    Var c = bufferVar("C"), i("i");
    Stmt body = loop(i, 6,
                     IfThenElseNode::make(eq(floormod(i, 2), 0), store(c, Expr(1.0f), i),
                                          store(c, Expr(-1.0f), i)));
    Buffer bufC("C", DataType::float32(), {6});
    Interpreter interp;
    interp.bindBuffer(c, bufC);
    interp.run(body);
    EXPECT_EQ(bufC.getDouble(4), 1.0);
    EXPECT_EQ(bufC.getDouble(5), -1.0);
}

TEST(Interpreter, AllocationInsideALoopHoldsIntermediates) {
    // for i: allocate B[4]; B[j] = A[i*4 + j] + 1; C[i*4 + j] = B[3 - j] * 2
    Var a = bufferVar("A"), b = bufferVar("B"), c = bufferVar("C"), i("i"), j("j");
    Stmt produce = loop(j, 4, store(b, load(a, i * 4 + j) + Expr(1.0f), j));
    Stmt consume = loop(j, 4, store(c, load(b, Expr(3) - j) * Expr(2.0f), i * 4 + j));
    Stmt body = loop(i, 5, allocate(b, DataType::float32(), 4, seq({produce, consume})));
    Buffer bufA = iotaBuffer("A", 20);
    Buffer bufC("C", DataType::float32(), {20});
    Interpreter interp;
    interp.bindBuffer(a, bufA);
    interp.bindBuffer(c, bufC);
    interp.run(body);
    EXPECT_EQ(bufC.getDouble(8), 2.0 * (11 + 1)); // i = 2, j = 0 reads B[3] = A[11] + 1
}

TEST(Interpreter, ReadingAnUnwrittenAllocationGivesPoison) {
    Var b = bufferVar("B"), c = bufferVar("C");
    Stmt body = allocate(b, DataType::float32(), 2,
                         seq({store(b, Expr(1.0f), 0), store(c, load(b, 1), 0)}));
    Buffer bufC("C", DataType::float32(), {1});
    Interpreter interp;
    interp.bindBuffer(c, bufC);
    interp.run(body);
    EXPECT_TRUE(std::isnan(bufC.getDouble(0)));

    InterpreterOptions noPoison;
    noPoison.poisonAllocations = false;
    Interpreter plain(noPoison);
    plain.bindBuffer(c, bufC);
    plain.run(body);
    EXPECT_FALSE(std::isnan(bufC.getDouble(0)));
}

TEST(Interpreter, AssertionFailureNamesTheMessage) {
    Var n("n"), c = bufferVar("C");
    Stmt body = AssertStmtNode::make(n > 4, StringImmNode::make("n must exceed 4"),
                                     store(c, Expr(1.0f), 0));
    Buffer bufC("C", DataType::float32(), {1});
    Interpreter interp;
    interp.bindBuffer(c, bufC);
    interp.bindScalar(n, 5);
    EXPECT_NO_THROW(interp.run(body));
    interp.bindScalar(n, 3);
    try {
        interp.run(body);
        FAIL() << "expected an assertion failure";
    } catch (const UserError& e) {
        EXPECT_STREQ(e.what(),
                     "assertion failed: n must exceed 4 at: assert((n > 4), \"n must exceed 4\")");
    }
}

TEST(Interpreter, LikelyIsItsConditionAndIfThenElseIsLazy) {
    // The guarded read of A[i] for i = 4 must not happen: if_then_else evaluates one side.
    Var a = bufferVar("A"), c = bufferVar("C"), i("i");
    Expr guarded = CallNode::make(DataType::float32(), "if_then_else",
                                  {likely(i < 4), load(a, i), Expr(-1.0f)}, CallKind::Intrinsic);
    Stmt body = loop(i, 6, store(c, guarded, i));
    Buffer bufA = iotaBuffer("A", 4);
    Buffer bufC("C", DataType::float32(), {6});
    Interpreter interp;
    interp.bindBuffer(a, bufA);
    interp.bindBuffer(c, bufC);
    interp.run(body);
    EXPECT_EQ(bufC.getDouble(3), 3.0);
    EXPECT_EQ(bufC.getDouble(5), -1.0);
}

TEST(Interpreter, SelectEvaluatesTheChosenValueUnlessStrict) {
    // select(i < 4, A[i], -1f) over i < 6: A[4] and A[5] are read only by a strict select, as
    // an LLVM select instruction would read them.
    Var a = bufferVar("A"), c = bufferVar("C"), i("i");
    Stmt body = loop(i, 6, store(c, select(i < 4, load(a, i), Expr(-1.0f)), i));
    Buffer bufA = iotaBuffer("A", 4);
    Buffer bufC("C", DataType::float32(), {6});
    Interpreter lazy;
    lazy.bindBuffer(a, bufA);
    lazy.bindBuffer(c, bufC);
    lazy.run(body);
    EXPECT_EQ(bufC.getDouble(3), 3.0);
    EXPECT_EQ(bufC.getDouble(4), -1.0);

    InterpreterOptions options;
    options.strictSelect = true;
    Interpreter strict(options);
    strict.bindBuffer(a, bufA);
    strict.bindBuffer(c, bufC);
    try {
        strict.run(body);
        FAIL() << "expected an error";
    } catch (const UserError& e) {
        EXPECT_STREQ(e.what(), "out-of-bounds read of A[4] in argument buffer of 4 elements at: "
                               "C[i] = select((i < 4), A[i], -1.000000f)");
    }
}

TEST(Interpreter, MathCallsComputeInTheirType) {
    struct Case {
        const char* name;
        std::vector<double> args;
        double expected;
    };
    const Case cases[] = {
        {"exp", {1.0}, std::exp(1.0)},
        {"log", {2.0}, std::log(2.0)},
        {"sqrt", {2.0}, std::sqrt(2.0)},
        {"tanh", {0.5}, std::tanh(0.5)},
        {"sigmoid", {0.5}, 1 / (1 + std::exp(-0.5))},
        {"pow", {2.0, 10.0}, 1024.0},
        {"fabs", {-3.25}, 3.25},
        {"abs", {-3.25}, 3.25},
        {"floor", {-2.5}, -3.0},
        {"ceil", {-2.5}, -2.0},
        {"round", {2.5}, 3.0},
        {"round", {-2.5}, -3.0},
        {"exp2", {3.0}, 8.0},
        {"log2", {8.0}, 3.0},
        {"sin", {1.0}, std::sin(1.0)},
        {"cos", {1.0}, std::cos(1.0)},
        {"erf", {0.3}, std::erf(0.3)},
        {"fma", {2.0, 3.0, 4.0}, 10.0},
        {"trunc", {-2.7}, -2.0},
    };
    for (DataType type : {DataType::float32(), DataType::float64()}) {
        for (const Case& c : cases) {
            std::vector<Expr> args;
            for (double a : c.args)
                args.push_back(makeConst(type, a));
            Var out = bufferVar("out");
            Stmt body = store(out, mathCall(c.name, args), 0);
            Buffer bufOut("out", type, {1});
            Interpreter interp;
            interp.bindBuffer(out, bufOut);
            interp.run(body);
            if (type.bits() == 64) {
                EXPECT_EQ(bufOut.getDouble(0), c.expected) << c.name;
                continue;
            }
            // float32: the arguments and the result are rounded to float32.
            double got = bufOut.getDouble(0);
            EXPECT_EQ(got, double(float(got))) << c.name << " is not a float32 value";
            EXPECT_NEAR(got, c.expected, 1e-6 * std::max(1.0, std::fabs(c.expected))) << c.name;
        }
    }
}

TEST(Interpreter, RunResultFindsBuffersByNameVarAndTensor) {
    Var a = bufferVar("A"), b = bufferVar("B");
    Stmt body = allocate(b, DataType::float32(), 1, store(b, load(a, 0), 0));
    Buffer bufA = iotaBuffer("A", 1);
    Interpreter interp;
    interp.bindBuffer(a, bufA);
    RunResult result = interp.run(body);
    ASSERT_EQ(result.buffers.size(), 2u);
    EXPECT_EQ(result.find("A"), &result.buffers[0]);
    EXPECT_EQ(result.find(b), &result.buffers[1]);
    EXPECT_TRUE(result.buffers[0].isArgument);
    EXPECT_EQ(result.buffers[1].scope, "global");
    EXPECT_EQ(result.find("nothing"), nullptr);
    EXPECT_EQ(result.find(makeTensor("T", {1})), nullptr);
}
