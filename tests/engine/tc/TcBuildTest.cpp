// TC definitions as ordinary stages: the computes they build, the values they compute in the
// reference interpreter, scheduling them with the usual primitives, and the errors of
// statements that cannot be built.

#include "TcTestUtil.h"

#include "tc/Tc.h"

#include "ir/Printer.h"
#include "schedule/Schedule.h"

namespace bs::tc {
namespace {

using test::runSchedule;

const char* kMatmul = "def matmul(float(M, K) A, float(K, N) B) -> (C) {\n"
                      "    C(m, n) +=! A(m, r_k) * B(r_k, n)\n"
                      "}\n";

std::string errorOf(const std::string& source, const TcOptions& options = {}) {
    return test::tcErrorOf(source, options);
}

TEST(TcBuild, MatmulIsAReductionOverRk) {
    TcProgram p = buildTc(kMatmul);
    ASSERT_EQ(p.inputs.size(), 2u);
    ASSERT_EQ(p.outputs.size(), 1u);
    const auto* c = p.outputs[0].op.as<ComputeOpNode>();
    ASSERT_TRUE(c);
    EXPECT_EQ(c->name, "C");
    EXPECT_EQ(toString(c->shape[0]), "M");
    EXPECT_EQ(toString(c->shape[1]), "N");
    ASSERT_EQ(c->reduceAxis.size(), 1u);
    EXPECT_EQ(c->reduceAxis[0]->var.name(), "r_k");
    EXPECT_EQ(toString(c->reduceAxis[0]->dom.extent), "K");
    EXPECT_EQ(c->axis[0]->var.name(), "m");
    ASSERT_EQ(p.sizes.size(), 3u);
    EXPECT_EQ(p.sizes[0].first, "M");
}

TEST(TcBuild, MatmulComputesTheProduct) {
    TcProgram p = buildTc(kMatmul, {{{"M", 3}, {"K", 4}, {"N", 5}}, ""});
    std::vector<Tensor> args = {p.inputs[0], p.inputs[1], p.outputs[0]};
    std::vector<Buffer> b = runSchedule(createSchedule(p.outputs[0].op), args);
    for (int64_t m = 0; m < 3; ++m)
        for (int64_t n = 0; n < 5; ++n) {
            double expected = 0;
            for (int64_t k = 0; k < 4; ++k)
                expected += b[0].at({m, k}) * b[1].at({k, n});
            EXPECT_NEAR(b[2].at({m, n}), expected, 1e-4);
        }
}

TEST(TcBuild, ScheduledMatmulComputesTheSameValues) {
    TcOptions sizes{{{"M", 8}, {"K", 6}, {"N", 8}}, ""};
    TcProgram p = buildTc(kMatmul, sizes);
    std::vector<Tensor> args = {p.inputs[0], p.inputs[1], p.outputs[0]};
    std::vector<Buffer> plain = runSchedule(createSchedule(p.outputs[0].op), args);
    Schedule s = createSchedule(p.outputs[0].op);
    const auto* c = p.outputs[0].op.as<ComputeOpNode>();
    auto [mo, mi] = s[p.outputs[0]].split(c->axis[0], Expr(4));
    s[p.outputs[0]].reorder({mo, c->axis[1], mi});
    std::vector<Buffer> scheduled = runSchedule(s, args);
    test::expectSameValues(plain[2], scheduled[2]);
}

TEST(TcBuild, StencilShrinksTheOutput) {
    TcProgram p = buildTc("def conv(float(N) B, float(W) K) -> (A) {\n"
                          "    A(i) +=! B(i + k) * K(k)\n"
                          "}\n",
                          {{{"N", 10}, {"W", 3}}, ""});
    EXPECT_EQ(toString(p.outputs[0].shape()[0]), "8");
    std::vector<Buffer> b =
        runSchedule(createSchedule(p.outputs[0].op), {p.inputs[0], p.inputs[1], p.outputs[0]});
    for (int64_t i = 0; i < 8; ++i) {
        double expected = 0;
        for (int64_t k = 0; k < 3; ++k)
            expected += b[0].at({i + k}) * b[1].at({k});
        EXPECT_NEAR(b[2].at({i}), expected, 1e-4);
    }
}

TEST(TcBuild, InvertedIndexingShiftsTheOutput) {
    TcProgram p = buildTc("def reverted(float(I) B) -> A {\n"
                          "    A(i) = B(10 - i)\n"
                          "}\n",
                          {{{"I", 6}}, ""});
    // i in [5, 11): A's index 0 holds i = 5, which reads B(5); index 5 reads B(0).
    std::vector<Buffer> b =
        runSchedule(createSchedule(p.outputs[0].op), {p.inputs[0], p.outputs[0]});
    ASSERT_EQ(b[1].size(), 6);
    for (int64_t a = 0; a < 6; ++a)
        EXPECT_EQ(b[1].at({a}), b[0].at({5 - a}));
}

TEST(TcBuild, AccumulatingStatementReadsThePreviousValue) {
    TcProgram p = buildTc("def f(float(N) A, float(N, K) B) -> (C) {\n"
                          "    C(i) = A(i)\n"
                          "    C(i) += B(i, k)\n"
                          "}\n",
                          {{{"N", 4}, {"K", 3}}, ""});
    EXPECT_EQ(p.outputs[0].name(), "C_1");
    ASSERT_EQ(p.statements.size(), 2u);
    EXPECT_EQ(p.statements[1].text, "C(i) += B(i, k)");
    std::vector<Buffer> b =
        runSchedule(createSchedule(p.outputs[0].op), {p.inputs[0], p.inputs[1], p.outputs[0]});
    for (int64_t i = 0; i < 4; ++i) {
        double expected = b[0].at({i});
        for (int64_t k = 0; k < 3; ++k)
            expected += b[1].at({i, k});
        EXPECT_NEAR(b[2].at({i}), expected, 1e-4);
    }
}

TEST(TcBuild, MaxAndProductReductions) {
    TcProgram p = buildTc("def f(float(N, K) A) -> (X, P) {\n"
                          "    X(i) max=! A(i, k)\n"
                          "    P(i) *=! A(i, k)\n"
                          "}\n",
                          {{{"N", 3}, {"K", 4}}, ""});
    ASSERT_EQ(p.outputs.size(), 2u);
    Schedule s = createSchedule({p.outputs[0].op, p.outputs[1].op});
    std::vector<Buffer> b = runSchedule(s, {p.inputs[0], p.outputs[0], p.outputs[1]});
    for (int64_t i = 0; i < 3; ++i) {
        double mx = b[0].at({i, 0}), prod = 1;
        for (int64_t k = 0; k < 4; ++k) {
            mx = std::max(mx, b[0].at({i, k}));
            prod *= b[0].at({i, k});
        }
        EXPECT_NEAR(b[1].at({i}), mx, 1e-5);
        EXPECT_NEAR(b[2].at({i}), prod, 1e-4);
    }
}

TEST(TcBuild, ConstantFillReadsOnlyTheScalar) {
    TcProgram p = buildTc("def constant_fill(float(N) A, float c) -> B {\n"
                          "    B(i) = c where exists A(i)\n"
                          "}\n",
                          {{{"N", 5}}, ""});
    std::vector<Buffer> b =
        runSchedule(createSchedule(p.outputs[0].op), {p.inputs[0], p.inputs[1], p.outputs[0]});
    for (int64_t i = 0; i < 5; ++i)
        EXPECT_EQ(b[2].at({i}), b[1].getDouble(0));
}

TEST(TcBuild, StatementErrorsNameTheProblem) {
    EXPECT_EQ(errorOf("def f(float(N, K) A) -> B {\n    B(i) = A(i, k)\n}\n", {{}, "f.tc"}),
              "f.tc:2: error: col 17: 'k' is not an index of 'B', so its values must be "
              "combined: use '+=!', '*=!', 'max=!' or 'min=!'");
    EXPECT_NE(errorOf("def f(float(N) A) -> B {\n    B(i) += A(i)\n}\n")
                  .find("'+=' combines with the previous value of 'B', which no earlier "
                        "statement defines; write '+=!'"),
              std::string::npos);
    EXPECT_NE(
        errorOf("def f(float(N) A) -> B {\n    A(i) = A(i)\n}\n").find("'A' is an input of 'f'"),
        std::string::npos);
    EXPECT_NE(errorOf("def f(float(N) A) -> (B, C) {\n    B(i) = A(i)\n}\n")
                  .find("output 'C' is never assigned"),
              std::string::npos);
    EXPECT_NE(errorOf("def f(float(N) A) -> B {\n    B(i) = A(i, i)\n}\n")
                  .find("'A' has 1 dimensions but is indexed with 2"),
              std::string::npos);
    EXPECT_NE(errorOf(kMatmul, {{{"Q", 3}}, ""})
                  .find("'Q' is not a size of 'matmul' (its sizes "
                        "are M, K, N)"),
              std::string::npos);
    EXPECT_NE(errorOf("def f(float(N) A) -> B {\n    B(i) = A(i) where k in 0:2\n}\n")
                  .find("'k' in the where clause is not a variable of the statement"),
              std::string::npos);
}

TEST(TcBuild, SeedsPlainAssignmentOverKNeedsAReduction) {
    // Seed 003 writes `A(i) = B(2*i + k) where k in 0:2` to explain the ranges; as a
    // computation, k is not an index of A, so its two values must be combined (the range test
    // uses `+=!`).
    EXPECT_NE(errorOf("def average_pool_2(float(I) B) -> A {\n"
                      "    A(i) = B(2*i + k) where k in 0:2\n}\n")
                  .find("'k' is not an index of 'A'"),
              std::string::npos);
}

TEST(TcBuild, WhereBoundsMustNotUseIndexVariables) {
    EXPECT_NE(errorOf("def f(float(N) A) -> B {\n    B(i) +=! A(i + k) where k in 0:i\n}\n")
                  .find("the upper bound of 'k' must be an integer expression of sizes and "
                        "constants, got 'i'"),
              std::string::npos);
}

} // namespace
} // namespace bs::tc
