// TC's input-driven ranges next to InferBound's consumer-driven ones (issue 8, item 2): each
// statement variable finds its IterVar in the schedule, InferBound's range is put back into
// the variable's coordinates, and the two are compared.

#include "tc/RangeComparison.h"

#include <gtest/gtest.h>

namespace bs::tc {
namespace {

/// The rows for `program` scheduled as `sch`, with InferBound's TVM rules.
std::vector<RangeComparison> rowsOf(const TcProgram& program, const Schedule& sch) {
    Schedule normalized = sch.normalize();
    return compareRanges(program, normalized, inferBound(normalized));
}

/// `stage.variable: TC | InferBound | agreement`, one string per row, for readable failures.
std::vector<std::string> summary(const std::vector<RangeComparison>& rows) {
    std::vector<std::string> out;
    for (const RangeComparison& r : rows)
        out.push_back(r.stage + "." + r.variable + ": " + r.tcRange + " | " + r.inferBoundRange +
                      " | " + rangeAgreementName(r.agreement));
    return out;
}

using Rows = std::vector<std::string>;

const char* kMatmul = "def matmul(float(M, K) A, float(K, N) B) -> (C) {\n"
                      "    C(m, n) +=! A(m, r_k) * B(r_k, n)\n"
                      "}\n";

TEST(RangeComparison, DefaultScheduleOfMatmulAgreesEverywhere) {
    TcProgram p = buildTc(kMatmul);
    std::vector<RangeComparison> rows = rowsOf(p, defaultSchedule(p));
    EXPECT_EQ(summary(rows),
              (Rows{"C.m: 0 <= m < M | 0 <= m < M | equal", "C.n: 0 <= n < N | 0 <= n < N | equal",
                    "C.r_k: 0 <= r_k < K | 0 <= r_k < K | equal"}));
    EXPECT_EQ(rows[0].statement, "C(m, n) +=! A(m, r_k) * B(r_k, n)");
    EXPECT_EQ(rows[0].line, 2);
    EXPECT_EQ(rows[2].iterVar, "r_k");
}

TEST(RangeComparison, ShiftedAxisIsComparedInTheVariablesCoordinates) {
    // Seed 003, "Inverted indexing": axis 0 of A holds i = 11 - I, so InferBound's [0, I) of
    // the axis is 11 - I <= i < 11.
    TcProgram p = buildTc("def reverted(float(I) B) -> (A) {\n    A(i) = B(10 - i)\n}\n");
    EXPECT_EQ(summary(rowsOf(p, defaultSchedule(p))),
              (Rows{"A.i: 11 - I <= i < 11 | 11 - I <= i < 11 | equal"}));
}

TEST(RangeComparison, AttachedProducerIsNarrowerThanTcsRange) {
    // InferBound is consumer-driven: inside a loop of 8 iterations of D, only 8 values of A are
    // needed, where TC gave A every index B allows.
    TcProgram p = buildTc("def two(float(N) B) -> (A, D) {\n"
                          "    A(i) = B(i) * 2\n"
                          "    D(j) = A(j) + 1\n"
                          "}\n",
                          {{{"N", 64}}, ""});
    Schedule s = createSchedule(p.outputs[1].op);
    auto [jo, ji] = s[p.outputs[1]].split(p.outputs[1].op.as<ComputeOpNode>()->axis[0], 8);
    s[p.outputs[0]].computeAt(s[p.outputs[1]], jo);
    std::vector<RangeComparison> rows = rowsOf(p, s);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].tcRange, "0 <= i < 64");
    EXPECT_EQ(rows[0].inferBoundRange, "j.outer*8 <= i < j.outer*8 + 8");
    EXPECT_EQ(rows[0].agreement, RangeAgreement::Narrower);
    EXPECT_EQ(rows[1].agreement, RangeAgreement::Equal);
}

TEST(RangeComparison, InlinedStageIsNotCompared) {
    TcProgram p = buildTc("def two(float(N) B) -> (A, D) {\n"
                          "    A(i) = B(i) * 2\n"
                          "    D(j) = A(j) + 1\n"
                          "}\n");
    Schedule s = createSchedule(p.outputs[1].op);
    s[p.outputs[0]].computeInline();
    std::vector<RangeComparison> rows = rowsOf(p, s);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].agreement, RangeAgreement::NotCompared);
    EXPECT_EQ(rows[0].inferBoundRange, "inlined into its consumers: no loop");
    EXPECT_EQ(rows[1].agreement, RangeAgreement::Equal);
}

TEST(RangeComparison, AccumulatingReductionUsesItsReduceStage) {
    // `C(i) += ...` over k: the sum is its own stage C_red, whose reduce axis is k.
    TcProgram p = buildTc("def acc(float(N, K) A) -> (C) {\n"
                          "    C(i) = A(i, 0)\n"
                          "    C(i) += A(i, k)\n"
                          "}\n");
    EXPECT_EQ(
        summary(rowsOf(p, defaultSchedule(p))),
        (Rows{"C.i: 0 <= i < N | 0 <= i < N | equal", "C_1.i: 0 <= i < N | 0 <= i < N | equal",
              "C_red.k: 0 <= k < K | 0 <= k < K | equal"}));
}

TEST(RangeComparison, StatementsOfAnotherScheduleGiveNoRows) {
    TcProgram used = buildTc(kMatmul);
    TcProgram other = buildTc(kMatmul);
    EXPECT_TRUE(rowsOf(other, defaultSchedule(used)).empty());
}

TEST(RangeComparison, RangesTextListsEveryVariableWithItsOrigin) {
    TcProgram p = buildTc(kMatmul);
    EXPECT_EQ(rangesText(p), "C(m, n) +=! A(m, r_k) * B(r_k, n)\n"
                             "    0 <= m < M    (A(m, r_k))\n"
                             "    0 <= n < N    (B(r_k, n))\n"
                             "    0 <= r_k < K    (A(m, r_k), B(r_k, n))\n");
}

} // namespace
} // namespace bs::tc
