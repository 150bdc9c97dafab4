// Issue 13 as a user runs it from the command line: `boundscope steps` (golden step lists of the
// seed's Ex. 2, Ex. 6 and the fuse/split example), `lower --provenance`, schedules that fail
// (the message at the script line, with a fix that works), programs with free scalars through
// every command, and the rule set's new name.
#include "CliRun.h"

#include <gtest/gtest.h>

#include <regex>
#include <sstream>

namespace {

using bs::test::CommandResult;
using bs::test::readAll;
using bs::test::runCli;

std::string example(const std::string& name) { return "'" BOUNDSCOPE_EXAMPLES "/" + name + "'"; }

std::string golden(const std::string& name) { return readAll(BOUNDSCOPE_CLI_GOLDEN "/" + name); }

/// `#12 pass-up (fuse-one-row) [B] line 15` lines only: the order, phases, rules and stages.
std::string headers(const std::string& steps) {
    std::istringstream in(steps);
    std::string line, out;
    while (std::getline(in, line))
        if (!line.empty() && line[0] == '#')
            out += line + "\n";
    return out;
}

/// The lines of `text` that contain `needle`.
std::vector<std::string> linesWith(const std::string& text, const std::string& needle) {
    std::istringstream in(text);
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line);)
        if (line.find(needle) != std::string::npos)
            out.push_back(line);
    return out;
}

} // namespace

#ifdef BOUNDSCOPE_WITH_PYTHON

TEST(CliSteps, Ex2MatchesTheGoldenStepList) {
    CommandResult r = runCli("steps " + example("ex2_attach_inner.py"));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out, golden("steps_ex2.txt"));
}

TEST(CliSteps, Ex6MatchesTheGoldenStepList) {
    CommandResult r = runCli("steps " + example("ex6_shared_scope.py"));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out, golden("steps_ex6.txt"));
}

TEST(CliSteps, FuseSplitMatchesTheGoldenStepListUnderBothRules) {
    CommandResult tvm = runCli("steps " + example("fuse_split_attach.py"));
    ASSERT_EQ(tvm.exitCode, 0) << tvm.err;
    EXPECT_EQ(tvm.out, golden("steps_fuse_split_tvm.txt"));
    CommandResult seed = runCli("steps --rules tvm-0.5 " + example("fuse_split_attach.py"));
    ASSERT_EQ(seed.exitCode, 0) << seed.err;
    EXPECT_EQ(headers(seed.out), headers(golden("steps_fuse_split_tvm05.txt")));
    EXPECT_EQ(seed.out, golden("steps_fuse_split_tvm05.txt"));
}

TEST(CliSteps, JsonHasTheDocumentedKeys) {
    CommandResult r = runCli("steps --json " + example("fuse_split_attach.py"));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    for (const char* key :
         {"\"rules\": \"tvm\"", "\"steps\": [", "\"id\": 0", "\"phase\": \"pass-up\"",
          "\"rule\": \"fuse-one-row\"", "\"stage\": \"B\"", "\"consumer\": \"C\"",
          "\"relation\": \"fuse(outer=i, inner=j, fused=i.j.fused)\"", "\"itervars\"", "\"tensor\"",
          "\"axis\"", "\"inputs\"", "\"outputs\"", "\"text\"", "\"line\": 15", "\"from\"",
          "\"phase\": \"allocate\""})
        EXPECT_NE(r.out.find(key), std::string::npos) << key;
}

TEST(CliSteps, ProvenanceEndsEveryLoopGuardAndAllocateLine) {
    for (const char* file : {"ex6_shared_scope.py", "fuse_split_attach.py", "split_remainder.py",
                             "ex5_split_attach.py"}) {
        CommandResult r = runCli("lower --provenance " + example(file));
        ASSERT_EQ(r.exitCode, 0) << file << r.err;
        for (const char* what : {"for (", "allocate ", "if (likely(", "thread_extent"})
            for (const std::string& line : linesWith(r.out, what))
                EXPECT_NE(line.find("  // step "), std::string::npos) << file << ": " << line;
    }
}

TEST(CliSteps, TheEightOfTheFuseExamplesAllocateIsTheAllocateStep) {
    CommandResult r = runCli("lower --provenance " + example("fuse_split_attach.py"));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    std::vector<std::string> allocate = linesWith(r.out, "allocate B[int32 * 8]");
    ASSERT_EQ(allocate.size(), 1u) << r.out;
    std::smatch m;
    ASSERT_TRUE(
        std::regex_search(allocate[0], m, std::regex("// step ([0-9]+): Allocate B: 8 elements")))
        << allocate[0];
    CommandResult steps = runCli("steps " + example("fuse_split_attach.py"));
    EXPECT_NE(steps.out.find("#" + m[1].str() + " allocate (region) [B]"), std::string::npos)
        << steps.out;
    // Without --provenance the listing is TVM's, unchanged.
    CommandResult plain = runCli("lower " + example("fuse_split_attach.py"));
    EXPECT_EQ(plain.out.find("// step"), std::string::npos);
}

TEST(CliSteps, ComputeAtWithNoPathToItsProducerNamesTheLineAndAFix) {
    CommandResult r = runCli("lower attach_no_path.py");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(
        r.err,
        "attach_no_path.py:10: error: invalid schedule: 'C' is computed at loop 'i' of 'B', but "
        "its "
        "consumer 'R' does not run inside that loop, so no iteration of 'i' can compute what 'R' "
        "reads (TVM: cannot find the producer along the loop nest)\n"
        "attach_no_path.py:10: note: fix: s[C].compute_at(s[R], R.op.axis[0]) computes it inside "
        "the consumer that reads it\n");
}

TEST(CliSteps, AnIterVarOfAnotherStageNamesBothStagesAndTheLeaves) {
    CommandResult r = runCli("lower other_stage_itervar.py");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(
        r.err.find(
            "other_stage_itervar.py:8: error: split of 'i' in stage 'C': 'i' is not an iter var "
            "of stage 'C'; it is a loop of stage 'B'\n"),
        std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("other_stage_itervar.py:8: note: fix: use a loop of stage 'C', one of its "
                         "leaves (i, j)"),
              std::string::npos)
        << r.err;
}

TEST(CliSteps, AComputeAtGivenALoopOfTheAttachedStageSaysWhoseLoopItIs) {
    CommandResult r = runCli("lower other_stage_compute_at.py");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(
        r.err.find("other_stage_compute_at.py:8: error: compute_at of stage 'B' at 'i' of stage "
                   "'C': 'i' is not an iter var of stage 'C'; it is a loop of stage 'B'\n"),
        std::string::npos)
        << r.err;
}

TEST(CliSteps, AnOutputAttachedUnderItsCacheIsRefusedWithTheReverseAttachment) {
    CommandResult r = runCli("lower output_under_cache.py");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("output_under_cache.py:8: error: compute_at of stage 'C'"),
              std::string::npos)
        << r.err;
    // The fix names the cache as the script does (CL), not by its stage name (C.local).
    EXPECT_NE(
        r.err.find("output_under_cache.py:8: note: fix: attach the other way round, the stage that "
                   "computes for the output inside the output's loops: "
                   "s[CL].compute_at(s[C], C.op.axis[0])"),
        std::string::npos)
        << r.err;
}

TEST(CliSteps, AnAttachErrorFoundByTvmLowerIsTheComputeAtsWithAFixInTheScriptsNames) {
    CommandResult r = runCli("lower lowered_attach_no_path.py");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(
        r.err.rfind("lowered_attach_no_path.py:11: error: invalid schedule: 'C' is computed at "
                    "loop 'i' of 'B'",
                    0),
        0u)
        << r.err;
    EXPECT_NE(r.err.find("lowered_attach_no_path.py:11: note: fix: sch[Cst].compute_at(sch[R], "
                         "R.op.axis[0])"),
              std::string::npos)
        << r.err;
}

TEST(CliSteps, AMisspeltScopeIsRefusedAtItsLineWithTheScopeMeant) {
    CommandResult r = runCli("lower bad_scope.py");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("bad_scope.py:8: error: unknown storage scope 'sharde'"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("bad_scope.py:8: note: fix: s[B].set_scope(\"shared\")"),
              std::string::npos)
        << r.err;
}

TEST(CliSteps, AFreeScalarSplitFactorGoesThroughEveryCommand) {
    CommandResult lower = runCli("lower free_scalar.py");
    ASSERT_EQ(lower.exitCode, 0) << lower.err;
    EXPECT_NE(lower.out.find("allocate B[float32 * f]"), std::string::npos) << lower.out;
    CommandResult bounds = runCli("bounds free_scalar.py");
    ASSERT_EQ(bounds.exitCode, 0) << bounds.err;
    EXPECT_NE(bounds.out.find("floordiv((f + 63), f)  (depends on f)"), std::string::npos)
        << bounds.out;
    for (const char* command :
         {"steps", "steps --json", "trace --json", "alloc", "alloc --json",
          "graph --kind dag --format dot -o free_scalar_dag.dot",
          "graph --kind itervar --stage C --format dot -o free_scalar_iv.dot"}) {
        CommandResult r = runCli(std::string(command) + " free_scalar.py");
        EXPECT_EQ(r.exitCode, 0) << command << ": " << r.err;
    }
    std::remove(BOUNDSCOPE_CLI_SCRIPTS "/free_scalar_dag.dot");
    std::remove(BOUNDSCOPE_CLI_SCRIPTS "/free_scalar_iv.dot");
    // The allocation report says what its ? and - stand for.
    CommandResult alloc = runCli("alloc free_scalar.py");
    EXPECT_NE(
        alloc.out.find("\n?: not one number: it depends on a symbolic size (a te.var shape or "
                       "factor)"),
        std::string::npos)
        << alloc.out;
    EXPECT_NE(alloc.out.find("\n-: not measured: the interpreter runs only programs whose sizes "
                             "are all known"),
              std::string::npos)
        << alloc.out;
    CommandResult emulate = runCli("run --target emulate --check --size f=5 free_scalar.py");
    EXPECT_EQ(emulate.exitCode, 0) << emulate.err;
    EXPECT_NE(emulate.out.find("check      passed"), std::string::npos) << emulate.out;
#ifdef BOUNDSCOPE_WITH_LLVM
    CommandResult cpu = runCli("run --target cpu --check --size f=8 free_scalar.py");
    EXPECT_EQ(cpu.exitCode, 0) << cpu.err;
    EXPECT_NE(cpu.out.find("check      passed"), std::string::npos) << cpu.out;
    EXPECT_EQ(runCli("codegen --target llvm free_scalar.py").exitCode, 0);
#endif
}

TEST(CliSteps, ScalarArgumentsOfLowerAreKept) {
    CommandResult script = runCli("script free_scalar_args.py");
    ASSERT_EQ(script.exitCode, 0) << script.err;
    EXPECT_NE(script.out.find("for (i.inner, 0, m)"), std::string::npos) << script.out;
    CommandResult bounds = runCli("bounds free_scalar_args.py");
    EXPECT_EQ(bounds.exitCode, 0) << bounds.err;
}

TEST(CliSteps, TheOldNameOfTheSeedRulesStillWorksAndSaysSo) {
    CommandResult r = runCli("lower --rules tvm-0.6 " + example("fuse_split_attach.py"));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("allocate B[int32 * 4096]"), std::string::npos);
    EXPECT_NE(r.err.find("note: 'tvm-0.6' is the old name of the rule set 'tvm-0.5'"),
              std::string::npos)
        << r.err;
    CommandResult now = runCli("lower --rules tvm-0.5 " + example("fuse_split_attach.py"));
    EXPECT_EQ(now.out, r.out);
    EXPECT_EQ(now.err, "");
}

#endif // BOUNDSCOPE_WITH_PYTHON
