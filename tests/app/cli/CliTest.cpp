// The `boundscope` command as a user runs it (DESIGN.md, "Command line contract"): each test
// starts the built executable in the folder of the test scripts and checks its exit code,
// stdout and stderr.

#include "CliRun.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

namespace {

using bs::test::CommandResult;
using bs::test::readAll;
using bs::test::runCli;

} // namespace

TEST(Cli, HelpListsTheSubcommands) {
    CommandResult r = runCli("--help");
    EXPECT_EQ(r.exitCode, 0);
    for (const char* name :
         {"lower", "bounds", "steps", "trace", "alloc", "graph", "codegen", "run", "script"})
        EXPECT_NE(r.out.find(name), std::string::npos) << name;
}

TEST(Cli, NoSubcommandIsAUsageError) {
    CommandResult r = runCli("");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.err, "boundscope: error: A subcommand is required\n");
}

TEST(Cli, InvalidOptionValueIsAUsageError) {
    CommandResult r = runCli("bounds good.py --rules fastest");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.err,
              "boundscope: error: --rules: fastest not in {tvm,tvm-0.5,tight,compact,tvm-0.6}\n");
}

TEST(Cli, MissingFileIsAUsageError) {
#if !BOUNDSCOPE_WITH_PYTHON
    GTEST_SKIP() << "built without Python: `script` and `lower` of a .py say so first";
#endif
    CommandResult r = runCli("script missing.py");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.err, "boundscope: error: cannot open 'missing.py': No such file or directory\n");
    EXPECT_EQ(runCli("lower missing.py").exitCode, 2);
}

TEST(Cli, GraphNeedsItsRequiredOptions) {
    CommandResult r = runCli("graph good.py --format svg -o out.svg");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.err, "boundscope: error: --kind is required\n");
}

#ifdef BOUNDSCOPE_WITH_PYTHON

TEST(Cli, AnExpressionFiftyThousandLevelsDeepIsLowered) {
    CommandResult r = runCli("lower deep_expression.py");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("C[i] = ((((("), std::string::npos) << r.out.substr(0, 200);
}

TEST(Cli, ScriptPrintsItsOutputAndExitsZero) {
    CommandResult r = runCli("script good.py");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out, "index: floordiv(((i*8) + 7), 8)\n");
    EXPECT_EQ(r.err, "note\n");
}

TEST(Cli, ScriptSyntaxErrorNamesItsLine) {
    CommandResult r = runCli("script syntax_error.py");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(r.err, "syntax_error.py:4: error: SyntaxError: expected ':'\n");
}

TEST(Cli, ScriptNameErrorNamesItsLine) {
    CommandResult r = runCli("script name_error.py");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(r.err, "name_error.py:5: error: NameError: name 'undefined_name' is not defined\n");
}

TEST(Cli, UncaughtEngineErrorNamesTheCallingLine) {
    CommandResult r = runCli("script engine_error.py");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(r.out, "before\n");
    EXPECT_EQ(r.err, "engine_error.py:7: error: floor division by zero\n");
}

TEST(Cli, ScriptTimeoutInterruptsIt) {
    CommandResult r = runCli("script --timeout 0.3 forever.py");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(r.err, "forever.py:2: error: timed out after 300 ms\n"
                     "boundscope: note: --timeout SECONDS sets the limit (0: none); the default is "
                     "300 s\n");
}

TEST(Cli, ATimeoutIsANumberOfSecondsTheWatchdogCanWait) {
    // NaN passed the old check (and made the limit undefined), a huge one overflowed the
    // watchdog's wait and stopped every command at once, and one under a millisecond was
    // rounded down to 0, no limit.
    for (const char* bad : {"nan", "1e12", "-1", "abc"}) {
        CommandResult r = runCli(std::string("lower --timeout ") + bad + " forever.py");
        EXPECT_EQ(r.exitCode, 2) << bad;
        EXPECT_EQ(r.err, std::string("boundscope: error: --timeout: seconds from 0 (no limit) to "
                                     "31536000, got '") +
                             bad + "'\n");
    }
    CommandResult tiny = runCli("lower --timeout 0.0001 forever.py");
    EXPECT_EQ(tiny.exitCode, 1);
    EXPECT_NE(tiny.err.find("forever.py:2: error: timed out after 1 ms"), std::string::npos)
        << tiny.err;
}

TEST(Cli, ScriptGetsItsArgumentsAndOurTvm) {
    // A real TVM on PYTHONPATH must not shadow Boundscope's package.
    auto fake = std::filesystem::temp_directory_path() / "bs_cli_fake_tvm";
    std::filesystem::create_directories(fake / "tvm");
    std::ofstream(fake / "tvm" / "__init__.py") << "raise ImportError('the real tvm')\n";
    CommandResult r = runCli("script args.py -- 8 --fast", "PYTHONPATH='" + fake.string() + "'");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out, "['8', '--fast'] True\n");
    std::filesystem::remove_all(fake);
}

TEST(Cli, DefaultExampleRuns) {
    CommandResult r = runCli("script '" BOUNDSCOPE_EXAMPLES "/default.py'");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_FALSE(r.out.empty());
}

const std::string kEx6 = "'" BOUNDSCOPE_EXAMPLES "/ex6_shared_scope.py'";

TEST(Cli, LowerPrintsTheSeedsEx6Listing) {
    CommandResult r = runCli("lower " + kEx6 + " --after schedule_ops");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("realize C([0, 100], [0, 200]) {"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("realize B([blockIdx.x, 1], [0, 200]) {"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("// attr [iter_var(threadIdx.x, , threadIdx.x)] thread_extent = 200"),
              std::string::npos);
    CommandResult final = runCli("lower " + kEx6);
    EXPECT_NE(final.out.find("allocate B[float32 * 200]"), std::string::npos) << final.out;
}

TEST(Cli, LowerRulesChangeTheAllocation) {
    std::string fuse = "'" BOUNDSCOPE_EXAMPLES "/fuse_split_attach.py'";
    EXPECT_NE(runCli("lower " + fuse + " --rules tvm-0.5 --after simplify")
                  .out.find("allocate B[int32 * 4096]"),
              std::string::npos);
    EXPECT_NE(runCli("lower " + fuse + " --after simplify").out.find("allocate B[int32 * 8]"),
              std::string::npos);
}

TEST(Cli, LowerKeepTrivialLoopsKeepsExtentOneLoops) {
    std::string ex4 = "'" BOUNDSCOPE_EXAMPLES "/ex4_attach_path.py'";
    CommandResult plain = runCli("lower " + ex4 + " --after schedule_ops");
    CommandResult kept = runCli("lower " + ex4 + " --after schedule_ops --keep-trivial-loops");
    EXPECT_EQ(plain.exitCode, 0) << plain.err;
    EXPECT_EQ(plain.out.find("for (i, 0, 1)"), std::string::npos) << plain.out;
    EXPECT_NE(kept.out.find("for (i, 0, 1)"), std::string::npos) << kept.out;
}

TEST(Cli, BoundsTableHasEveryIterVarWithItsRole) {
    CommandResult r = runCli("bounds " + kEx6);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out.substr(0, r.out.find('\n')), "stage  role       name  min         extent");
    EXPECT_NE(r.out.find("B      root       i     blockIdx.x  1\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("C      root,leaf  j     0           200\n"), std::string::npos) << r.out;
}

TEST(Cli, BoundsListsTheLeavesInLoopOrder) {
    // After reorder(k.outer, x, k.inner, y) the leaves were listed k.outer, k.inner, x, y.
    CommandResult r = runCli("bounds reordered_leaves.py");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    std::vector<std::string> leaves;
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);) {
        std::istringstream cells(line);
        std::string stage, role, name;
        cells >> stage >> role >> name;
        if (role.find("leaf") != std::string::npos)
            leaves.push_back(name);
    }
    EXPECT_EQ(leaves, (std::vector<std::string>{"k.outer", "x", "k.inner", "y"})) << r.out;
}

TEST(Cli, BoundsJsonHasStableKeys) {
    CommandResult r = runCli("bounds " + kEx6 + " --json");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("\"rules\": \"tvm\""), std::string::npos);
    EXPECT_NE(
        r.out.find("\"stage\": \"B\",\n      \"role\": \"root\",\n      \"name\": \"i\",\n      "
                   "\"min\": \"blockIdx.x\",\n      \"extent\": \"1\""),
        std::string::npos)
        << r.out;
}

TEST(Cli, TraceJsonHasEveryStageInVisitOrder) {
    CommandResult r = runCli("trace " + kEx6 + " --json");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    size_t c = r.out.find("\"stage\": \"C\"");
    size_t b = r.out.find("\"stage\": \"B\"");
    size_t a = r.out.find("\"stage\": \"A\"");
    ASSERT_NE(c, std::string::npos) << r.out;
    EXPECT_LT(c, b);
    EXPECT_LT(b, a);
    EXPECT_NE(r.out.find("\"scope\": \"shared\""), std::string::npos);
}

TEST(Cli, GraphWritesDotAndLeavesNoFileOnError) {
    auto out = std::filesystem::temp_directory_path() / "bs_cli_dag.dot";
    std::filesystem::remove(out);
    CommandResult r =
        runCli("graph " + kEx6 + " --kind dag --format dot -o '" + out.string() + "'");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(readAll(out).rfind("digraph", 0), 0u);
    std::filesystem::remove(out);
    CommandResult bad =
        runCli("graph engine_error.py --kind dag --format dot -o '" + out.string() + "'");
    EXPECT_EQ(bad.exitCode, 1);
    EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(Cli, StagesOfTvmsDefaultNamesAreNamedApartEverywhere) {
    // Two placeholders and three computes left with TVM's default names. Their buffers printed
    // alike in the IR, and `--stage compute`, `--buffer compute` were refused as ambiguous.
    const CommandResult lowered = runCli("lower default_names.py");
    ASSERT_EQ(lowered.exitCode, 0) << lowered.err;
    EXPECT_NE(lowered.out.find("allocate compute_1[float32 * 128]"), std::string::npos)
        << lowered.out;
    EXPECT_NE(lowered.out.find("compute_1[((i*32) + j)] = (compute[cse_var_2] + "
                               "placeholder_1[cse_var_2])"),
              std::string::npos)
        << lowered.out;
    // The script sees the names the schedule gave (its output goes to stderr).
    EXPECT_NE(lowered.err.find("['placeholder', 'placeholder_1', 'compute', 'compute_1', "
                               "'compute_2']"),
              std::string::npos);
    const CommandResult heatmap = runCli("heatmap default_names.py --buffer compute_1");
    ASSERT_EQ(heatmap.exitCode, 0) << heatmap.err;
    EXPECT_EQ(heatmap.out.rfind("compute_1: 128 elements allocated under tvm (shape 4 32", 0), 0u)
        << heatmap.out;
    const auto dot = std::filesystem::temp_directory_path() / "bs_cli_default_names.dot";
    const CommandResult graph = runCli("graph default_names.py --kind itervar --stage compute_2 "
                                       "--format dot -o '" +
                                       dot.string() + "'");
    ASSERT_EQ(graph.exitCode, 0) << graph.err;
    EXPECT_NE(readAll(dot).find("IterVar relations of compute_2"), std::string::npos);
    std::filesystem::remove(dot);
}

TEST(Cli, ScriptWithoutAScheduleSaysSo) {
    CommandResult r = runCli("lower good.py");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("good.py: error:"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("schedule"), std::string::npos) << r.err;
}

// `run` and `codegen` (issue 6): the kernel of every example runs and passes its check, CPU
// schedules with the LLVM JIT, GPU schedules in the interpreter's emulation.

namespace {

/// Whether an example binds loops to GPU threads (a thread_axis and a bind).
bool isGpuExample(const std::filesystem::path& path) {
    std::string text = readAll(path);
    return text.find("thread_axis") != std::string::npos && text.find("bind(") != std::string::npos;
}

std::vector<std::filesystem::path> examples(bool gpu) {
    std::vector<std::filesystem::path> paths;
    for (const auto& entry : std::filesystem::directory_iterator(BOUNDSCOPE_EXAMPLES))
        if (entry.path().extension() == ".py" && isGpuExample(entry.path()) == gpu)
            paths.push_back(entry.path());
    std::sort(paths.begin(), paths.end());
    return paths;
}

std::string example(const char* name) {
    return std::string("'" BOUNDSCOPE_EXAMPLES "/") + name + "'";
}

} // namespace

#ifdef BOUNDSCOPE_WITH_LLVM
TEST(CliRun, EveryCpuExampleRunsAndPassesItsCheck) {
    std::vector<std::filesystem::path> paths = examples(false);
    EXPECT_GE(paths.size(), 15u);
    for (const auto& path : paths) {
        CommandResult r = runCli("run '" + path.string() + "' --check --repeat 1");
        EXPECT_EQ(r.exitCode, 0) << path << "\n" << r.out << r.err;
        EXPECT_NE(r.out.find("check      passed against "), std::string::npos) << path << r.out;
        EXPECT_NE(r.out.find("target     cpu: "), std::string::npos) << path << r.out;
    }
}

TEST(CliRun, PrintsTimingsAndLeavesTheCheckOutUnlessAsked) {
    CommandResult r = runCli("run " + example("matmul_naive.py") + " --repeat 3");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    for (const char* row : {"compile ", "runs       3\n", "best ", "median ", "spread ", "GFLOP/s ",
                            "GB/s ", "check      not run (add --check)\n"})
        EXPECT_NE(r.out.find(row), std::string::npos) << row << "\n" << r.out;
    // 256 x 256 x 256, a multiply and an add per iteration.
    EXPECT_NE(r.out.find("(33554432 flops executed per run)"), std::string::npos) << r.out;
}

TEST(CliRun, FlopsAreTheOnesTheKernelExecutes) {
    // Ex. 6 computes B at C's rows: 100 x 200 of B's 200 x 400 elements, one multiply each,
    // then C's 100 x 200 multiplies (issue 17, item 8: the declared shapes say 100000).
    CommandResult r =
        runCli("run " + example("ex6_shared_scope.py") + " --target emulate --repeat 1");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("(40000 flops executed per run; the definitions declare 100000)"),
              std::string::npos)
        << r.out;
}

TEST(CliRun, AFloatParameterIsRefusedNotGivenAnIntegersBits) {
    for (const char* target : {"cpu", "emulate"}) {
        CommandResult r = runCli(std::string("run float_scalar.py") +
                                 " --check --size alpha=2 --target " + target);
        EXPECT_EQ(r.exitCode, 1) << target << r.out;
        EXPECT_NE(r.err.find("float_scalar.py: error: 'alpha' is a float32 parameter of "),
                  std::string::npos)
            << target << r.err;
        EXPECT_EQ(r.out.find("check "), std::string::npos) << target << r.out;
    }
}

TEST(CliRun, SymbolicSizesTakeTheDefaultOrTheGivenValues) {
    CommandResult r = runCli("run " + example("symbolic_shape.py") + " --check --repeat 1");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("sizes      n=256, m=256\n"), std::string::npos) << r.out;
    r = runCli("run " + example("symbolic_shape.py") +
               " --check --repeat 1 --size n=37 --size m=5");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("sizes      n=37, m=5\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("check      passed"), std::string::npos) << r.out;
    r = runCli("run " + example("symbolic_shape.py") + " --size q=3");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("symbolic_shape.py: error: size 'q' names no symbolic size"),
              std::string::npos)
        << r.err;
    r = runCli("run " + example("symbolic_shape.py") + " --size n");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.err,
              "boundscope: error: --size expects NAME=VALUE with an integer VALUE, got 'n'\n");
}

TEST(CliRun, AKernelThatReadsFarOutsideItsInputIsReportedNotACrash) {
    for (const char* check : {"", " --check"}) {
        CommandResult r = runCli(std::string("run far_read.py --repeat 1") + check);
        EXPECT_EQ(r.exitCode, 1) << check << "\n" << r.out << r.err;
        EXPECT_NE(r.err.find("accessed memory outside its buffers"), std::string::npos)
            << check << "\n"
            << r.out << r.err;
        // The interpreter names the access.
        EXPECT_NE(r.err.find("out-of-bounds read of A[100000000]"), std::string::npos) << r.err;
    }
}

TEST(CliRun, GpuScheduleOnTheCpuSaysWhichTargetsFit) {
    CommandResult r = runCli("run " + example("gpu_vector_add.py"));
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("gpu_vector_add.py: error: the schedule of 'main' binds loops to GPU "
                         "threads"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("the emulate target"), std::string::npos) << r.err;
}

TEST(CliRun, ScansRunAndCheckOnTheCpuAndInTheGpuEmulation) {
    CommandResult r = runCli("run " + example("scan_cumsum.py") + " --check --repeat 1");
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("check      passed"), std::string::npos) << r.out;
    r = runCli("run " + example("gpu_scan.py") + " --target emulate --check --repeat 1");
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("check      passed"), std::string::npos) << r.out;
}

TEST(CliRun, CompactProgramsRunAndAreCheckedAgainstTheUnscheduledProgram) {
    // Issue 20: the compact strided cache runs in the GPU emulation and on the CPU (GatherBound's
    // packed boxes), each checked against the unscheduled program, not against itself.
    CommandResult lowered = runCli("lower --rules compact " + example("strided_cache.py"));
    if (lowered.exitCode != 0 && lowered.err.find("needs ISL") != std::string::npos)
        GTEST_SKIP() << "built without ISL";
    ASSERT_EQ(lowered.exitCode, 0) << lowered.err;
    EXPECT_NE(lowered.out.find("allocate B[float32 * 4]"), std::string::npos) << lowered.out;
    for (const std::string& run :
         {"run --rules compact " + example("strided_cache.py") + " --target emulate",
          "run --rules compact " + example("gather_disjoint.py")}) {
        CommandResult r = runCli(run + " --check --repeat 1");
        EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
        EXPECT_NE(r.out.find("check      passed against unscheduled program"), std::string::npos)
            << r.out;
    }
    CommandResult steps = runCli("steps --rules compact " + example("gather_disjoint.py"));
    EXPECT_NE(steps.out.find("compact (boxes) [T]"), std::string::npos) << steps.out;
    EXPECT_NE(steps.out.find("T stores them packed, one after the other"), std::string::npos)
        << steps.out;
}

TEST(CliLower, APassTheScriptAddsRunsInTheAnalysisAndCanBeShownRightAfter) {
    // tir.add_lower_pass (TVM's low_level_custom_pass tutorial): the CLI's own lowering runs it.
    CommandResult r = runCli("lower user_pass_vectorize.py");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("for (i.outer, 0, 16) {"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("c[ramp("), std::string::npos) << r.out;
    r = runCli("lower user_pass_vectorize.py --after vectorize");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("vectorized (i.inner, 0, 8) {"), std::string::npos) << r.out;
    r = runCli("lower user_pass_vectorize.py --after simplify");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("for (i, 0, 128) {"), std::string::npos) << r.out;
    r = runCli("lower user_pass_vectorize.py --after vectorise");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--after vectorise: no such pass; expected schedule_ops, flatten, "
                         "simplify, cse, final or a pass the script adds: vectorize"),
              std::string::npos)
        << r.err;
    r = runCli("lower prefetch_rows.py --after vectorize");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("(the script adds no pass)"), std::string::npos) << r.err;
}

TEST(CliCodegen, VirtualThreadsBecomeLoopsInTheCudaKernel) {
    // TOPI's conv2d_hwcn schedule binds vthread: TVM lowers virtual threads before code
    // generation; the CUDA C runs each thread's virtual threads as a loop.
    CommandResult r = runCli("codegen topi_cuda_conv2d_hwcn.py --target cuda");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("for (int vthread = 0; vthread < 2; ++vthread) {"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("float* __restrict__ Conv2dOutput) {"), std::string::npos)
        << "the virtual threads are no kernel parameters: " << r.out;
    EXPECT_NE(r.out.find("__syncthreads();"), std::string::npos) << r.out;
}

TEST(CliRun, TopisCudaSchedulesAreRightInTheGpuEmulation) {
    // topi.cuda.schedule_conv2d_hwcn, topi.gpu.schedule_dense_small_batch (a cross-thread
    // reduction) and topi.cuda.schedule_injective with TVM's fallback configurations.
    for (const char* script :
         {"topi_cuda_conv2d_hwcn.py", "topi_gpu_dense.py", "topi_cuda_injective.py"}) {
        CommandResult r =
            runCli(std::string("run ") + script + " --target emulate --check --repeat 1");
        EXPECT_EQ(r.exitCode, 0) << script << ": " << r.out << r.err;
        EXPECT_NE(r.out.find("check      passed"), std::string::npos) << script << ": " << r.out;
    }
}

TEST(CliRun, AnExternStageCallsItsPackedFunctionOnTheCpuAndInTheEmulation) {
    for (const char* target : {"cpu", "emulate"}) {
        CommandResult r = runCli("run " + example("extern_cblas.py") + " --target " + target +
                                 " --check --repeat 1");
        if (r.err.find("is not registered") != std::string::npos)
            GTEST_SKIP() << "built without OpenBLAS";
        EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
        EXPECT_NE(r.out.find("check      passed"), std::string::npos) << target << ": " << r.out;
    }
}

TEST(CliRun, ATensorizedMatmulCallsItsPythonIntrinsicOnTheCpuAndInTheEmulation) {
    // The intrinsic's packed functions are registered by the script: they live on for the run.
    for (const char* target : {"cpu", "emulate"}) {
        CommandResult r = runCli("run " + example("tensorize_gemv.py") + " --target " + target +
                                 " --check --repeat 1");
        EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
        EXPECT_NE(r.out.find("check      passed"), std::string::npos) << target << ": " << r.out;
    }
}

TEST(CliSteps, TensorizeSaysWhichRegionEachBufferOfTheIntrinsicIsBoundTo) {
    const std::string script = example("tensorize_gemv.py");
    CommandResult r = runCli("steps " + script);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("tensorize (input-region) [C] line 66"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("whose buffer W is bound to B([(j.outer*16), 16], [(k.outer*16), 16])"),
              std::string::npos)
        << r.out;
    auto dot = std::filesystem::temp_directory_path() / "bs_cli_tensorize_itervar.dot";
    r = runCli("graph " + script + " --kind itervar --stage C --format dot -o '" + dot.string() +
               "'");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(readAll(dot).find("tensorized: gemv from here inwards"), std::string::npos);
    std::filesystem::remove(dot);
}

TEST(CliRun, APrefetchingScheduleIsRightOnTheCpuAndInTheEmulation) {
    for (const char* target : {"cpu", "emulate"}) {
        CommandResult r =
            runCli(std::string("run prefetch_rows.py --target ") + target + " --check --repeat 1");
        EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
        EXPECT_NE(r.out.find("check      passed"), std::string::npos) << target << ": " << r.out;
    }
    CommandResult r = runCli("lower prefetch_rows.py");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    // 8 rows of 32 float32 (two 64-byte lines each) of the next i.outer iteration
    EXPECT_NE(r.out.find("prefetch(address_of(A["), std::string::npos) << r.out;
    auto dot = std::filesystem::temp_directory_path() / "bs_cli_prefetch_itervar.dot";
    r = runCli("graph prefetch_rows.py --kind itervar --stage B --format dot -o '" + dot.string() +
               "'");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(readAll(dot).find("prefetch A: what iteration i.outer + 1 reads"), std::string::npos)
        << readAll(dot);
    std::filesystem::remove(dot);
    // in a GPU kernel: lowered, emulated, and left out of the CUDA source
    r = runCli("lower prefetch_gpu.py");
    EXPECT_NE(r.out.find("prefetch(address_of(A[(cse_var_1 + 64)]), 0, 3, 1)"), std::string::npos)
        << r.out;
    r = runCli("codegen prefetch_gpu.py --target cuda");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("B[cse_var_1] = (A[cse_var_1] * 2.000000e+00f);"), std::string::npos)
        << r.out;
    EXPECT_EQ(r.out.find("prefetch"), std::string::npos) << r.out;
    r = runCli("run prefetch_gpu.py --target emulate --check --repeat 1");
    EXPECT_NE(r.out.find("check      passed"), std::string::npos) << r.out << r.err;
    // threads bound inside the prefetched loop take all their values (review: these were
    // "variable 'blockIdx.x' is used where nothing defines it")
    for (const char* script : {"prefetch_gpu_threads.py", "prefetch_vthread.py"}) {
        r = runCli(std::string("run ") + script + " --target emulate --check --repeat 1");
        EXPECT_NE(r.out.find("check      passed"), std::string::npos) << script << r.out << r.err;
    }
    r = runCli("lower prefetch_trivial_loop.py");
    EXPECT_EQ(r.exitCode, 1) << r.out;
    EXPECT_NE(r.err.find("prefetch_trivial_loop.py:9: error: prefetch of loop 'i.outer' in stage "
                         "'B': the loop has one iteration"),
              std::string::npos)
        << r.err;
}

TEST(CliAlloc, AnExternStageIsRealizedWholeAndItsInputTooUnderEveryRuleSet) {
    CommandResult r = runCli("alloc " + example("extern_cblas.py"));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    // P (64 x 32) feeds the extern whole; C (64 x 48) is realized whole; D reads 8 rows of C.
    EXPECT_NE(r.out.find("P       global (inferred)  2048     2048  2048"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("C       global (inferred)  3072     3072  3072"), std::string::npos)
        << r.out;
    r = runCli("steps " + example("extern_cblas.py"));
    EXPECT_NE(r.out.find("request (extern-input) [P] line 14"), std::string::npos) << r.out;
    auto dot = std::filesystem::temp_directory_path() / "bs_cli_extern_dag.dot";
    r = runCli("graph " + example("extern_cblas.py") + " --kind dag --format dot -o '" +
               dot.string() + "'");
    EXPECT_NE(readAll(dot).find("extern (opaque: calls tvm.contrib.cblas.matmul)"),
              std::string::npos)
        << r.err;
    std::filesystem::remove(dot);
}

TEST(CliAlloc, StorageAlignPadsTheSharedTileAndSaysSo) {
    const std::string script = example("gpu_transpose_storage_align.py");
    CommandResult r = runCli("alloc " + script);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    // A 32x32 tile with rows padded to 33: 1056 elements, 32 of them padding.
    EXPECT_NE(r.out.find("A.shared  shared  1056     1056   1056   1056     1024"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("32 elements of padding that no one writes"), std::string::npos) << r.out;
    r = runCli("codegen " + script + " --target cuda");
    EXPECT_NE(r.out.find("__shared__ float A_shared[1056];"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("A_shared[((((int)threadIdx.x) * 33) + ((int)threadIdx.y))]"),
              std::string::npos)
        << r.out;
    r = runCli("run " + script + " --target emulate --check --repeat 1");
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("check      passed"), std::string::npos) << r.out;
    r = runCli("steps " + script);
    EXPECT_NE(r.out.find("with strides (33, 1) padded by storage_align"), std::string::npos)
        << r.out;
}

TEST(CliAlloc, ADoubleBufferedTileIsAllocatedTwiceAndRunsRight) {
    const std::string script = example("gpu_matmul_double_buffer.py");
    CommandResult r = runCli("alloc " + script);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    // Each 16x16 shared tile twice: 256 x2.
    EXPECT_NE(r.out.find("A.shared  shared  256x2"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("double-buffer [tvm-0.5, tvm, tight, compact]"), std::string::npos)
        << r.out;
    r = runCli("lower " + script);
    EXPECT_NE(r.out.find("allocate A.shared[float32 * 512]"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("for (k.outer, 0, 15)"), std::string::npos)
        << r.out; // the last tile after it
    EXPECT_NE(r.out.find("A.shared[((cse_var_3 + (threadIdx.y*16)) + threadIdx.x)]"),
              std::string::npos)
        << r.out;
    r = runCli("run " + script + " --target emulate --check --repeat 1");
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("check      passed"), std::string::npos) << r.out;
    r = runCli("codegen " + script + " --target cuda");
    EXPECT_NE(r.out.find("__shared__ float A_shared[512];"), std::string::npos) << r.out;
}

TEST(CliCodegen, AGpuScanLaunchesAKernelPerStepWithTheStepAsAParameter) {
    CommandResult r = runCli("codegen " + example("gpu_scan.py") + " --target cuda");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("main_kernel0( float* __restrict__ X,  float* __restrict__ s_scan)"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("float* __restrict__ s_scan, int s_scan_idx)"), std::string::npos)
        << r.out;
}

TEST(CliCodegen, LlvmIrOfACpuSchedule) {
    CommandResult r = runCli("codegen " + example("matmul_tiled.py") + " --target llvm");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("define "), std::string::npos);
    EXPECT_NE(r.out.find("x float>"), std::string::npos) << "vectorized loop";
    r = runCli("codegen " + example("gpu_vector_add.py") + " --target llvm");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("binds loops to GPU threads"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());
}
#else
TEST(CliRun, CpuTargetAndLlvmSayTheyAreNotBuilt) {
    CommandResult r = runCli("run good.py");
    EXPECT_EQ(r.exitCode, 3);
    EXPECT_NE(r.err.find("this build has no LLVM JIT"), std::string::npos) << r.err;
    r = runCli("codegen good.py --target llvm");
    EXPECT_EQ(r.exitCode, 3);
    EXPECT_NE(r.err.find("no LLVM code generator"), std::string::npos) << r.err;
}
#endif

TEST(CliRun, GpuExamplesPassTheirCheckInTheEmulation) {
    std::vector<std::filesystem::path> paths = examples(true);
    EXPECT_GE(paths.size(), 5u);
    for (const char* name : {"ex6_shared_scope.py", "gpu_matmul_shared.py"})
        EXPECT_NE(std::find(paths.begin(), paths.end(),
                            std::filesystem::path(BOUNDSCOPE_EXAMPLES) / name),
                  paths.end())
            << name;
    for (const auto& path : paths) {
        CommandResult r = runCli("run '" + path.string() + "' --target emulate --check --repeat 1");
        EXPECT_EQ(r.exitCode, 0) << path << "\n" << r.out << r.err;
#ifdef BOUNDSCOPE_WITH_LLVM
        // Rewritten for the CPU and compiled (lower/GpuOnCpu.h); none falls back.
        EXPECT_NE(r.out.find(" (GPU emulation compiled by LLVM, "), std::string::npos)
            << path << r.out;
        EXPECT_EQ(r.out.find("not compiled"), std::string::npos) << path << r.out;
#else
        EXPECT_NE(r.out.find("target     emulate: interpreter (GPU emulation)"), std::string::npos)
            << path << r.out;
#endif
        EXPECT_NE(r.out.find("check      passed against "), std::string::npos) << path << r.out;
    }
}

TEST(CliRun, CudaTargetRunsOrSaysThereIsNoGpu) {
    CommandResult r = runCli("run " + example("gpu_vector_add.py") + " --target cuda --check");
    if (r.exitCode == 0) {
        EXPECT_NE(r.out.find("check      passed"), std::string::npos) << r.out;
        return;
    }
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("gpu_vector_add.py: error: no CUDA"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("the cuda target needs"), std::string::npos) << r.err;
}

TEST(CliRun, CpuScheduleOnCudaSaysSo) {
    CommandResult r = runCli("run " + example("matmul_naive.py") + " --target cuda");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("binds no loop to a GPU thread"), std::string::npos) << r.err;
}

TEST(CliCodegen, CudaSourceOfAGpuSchedule) {
    CommandResult r = runCli("codegen " + example("ex6_shared_scope.py") + " --target cuda");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("extern \"C\" __global__ void"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("__shared__ float B[200];"), std::string::npos) << r.out;
    r = runCli("codegen " + example("matmul_naive.py") + " --target cuda");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("matmul_naive.py: error: the schedule of 'main' binds no loop to a GPU "
                         "thread"),
              std::string::npos)
        << r.err;
    EXPECT_TRUE(r.out.empty());
}

#else

TEST(Cli, ScriptSaysPythonWasNotBuilt) {
    CommandResult r = runCli("script good.py");
    EXPECT_EQ(r.exitCode, 3);
    EXPECT_NE(r.err.find("Python support was not built"), std::string::npos) << r.err;
}

#endif
