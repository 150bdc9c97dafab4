// Two analyses side by side (analysis/AnalysisDiff.h): the line alignment exactly.
#include "analysis/AnalysisDiff.h"

#include "AllocReportTestUtil.h"
#include "analysis/Analysis.h"

#include <gtest/gtest.h>

namespace bs {
namespace {

/// `=a|a ~b|x <c| >|y` for each pair.
std::string marks(const std::vector<LinePair>& pairs) {
    std::string out;
    for (const LinePair& p : pairs)
        out += (out.empty() ? "" : " ") + std::string(1, diffMarkChar(p.mark)) + p.a + "|" + p.b;
    return out;
}

TEST(AnalysisDiff, StagesOfOneNamePairWithTheirCounterparts) {
    // te.compute's default name twice: B (four rows inside C's outer loop) and C, which the
    // schedule names `compute_1`. Compared with itself, nothing differs.
    const test::TwoComputes two;
    const Analysis analysis = analyze(Program{two.s, {two.A, two.C}, true});
    ASSERT_TRUE(analysis.ok()) << analysis.error->message;
    const AllocReport report = two.report();
    const AnalysisDiff diff = diffAnalyses(analysis, analysis, "a", "b", &report, &report);
    ASSERT_EQ(diff.allocations.size(), 2u);
    for (const AllocationPair& pair : diff.allocations)
        EXPECT_FALSE(pair.changed())
            << pair.buffer << ": " << pair.a.value_or("-") << " / " << pair.b.value_or("-");
    for (const BoundsPair& row : diff.bounds)
        EXPECT_FALSE(row.changed()) << row.stage << " " << row.role << " " << row.name;
}

TEST(AnalysisDiff, AnInsertedLineShiftsNothingAfterIt) {
    EXPECT_EQ(marks(alignLines({"a", "b", "c"}, {"a", "x", "b", "c"})), "=a|a >|x =b|b =c|c");
    EXPECT_EQ(marks(alignLines({"a", "b", "c", "d"}, {"a", "c", "d"})), "=a|a <b| =c|c =d|d");
}

TEST(AnalysisDiff, LinesBetweenCommonOnesPairUpAsChanged) {
    EXPECT_EQ(marks(alignLines({"a", "b1", "b2", "c"}, {"a", "x", "c"})), "=a|a ~b1|x <b2| =c|c");
    EXPECT_EQ(marks(alignLines({}, {"x"})), ">|x");
    EXPECT_EQ(marks(alignLines({"x"}, {})), "<x|");
    const std::vector<LinePair> same = alignLines({"a", "b"}, {"a", "b"});
    ASSERT_EQ(same.size(), 2u);
    EXPECT_EQ(same[1].lineA, 2);
    EXPECT_EQ(same[1].lineB, 2);
}

TEST(AnalysisDiff, LongListingsAlignByPosition) {
    // Past their common prefix and suffix, 4998 lines on each side: too many to align by LCS.
    std::vector<std::string> a(5000, "x"), b(5000, "x");
    a[1] = "A";
    a[4998] = "Z";
    b[1] = "B";
    b[4998] = "Y";
    const std::vector<LinePair> pairs = alignLines(a, b);
    ASSERT_EQ(pairs.size(), 5000u);
    EXPECT_EQ(pairs[1].mark, DiffMark::Changed);
    EXPECT_EQ(pairs[2].mark, DiffMark::Same);
    EXPECT_EQ(pairs[4998].a, "Z");
    EXPECT_EQ(pairs[4998].b, "Y");
}

} // namespace
} // namespace bs
