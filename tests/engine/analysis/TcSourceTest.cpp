// A `.tc` file as a program (analysis/TcSource.h) and the TC definitions a script builds, kept
// in its Program for the side-by-side ranges (issue 8, item 2).

#include "analysis/TcSource.h"

#include <gtest/gtest.h>

namespace bs {
namespace {

const char* kMatmul = "def matmul(float(M, K) A, float(K, N) B) -> (C) {\n"
                      "    C(m, n) +=! A(m, r_k) * B(r_k, n)\n"
                      "}\n";

TEST(TcSource, RecognisesTcFileNames) {
    EXPECT_TRUE(isTcFileName("tc_matmul.tc"));
    EXPECT_TRUE(isTcFileName("/a/b.c/x.tc"));
    EXPECT_FALSE(isTcFileName("script.py"));
    EXPECT_FALSE(isTcFileName(".tc"));
    EXPECT_FALSE(isTcFileName("x.tcc"));
}

TEST(TcSource, ProgramIsTheDefaultScheduleWithItsDefinition) {
    Program p = tcSourceProgram(kMatmul, "mm.tc");
    ASSERT_TRUE(p.defined());
    std::vector<std::string> args;
    for (const Tensor& t : p.args)
        args.push_back(t.name());
    EXPECT_EQ(args, (std::vector<std::string>{"A", "B", "C"}));
    ASSERT_EQ(p.tcPrograms.size(), 1u);
    EXPECT_EQ(p.tcPrograms[0]->name, "matmul");
    EXPECT_TRUE(p.tcPrograms[0]->statements[0].op.same_as(p.schedule.outputs()[0]));
}

TEST(TcSource, ErrorIsLocatedAtTheTcLine) {
    try {
        tcSourceProgram("def f(float(N) A) -> (B) {\n    B(i) = A(S(0) * i)\n}\n", "bad.tc");
        FAIL() << "no error";
    } catch (const UserError& e) {
        EXPECT_EQ(e.diagnostic().location.file, "bad.tc");
        EXPECT_EQ(e.diagnostic().location.line, 2);
    }
}

TEST(ProgramRecorder, CarriesTheTcDefinitionsOfTheScript) {
    ProgramRecorder recorder;
    auto built = std::make_shared<const tc::TcProgram>(tc::buildTc(kMatmul));
    recorder.noteTc(built);
    EXPECT_FALSE(recorder.program().defined()) << "a TC definition alone is no program";
    recorder.noteSchedule(tc::defaultSchedule(*built));
    ASSERT_EQ(recorder.program().tcPrograms.size(), 1u);
    EXPECT_EQ(recorder.program().tcPrograms[0], built);
    recorder.reset();
    recorder.noteSchedule(tc::defaultSchedule(*built));
    EXPECT_TRUE(recorder.program().tcPrograms.empty());
}

} // namespace
} // namespace bs
