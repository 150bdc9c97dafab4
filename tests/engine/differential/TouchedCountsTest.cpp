// The allocation report's touched counts from the access sets (issue 19, item 3): a program too
// large for the interpreter has each buffer's counts computed exactly from its writes and its
// consumers' reads (analyzeStageTouched). On random schedules small enough to run whole, the
// counts from the sets equal the interpreter's, buffer by buffer.
#include "RandomSchedule.h"

#include "analysis/AllocReport.h"
#include "schedule/InferBoundTight.h"

#include <cstdlib>
#include <iostream>

#include <gtest/gtest.h>

using namespace bs;
using namespace bs::test;

namespace {

const int kCases = [] {
    const char* value = std::getenv("BS_TOUCHED_CASES");
    return value ? std::atoi(value) : 240;
}();

const BufferReport* find(const AllocReport& r, const std::string& name) {
    for (const BufferReport& b : r.buffers)
        if (b.name == name)
            return &b;
    return nullptr;
}

} // namespace

TEST(TouchedCounts, TheAccessSetsCountWhatTheInterpreterMeasures) {
    if (!hasIsl())
        GTEST_SKIP() << "built without ISL";
    std::vector<DiffProgram> programs = makeDiffPrograms();
    int compared = 0, counted = 0, reports = 0;
    for (int c = 0; c < kCases; ++c) {
        const DiffProgram& p = programs[size_t(c) % programs.size()];
        RandomScheduleCase sc = RandomScheduler(p, 20261128 + uint64_t(c)).make();
        AllocReportOptions whole;
        whole.args = p.args;
        AllocReportOptions tooLarge = whole;
        tooLarge.interpreterBudget = 1; // every program is past it: the sets count
        AllocReport run, sets;
        try {
            run = allocReport(sc.schedule, whole);
            sets = allocReport(sc.schedule, tooLarge);
        } catch (const UserError&) {
            continue; // a schedule InferBound refuses has no report
        }
        ++reports;
        ASSERT_EQ(run.touchedSampleFactor, 0.0) << "the programs are small enough to run whole";
        for (const BufferReport& b : sets.buffers) {
            if (!b.touchedCounted)
                continue;
            ++counted;
            EXPECT_TRUE(b.touchedPeak && b.touchedTotal);
            const BufferReport* measured = find(run, b.name);
            ASSERT_NE(measured, nullptr) << b.name;
            if (!measured->touchedPeak)
                continue; // the interpreter could not run it
            ++compared;
            EXPECT_FALSE(measured->touchedCounted);
            EXPECT_EQ(b.touchedPeak, measured->touchedPeak)
                << "case " << c << " (" << p.name << "), buffer " << b.name << " (peak)\n"
                << sc.python(p);
            EXPECT_EQ(b.touchedTotal, measured->touchedTotal)
                << "case " << c << " (" << p.name << "), buffer " << b.name << " (total)\n"
                << sc.python(p);
        }
    }
    std::cout << reports << " reports of " << kCases << " random schedules; " << counted
              << " buffers counted from their access sets, " << compared
              << " compared with the interpreter\n";
    // Most buffers of CPU schedules are quasi-affine and thread-free: a change that stopped
    // counting them would test nothing.
    EXPECT_GT(compared, kCases / 2);
}
