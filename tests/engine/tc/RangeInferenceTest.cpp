// Seed 003's worked examples, each with the exact range the seed gives (in TC's notation, `/`
// being floor division), plus the stencil's round order, the dynamic-stride error and the
// unchecked preconditions.

#include "TcTestUtil.h"

#include "ir/Printer.h"

#include <gtest/gtest.h>

namespace bs::tc {
namespace {

/// The range of `var` in statement `statement` of `p`, as TC prints it.
std::string rangeOf(const TcProgram& p, const std::string& var, size_t statement = 0) {
    for (const InferredRange& r : p.statements.at(statement).ranges)
        if (r.var.name() == var)
            return r.toString();
    ADD_FAILURE() << "no variable " << var;
    return "";
}

const InferredRange* find(const TcProgram& p, const std::string& var) {
    for (const InferredRange& r : p.statements.at(0).ranges)
        if (r.var.name() == var)
            return &r;
    return nullptr;
}

std::string errorOf(const std::string& source, const TcOptions& options = {}) {
    return test::tcErrorOf(source, options);
}

TEST(TcRangeInference, MatmulRangesComeFromTheInputSizes) {
    TcProgram p = buildTc("def matmul(float(M, K) A, float(K, N) B) -> (C) {\n"
                          "    C(m, n) +=! A(m, r_k) * B(r_k, n)\n"
                          "}\n");
    EXPECT_EQ(rangeOf(p, "m"), "0 <= m < M");
    EXPECT_EQ(rangeOf(p, "n"), "0 <= n < N");
    // r_k is used twice; both uses give K (the type signature makes them equal).
    EXPECT_EQ(rangeOf(p, "r_k"), "0 <= r_k < K");
    EXPECT_EQ(find(p, "r_k")->origin, "A(m, r_k), B(r_k, n)");
    EXPECT_EQ(find(p, "m")->round, 1);
    EXPECT_TRUE(p.warnings.empty());
}

TEST(TcRangeInference, StencilResolvesTheKernelFirst) {
    TcProgram p = buildTc("def conv(float(N) B, float(W) K) -> (A) {\n"
                          "    A(i) +=! B(i + k) * K(k)\n"
                          "}\n");
    // Round 1 ignores B(i + k) (two unresolved variables) and takes k from K(k); round 2 then
    // bounds i by B(i + k) for every k: the output is slightly smaller than the input.
    EXPECT_EQ(rangeOf(p, "k"), "0 <= k < W");
    EXPECT_EQ(find(p, "k")->round, 1);
    EXPECT_EQ(rangeOf(p, "i"), "0 <= i < N + 1 - W");
    EXPECT_EQ(find(p, "i")->round, 2);
    EXPECT_EQ(find(p, "i")->origin, "B(i + k)");
}

TEST(TcRangeInference, InvertedIndexingGivesElevenMinusI) {
    TcProgram p = buildTc("def reverted(float(I) B) -> A {\n"
                          "    A(i) = B(10 - i)\n"
                          "}\n");
    // The seed prints `9 - I <= i < 11`, but its own condition 0 <= 10 - i < I gives
    // i <= 10 and i > 10 - I, i.e. 11 - I <= i < 11 (for i = 10 - I, B is read at I, out of
    // bounds). The engine gives the correct range.
    EXPECT_EQ(rangeOf(p, "i"), "11 - I <= i < 11");
    // The output starts at i = 11 - I, so it has I elements; a note says where index 0 is.
    EXPECT_EQ(toString(p.outputs[0].shape()[0]), "I");
    ASSERT_EQ(p.warnings.size(), 1u);
    EXPECT_EQ(p.warnings[0].severity, Severity::Note);
}

TEST(TcRangeInference, ConstantStrideRoundsUp) {
    TcProgram p = buildTc("def subsample_2(float(I) B) -> A {\n"
                          "    A(i) = B(2*i)\n"
                          "}\n");
    EXPECT_EQ(rangeOf(p, "i"), "0 <= i < (I + 1)/2");
}

TEST(TcRangeInference, StridedWithOffsetsIntersectsBothConditions) {
    TcProgram p = buildTc("def average_pool_2(float(I) B) -> A {\n"
                          "    A(i) = B(2*i) + B(2*i + 1)\n"
                          "}\n");
    // 0 <= i < (I+1)/2 from B(2*i), 0 <= i < I/2 from B(2*i + 1): the intersection is I/2.
    EXPECT_EQ(rangeOf(p, "i"), "0 <= i < I/2");
}

TEST(TcRangeInference, StridedWithWhereClauseGivesTheSameRange) {
    TcProgram p = buildTc("def average_pool_2(float(I) B) -> A {\n"
                          "    A(i) +=! B(2*i + k) where k in 0:2\n"
                          "}\n");
    EXPECT_EQ(rangeOf(p, "k"), "0 <= k < 2");
    EXPECT_EQ(find(p, "k")->origin, "where clause");
    EXPECT_EQ(find(p, "k")->round, 0);
    EXPECT_EQ(rangeOf(p, "i"), "0 <= i < I/2");
}

TEST(TcRangeInference, DynamicStrideNeedsAWhereClause) {
    std::string error = errorOf("def subsample_2(float(I) B, int(1) S) -> A {\n"
                                "    A(i) = B(S(0)*i)\n"
                                "}\n",
                                {{}, "sub.tc"});
    EXPECT_EQ(error, "sub.tc:2: error: col 7: cannot infer the range of 'i': the stride 'S(0)' "
                     "of 'i' in 'S(0)*i' is not a constant (in B(S(0)*i)); add a clause "
                     "'where i in LB:UB'");
}

TEST(TcRangeInference, DynamicStrideWithWhereClauseBuilds) {
    TcProgram p = buildTc("def subsample_2(float(I) B, int(1) S) -> A {\n"
                          "    A(i) = B(S(0)*i) where i in 0:4\n"
                          "}\n");
    EXPECT_EQ(rangeOf(p, "i"), "0 <= i < 4");
    // B's index is then a precondition nothing checks.
    ASSERT_EQ(p.warnings.size(), 1u);
    EXPECT_NE(p.warnings[0].message.find("unchecked precondition"), std::string::npos);
}

TEST(TcRangeInference, ExistsClauseSizesAConstantFill) {
    TcProgram p = buildTc("def constant_fill(float(N) A, float c) -> B {\n"
                          "    B(i) = c where exists A(i)\n"
                          "}\n");
    EXPECT_EQ(rangeOf(p, "i"), "0 <= i < N");
    EXPECT_EQ(toString(p.outputs[0].shape()[0]), "N");
    // A(i) takes part in inference only: B reads c, not A.
    std::vector<Tensor> reads = p.outputs[0].op->inputTensors();
    ASSERT_EQ(reads.size(), 1u);
    EXPECT_EQ(reads[0].name(), "c");
}

TEST(TcRangeInference, SumOfResolvedVariablesIsAnUncheckedPrecondition) {
    TcProgram p = buildTc("def f(float(I) B, float(K) C, float(J) D) -> A {\n"
                          "    A(i, j) = B(i) * C(i + j) * D(j)\n"
                          "}\n",
                          {{}, "pre.tc"});
    EXPECT_EQ(rangeOf(p, "i"), "0 <= i < I");
    EXPECT_EQ(rangeOf(p, "j"), "0 <= j < J");
    ASSERT_EQ(p.warnings.size(), 1u);
    EXPECT_EQ(p.warnings[0].toString(),
              "pre.tc:2: warning: col 22: unchecked precondition: 'i + j' in C(i + j) takes "
              "values in [0, I + J - 2], which must lie within dimension 0 of C (size K)");
}

TEST(TcRangeInference, PreconditionIsProvenWithConstantSizes) {
    TcProgram p = buildTc("def f(float(I) B, float(K) C, float(J) D) -> A {\n"
                          "    A(i, j) = B(i) * C(i + j) * D(j)\n"
                          "}\n",
                          {{{"I", 4}, {"J", 5}, {"K", 8}}, ""});
    EXPECT_TRUE(p.warnings.empty());
}

TEST(TcRangeInference, LookupTableValuesAreAnUncheckedPrecondition) {
    // The seed declares C as float(I); an index must be an integer, so C is int(I) here.
    TcProgram p = buildTc("def lut(float(J) B, int(I) C) -> A {\n"
                          "    A(i) = B(C(i))\n"
                          "}\n");
    EXPECT_EQ(rangeOf(p, "i"), "0 <= i < I");
    ASSERT_EQ(p.warnings.size(), 1u);
    EXPECT_NE(p.warnings[0].message.find("the values of 'C(i)' index dimension 0 of B (size J) "
                                         "and must lie in [0, J)"),
              std::string::npos)
        << p.warnings[0].message;
}

TEST(TcRangeInference, ClampedLookupTableIsSafe) {
    // With a symbolic J the clamp still allows J = 0 (no valid index at all), so the sizes are
    // given: the clamp then provably stays in [0, J).
    TcProgram p = buildTc("def lut(float(J) B, int(I) C) -> A {\n"
                          "    A(i) = B(max(min(C(i), J - 1), 0))\n"
                          "}\n",
                          {{{"J", 16}}, ""});
    EXPECT_TRUE(p.warnings.empty()) << p.warnings[0].message;
}

TEST(TcRangeInference, UnusedVariableNeedsAWhereClause) {
    std::string error = errorOf("def f(float(N) A) -> B {\n"
                                "    B(i) = A(0)\n"
                                "}\n");
    EXPECT_NE(error.find("cannot infer the range of 'i': no tensor index uses it"),
              std::string::npos)
        << error;
}

} // namespace
} // namespace bs::tc
