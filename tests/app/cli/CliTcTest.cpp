// `.tc` files on the command line (issue 8, items 1-2): every analysis command takes a Tensor
// Comprehensions file as it takes a script (its default schedule, sizes symbolic), `script`
// prints the ranges TC inferred, and TC's errors and warnings are located lines on stderr.

#include "CliRun.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace {

using bs::test::CommandResult;
using bs::test::runCli;

const std::string kMatmul = "'" BOUNDSCOPE_EXAMPLES "/tc_matmul.tc'";

size_t lineCount(const std::string& text) {
    return size_t(std::count(text.begin(), text.end(), '\n'));
}

TEST(CliTc, ScriptPrintsTheInferredRangesPerStatement) {
    CommandResult r = runCli("script " + kMatmul);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(r.out, "C(m, n) +=! A(m, r_k) * B(r_k, n)\n"
                     "    0 <= m < M    (A(m, r_k))\n"
                     "    0 <= n < N    (B(r_k, n))\n"
                     "    0 <= r_k < K    (A(m, r_k), B(r_k, n))\n");
}

TEST(CliTc, BoundsShowsInferBoundOnTheDefaultSchedule) {
    CommandResult r = runCli("bounds " + kMatmul);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_NE(r.out.find("C      root  m     0    M\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("C      leaf  r_k   0    K\n"), std::string::npos) << r.out;
}

TEST(CliTc, LowerAllocAndTraceTakeATcFile) {
    CommandResult lower = runCli("lower " + kMatmul);
    EXPECT_EQ(lower.exitCode, 0) << lower.err;
    EXPECT_NE(lower.out.find("for (r_k, 0, K) {"), std::string::npos) << lower.out;
    CommandResult alloc = runCli("alloc " + kMatmul);
    EXPECT_EQ(alloc.exitCode, 0) << alloc.err;
    EXPECT_NE(alloc.out.find("C"), std::string::npos) << alloc.out;
    CommandResult trace = runCli("trace " + kMatmul + " --json");
    EXPECT_EQ(trace.exitCode, 0) << trace.err;
    EXPECT_NE(trace.out.find("\"stage\": \"C\""), std::string::npos) << trace.out;
}

TEST(CliTc, SyntaxErrorIsOneLocatedLine) {
    for (const char* command : {"script", "bounds", "lower", "alloc", "trace"}) {
        CommandResult r = runCli(std::string(command) + " tc_syntax_error.tc");
        EXPECT_EQ(r.exitCode, 1) << command;
        EXPECT_EQ(r.out, "") << command;
        EXPECT_EQ(r.err, "tc_syntax_error.tc:4: error: col 1: expected an expression, got '}'\n")
            << command;
    }
}

TEST(CliTc, UnresolvableRangeNamesTheVariableAndTheClause) {
    for (const char* command : {"script", "bounds"}) {
        CommandResult r = runCli(std::string(command) + " tc_dynamic_stride.tc");
        EXPECT_EQ(r.exitCode, 1) << command;
        EXPECT_EQ(lineCount(r.err), 1u) << r.err;
        EXPECT_EQ(r.err.rfind("tc_dynamic_stride.tc:3: error: col 7: cannot infer the range of "
                              "'i'",
                              0),
                  0u)
            << r.err;
        EXPECT_NE(r.err.find("add a clause 'where i in LB:UB'"), std::string::npos) << r.err;
    }
}

TEST(CliTc, PreconditionWarningGoesToStderr) {
    const std::string warning = "tc_precondition.tc:3: warning: col 22: unchecked precondition: "
                                "'i + j' in C(i + j) takes values in [0, N + M - 2], which must "
                                "lie within dimension 0 of C (size P)\n";
    CommandResult bounds = runCli("bounds tc_precondition.tc");
    EXPECT_EQ(bounds.exitCode, 0) << bounds.err;
    EXPECT_EQ(bounds.err, warning);
    EXPECT_EQ(bounds.out.find("warning"), std::string::npos) << bounds.out;
    CommandResult script = runCli("script tc_precondition.tc");
    EXPECT_EQ(script.exitCode, 0) << script.err;
    EXPECT_EQ(script.err, warning);
    EXPECT_EQ(script.out, "A(i, j) = (B(i) * C(i + j)) * D(j)\n"
                          "    0 <= i < N    (B(i))\n"
                          "    0 <= j < M    (D(j))\n");
}

TEST(CliTc, MissingTcFileIsAUsageError) {
    CommandResult r = runCli("script missing.tc");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.err, "boundscope: error: cannot open 'missing.tc': No such file or directory\n");
    EXPECT_EQ(runCli("bounds missing.tc").exitCode, 2);
}

} // namespace
