#include "analysis/Analysis.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "schedule/InferBoundTight.h"
#include "te/Compute.h"

#include <gtest/gtest.h>

using namespace bs;

namespace {
struct Chain {
    Tensor A = placeholder({8}, DataType::float32(), "A");
    Tensor B = compute(
        {8},
        [this](const std::vector<Var>& v) {
            return A({v[0]}) * makeConst(DataType::float32(), 2.0);
        },
        "B");
    Tensor C = compute(
        {8},
        [this](const std::vector<Var>& v) {
            return B({v[0]}) + makeConst(DataType::float32(), 1.0);
        },
        "C");
};
} // namespace

TEST(Program, DefaultArgumentsArePlaceholdersThenOutputs) {
    Chain c;
    Schedule s = createSchedule(c.C.op);
    std::vector<Tensor> args = defaultArguments(s);
    ASSERT_EQ(args.size(), 2u);
    EXPECT_EQ(args[0].name(), "A");
    EXPECT_EQ(args[1].name(), "C");
}

TEST(ProgramRecorder, TheLastScheduleIsCurrentUnlessOneIsShown) {
    Chain c;
    ProgramRecorder rec;
    EXPECT_FALSE(rec.program().defined());
    Schedule s1 = createSchedule(c.B.op);
    Schedule s2 = createSchedule(c.C.op);
    rec.noteSchedule(s1);
    rec.noteSchedule(s2);
    EXPECT_TRUE(rec.program().schedule.same_as(s2));
    rec.show(s1, {c.A, c.B});
    EXPECT_TRUE(rec.program().schedule.same_as(s1));
    EXPECT_TRUE(rec.program().argsGiven);
    rec.reset();
    EXPECT_FALSE(rec.program().defined());
}

TEST(Analysis, LowersAProgramAndKeepsEveryPass) {
    Chain c;
    Schedule s = createSchedule(c.C.op);
    Analysis a = analyze(Program{s, {c.A, c.C}, true});
    ASSERT_TRUE(a.ok()) << a.error->message;
    EXPECT_NE(toString(a.lowered->func.after(LowerPass::Final)).find("allocate B[float32 * 8]"),
              std::string::npos);
}

TEST(Analysis, ReportsAnErrorInsteadOfThrowing) {
    Analysis none = analyze(Program{});
    ASSERT_TRUE(none.error.has_value());
    EXPECT_EQ(none.error->message, "the script creates no schedule (call te.create_schedule)");

    Chain c;
    Schedule s = createSchedule(c.C.op);
    Analysis tight =
        analyze(Program{s, {c.A, c.C}, true}, AnalysisOptions{BoundRules::Tvm05, false});
    EXPECT_TRUE(tight.ok());
}

TEST(Analysis, TightRulesWorkOrSayIslIsMissing) {
    Chain c;
    Schedule s = createSchedule(c.C.op);
    s[c.B].computeAt(s[c.C], s[c.C].split(c.C.op.as<ComputeOpNode>()->axis[0], 3).first);
    Analysis a = analyze(Program{s, {c.A, c.C}, true}, AnalysisOptions{BoundRules::Tight, false});
    if (!hasIsl()) {
        ASSERT_TRUE(a.error.has_value());
        EXPECT_EQ(a.error->message,
                  "the tight and compact rule sets need ISL, which this build lacks");
        return;
    }
    ASSERT_TRUE(a.ok()) << a.error->message;
    // 8 split by 3: the last iteration computes the 2 elements left, without a bound check.
    std::string ir = toString(a.lowered->func.after(LowerPass::Final));
    EXPECT_NE(ir.find("allocate B[float32 * 3]"), std::string::npos) << ir;
    EXPECT_NE(ir.find("min(3, (8 - (i.outer*3)))"), std::string::npos) << ir;
    EXPECT_EQ(ir.find("likely"), std::string::npos) << ir;
}

TEST(Analysis, AFixMovesItsOwnStageWhenTheScriptGaveTwoStagesOneName) {
    // C computed at B's row loop, read by R, which does not run there: the fix computes C inside
    // R. With te.compute's default name for both B and C, the fix was tried on B, the first of
    // the name; the schedule now names C `compute_1`.
    for (const char* name : {"C", "compute"}) {
        Tensor A = placeholder({16, 12}, DataType::float32(), "A");
        Tensor B = compute(
            {16, 12},
            [&](const std::vector<Var>& v) {
                return A({v[0], v[1]}) * makeConst(DataType::float32(), 2.0);
            },
            name == std::string("C") ? "B" : "compute");
        Tensor C = compute(
            {16, 12},
            [&](const std::vector<Var>& v) {
                return B({v[0], v[1]}) + makeConst(DataType::float32(), 1.0);
            },
            name);
        Tensor R = compute(
            {16, 12},
            [&](const std::vector<Var>& v) {
                return C({v[0], v[1]}) * makeConst(DataType::float32(), 3.0);
            },
            "R");
        Schedule s = createSchedule(R.op);
        s[C].computeAt(s[B], B.op.as<ComputeOpNode>()->axis[0]);
        Analysis a = analyze(Program{s, {A, R}, true});
        ASSERT_TRUE(a.error.has_value()) << name;
        EXPECT_EQ(a.error->subject.kind, "attach-no-path") << name;
        const std::string moved = name == std::string("C") ? "C" : "compute_1";
        EXPECT_EQ(a.error->subject.stage, moved);
        EXPECT_EQ(a.error->fix.rfind("s[" + moved + "].compute_at(s[R], ", 0), 0u) << a.error->fix;
    }
}
