// The reproducers of issue 14 (shared/repro, copied to scripts/repro_*) as a user runs them:
// each gives a right result or one clear error at its line, with a fix where one is known.
#include "CliRun.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <vector>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using bs::test::CommandResult;
using bs::test::runCli;

/// The first line of stderr.
std::string firstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

/// The tvm-0.5, tvm and tight allocations of `buffer` in `alloc`'s table.
std::vector<std::string> allocationsOf(const std::string& table, const std::string& buffer) {
    std::istringstream lines(table);
    for (std::string line; std::getline(lines, line);) {
        std::istringstream words(line);
        std::vector<std::string> cells;
        for (std::string w; words >> w;)
            if (w != "(inferred)")
                cells.push_back(w);
        if (cells.size() >= 5 && cells[0] == buffer)
            return {cells[2], cells[3], cells[4]};
    }
    return {};
}

} // namespace

#if BOUNDSCOPE_WITH_PYTHON

#if BOUNDSCOPE_WITH_LLVM
TEST(CliRepro, AVectorTooWideForLlvmIsRefusedAtTheVectorizeNotACrash) {
    for (const char* script :
         {"repro_02_vectorize_65536_segv.py", "repro_02b_vectorize_100000_abort.py"}) {
        for (const char* command : {"run --target cpu", "codegen --target llvm"}) {
            CommandResult r = runCli(std::string(command) + " " + script);
            EXPECT_EQ(r.exitCode, 1) << command << " " << script << "\n" << r.err;
            EXPECT_EQ(firstLine(r.err).rfind(std::string(script) +
                                                 ":6: error: vectorize of loop 'i' in "
                                                 "stage 'B' makes vectors of ",
                                             0),
                      0u)
                << r.err;
            EXPECT_NE(r.err.find("fix: split the loop and vectorize the inner part: outer, inner = "
                                 "s[B].split(B.op.axis[0], factor=16); s[B].vectorize(inner)"),
                      std::string::npos)
                << r.err;
        }
        // Lowering, which TVM does too, is not refused.
        EXPECT_EQ(runCli(std::string("bounds ") + script).exitCode, 0);
    }
    // The fix in the script's names, from every command that meets it.
    for (const char* command : {"run --target cpu", "codegen --target llvm"}) {
        CommandResult r = runCli(std::string(command) + " vectorize_too_wide_names.py");
        EXPECT_NE(r.err.find("outer, inner = sch[Bv].split(Bv.op.axis[0], factor=16); "
                             "sch[Bv].vectorize(inner)"),
                  std::string::npos)
            << command << "\n"
            << r.err;
    }
}

TEST(CliRepro, AnUnrollTooLongToCompileIsRefusedAtTheUnroll) {
    CommandResult r = runCli("run --target cpu repro_18_unroll_200000_compile_hang.py");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(firstLine(r.err),
              "repro_18_unroll_200000_compile_hang.py:12: error: unroll of loop 'i' in stage 'Yh' "
              "makes 200000 copies of its body; the cpu target's code generator takes at most "
              "4096");
    EXPECT_NE(r.err.find("s[Yh].split(Yh.op.axis[0], factor=16); s[Yh].unroll(inner)"),
              std::string::npos)
        << r.err;
    // The interpreter runs it, unrolled as lowering writes it.
    EXPECT_EQ(
        runCli("run --target emulate --check repro_18_unroll_200000_compile_hang.py").exitCode, 0);
}

TEST(CliRepro, ALargeSymbolicKernelCompilesUnoptimizedAndStillChecks) {
    // About 6,000 LLVM instructions: past kMaxOptimizedInstructions the O0 pipeline compiles it
    // (O3 took 85 s on it); the result is the same.
    CommandResult r =
        runCli("run --target cpu --check --size n0=3 repro_09_slow_llvm_codegen_symbolic.py");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("check      passed"), std::string::npos) << r.out;
}

TEST(CliRepro, AnExpressionAHundredThousandDeepCompilesAndChecks) {
    // 16 s in the optimizing back end before; its time against depth is bench_llvm_compile's.
    CommandResult r = runCli("run --target cpu --check repro_13_deep_expr_100k_codegen.py");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("check      passed"), std::string::npos) << r.out;
}

TEST(CliRepro, IdenticalInfinitiesAndNansPassTheCheck) {
    for (const char* script :
         {"repro_03_check_inf_false_fail.py", "repro_03b_check_nan_false_fail.py"}) {
        CommandResult r = runCli(std::string("run --target cpu --check ") + script);
        EXPECT_EQ(r.exitCode, 0) << script << "\n" << r.out << r.err;
        EXPECT_NE(r.out.find("check      passed"), std::string::npos) << r.out;
    }
}
#endif

TEST(CliRepro, TwoLeavesOfOneStageOnOneThreadIndexAreRefusedAtTheSecondBind) {
    CommandResult r = runCli("lower repro_04_bind_two_leaves_same_thread.py");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(firstLine(r.err),
              "repro_04_bind_two_leaves_same_thread.py:11: error: bind of 'i.inner' in stage 'R': "
              "'i.outer' of stage 'R' is already bound to threadIdx.x (line 10): two loops of one "
              "stage cannot both run over threadIdx.x");
    EXPECT_NE(r.err.find("note: fix: bind 'i.inner' to another thread index, or fuse the two loops "
                         "(s[R].fuse)"),
              std::string::npos)
        << r.err;
}

TEST(CliRepro, OneThreadBoundToLoopsOfDifferentExtentsIsRefusedAtTheBindThatDisagrees) {
    CommandResult r = runCli("lower thread_extent_mismatch.py");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(
        r.err,
        "thread_extent_mismatch.py:10: error: bind of 'i' in stage 'B' to threadIdx.x: the loop "
        "runs 64 iterations, but threadIdx.x already runs 32 for another loop bound to it; "
        "every loop bound to one thread must run as many iterations as the thread (TVM stops "
        "here too)\n"
        "thread_extent_mismatch.py:10: note: fix: split 'i' so that the loop bound to "
        "threadIdx.x runs 32 iterations, or bind it to another thread index\n");
}

TEST(CliRepro, AReduceAxisOverBlocksIsRefusedAtTheBind) {
    CommandResult r = runCli("codegen --target cuda repro_05_bind_reduce_axis_blockIdx.py");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(firstLine(r.err),
              "repro_05_bind_reduce_axis_blockIdx.py:9: error: bind of 'k' in stage 'R': a reduce "
              "axis can be bound only to threadIdx (a reduction across the threads of a block); "
              "'blockIdx.x' would leave each of its blocks with a partial result that nothing "
              "combines");
}

TEST(CliRepro, ASplitStageThatIsInlinedIsAUserErrorAtTheInline) {
    for (const char* command : {"lower", "bounds", "steps", "alloc"}) {
        CommandResult r =
            runCli(std::string(command) + " repro_06_split_then_inline_internal_error.py");
        EXPECT_EQ(r.exitCode, 1) << command;
        EXPECT_EQ(firstLine(r.err),
                  "repro_06_split_then_inline_internal_error.py:8: error: 'B' is inlined, but its "
                  "loop 'i' was split at line 7: an inlined stage has no loops of its own, its "
                  "values are computed inside its consumers' loops (TVM stops here too: Check "
                  "failed: allow_missing)")
            << command;
        EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
    }
}

TEST(CliRepro, ACrossThreadReductionLowersToAllreduceAndIsRightInEmulation) {
    // TVM's tvm_thread_allreduce: printed by lower, shuffles in the CUDA source, and the
    // emulation (which runs that device code) agrees with the unscheduled program.
    for (const char* script : {"repro_01_allreduce_rfactor_tutorial.py",
                               "repro_01b_allreduce_split_bind.py", "allreduce_tutorial.py"}) {
        CommandResult run = runCli(std::string("run --target emulate --check ") + script);
        EXPECT_EQ(run.exitCode, 0) << script << "\n" << run.err;
        EXPECT_NE(run.out.find("check      passed"), std::string::npos) << script << "\n"
                                                                        << run.out;
        CommandResult lowered = runCli(std::string("lower ") + script);
        EXPECT_NE(lowered.out.find("tvm_thread_allreduce((uint32)1, "), std::string::npos)
            << script << "\n"
            << lowered.out;
        CommandResult cuda = runCli(std::string("codegen --target cuda ") + script);
        EXPECT_EQ(cuda.exitCode, 0) << script << "\n" << cuda.err;
        EXPECT_NE(cuda.out.find("__shfl_down_sync(mask[0], red_buf0[0], "), std::string::npos)
            << script << "\n"
            << cuda.out;
    }
    // The tutorial's set_store_predicate(tx.var.equal(0)) guards the store.
    EXPECT_NE(runCli("lower allreduce_tutorial.py").out.find("if ((threadIdx.x == 0)) {"),
              std::string::npos);
    // The cpu target cannot run thread-bound loops: one clear error.
    CommandResult cpu = runCli("run --target cpu repro_01b_allreduce_split_bind.py");
    EXPECT_EQ(cpu.exitCode, 1);
    EXPECT_NE(cpu.err.find("binds loops to GPU threads"), std::string::npos) << cpu.err;
}

TEST(CliRepro, WarpMemoryRunsItsLanesInLockStep) {
    // Each lane reads its neighbour's element of a warp-scope cache: a warp barrier goes between
    // the write and the read, and each warp (threadIdx.y) has its own copy.
    CommandResult lowered = runCli("lower warp_neighbour.py");
    EXPECT_NE(lowered.out.find("tvm_storage_sync(\"warp\")"), std::string::npos) << lowered.out;
    CommandResult run = runCli("run --target emulate --check warp_neighbour.py");
    EXPECT_EQ(run.exitCode, 0) << run.err;
    EXPECT_NE(run.out.find("check      passed"), std::string::npos) << run.out;
}

TEST(CliRepro, TheTightRulesNeverAllocateMoreThanTvm) {
    // A producer computed inside a stage whose split tight would tighten: the split keeps TVM's
    // constant stride, so the producer's request stays quasi-affine (was 90 elements, tvm 14).
    const std::pair<const char*, const char*> cases[] = {
        {"repro_07_alloc_tight_gt_tvm.py", "P"}, {"repro_07c_alloc_tight_gt_tvm_pad.py", "T2"}};
    for (const auto& [script, buffer] : cases) {
        CommandResult r = runCli(std::string("alloc ") + script);
        ASSERT_EQ(r.exitCode, 0) << r.err;
        EXPECT_EQ(allocationsOf(r.out, buffer), (std::vector<std::string>{"14", "14", "14"}))
            << r.out;
    }
    // TVM's own fuse rule (PassUpDomain after PR #3073) relaxes a partial fused range to the
    // rows it may span, and T4 reads T2[i % 4, j]: 4 rows of 29 under tvm, as TVM allocates;
    // TVM 0.5 fell back to the full parent range, a single row.
    CommandResult b = runCli("alloc repro_07b_alloc_tvm_gt_tvm06.py");
    ASSERT_EQ(b.exitCode, 0) << b.err;
    EXPECT_EQ(allocationsOf(b.out, "T2"), (std::vector<std::string>{"29", "116", "29"})) << b.out;
}

TEST(CliRepro, FuseInTheReverseOrderIsSwappedAsTvmDoes) {
    // TVM's Stage::fuse names the loop in the order given (j.i.fused) and swaps the two when
    // they are adjacent the other way round, so the loop runs i-major.
    CommandResult r = runCli("lower repro_17_fuse_reversed_accepted.py");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("for (j.i.fused, 0, 24)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("B[j.i.fused] = (A[j.i.fused]*2.000000f)"), std::string::npos) << r.out;
}

TEST(CliRepro, TheVectorizeFixNamesTheLoopAsTheScriptCan) {
    CommandResult r = runCli("lower repro_21b_vectorize_symbolic_no_line.py");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("repro_21b_vectorize_symbolic_no_line.py:13: note: fix: split it by a "
                         "constant first and vectorize the inner loop: outer, inner = "
                         "s[Y].split(Y.op.axis[0], factor=4); s[Y].vectorize(inner)"),
              std::string::npos)
        << r.err;
}

#endif

#if BOUNDSCOPE_WITH_PYTHON
TEST(CliRepro, OsExitInAScriptEndsTheScriptNotTheCommand) {
    CommandResult r = runCli("script repro_19_os_exit.py");
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_NE(r.err.find("script exited with status 7"), std::string::npos) << r.err;
}
#endif

TEST(CliRepro, AnOutputThatCannotBeWrittenIsAFailureThatNamesIt) {
#if !BOUNDSCOPE_WITH_PYTHON
    GTEST_SKIP() << "built without Python: the example is a script";
#endif
    struct stat st;
    if (::stat("/dev/full", &st) != 0 || !S_ISCHR(st.st_mode))
        GTEST_SKIP() << "no /dev/full";
    const std::string example = "'" BOUNDSCOPE_EXAMPLES "/ex6_shared_scope.py'";
    // stdout on a full device.
    const std::string command = "'" BOUNDSCOPE_CLI "' lower " + example + " >/dev/full 2>/dev/null";
    const int status = std::system(command.c_str());
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << status;
    // A file argument on a full device: the device is written where it is, never replaced.
    CommandResult r = runCli("graph --kind dag --format dot -o /dev/full " + example);
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("cannot write '/dev/full': No space left on device"), std::string::npos)
        << r.err;
    ASSERT_EQ(::stat("/dev/full", &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode)) << "/dev/full was replaced";
}

TEST(CliRepro, AGraphWrittenToAPipeGoesThroughIt) {
#if !BOUNDSCOPE_WITH_PYTHON
    GTEST_SKIP() << "built without Python: the example is a script";
#endif
    const auto folder =
        std::filesystem::temp_directory_path() / ("bs_fifo_" + std::to_string(::getpid()));
    std::filesystem::create_directories(folder);
    const std::string fifo = (folder / "graph.dot").string();
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const std::string copy = (folder / "copy.dot").string();
    // The reader gives up after a minute, should the command never open the pipe.
    const std::string command =
        "timeout 60 cat '" + fifo + "' > '" + copy +
        "' & '" BOUNDSCOPE_CLI "' graph --kind dag --format dot -o '" + fifo +
        "' '" BOUNDSCOPE_EXAMPLES "/ex6_shared_scope.py'; status=$?; wait; exit $status";
    const int status = std::system(command.c_str());
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
    struct stat st;
    ASSERT_EQ(::stat(fifo.c_str(), &st), 0);
    EXPECT_TRUE(S_ISFIFO(st.st_mode));
    EXPECT_EQ(bs::test::readAll(copy).rfind("digraph", 0), 0u);
    std::filesystem::remove_all(folder);
}

#if BOUNDSCOPE_WITH_PYTHON
TEST(CliRepro, EveryCommandStopsAScriptAtItsTimeoutEvenInASleep) {
    // An endless loop (repro 11) and a sleep (11b, which the interrupt cannot reach inside the C
    // call), stopped after a second by any command; the default limit is said with the error.
    for (const char* command : {"lower", "bounds", "steps", "alloc", "script"}) {
        for (const char* script : {"repro_11_infinite_loop.py", "repro_11b_sleep_vs_timeout.py"}) {
            const auto start = std::chrono::steady_clock::now();
            CommandResult r = runCli(std::string(command) + " --timeout 1 " + script);
            const double seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            EXPECT_EQ(r.exitCode, 1) << command << " " << script;
            EXPECT_NE(r.err.find(": error: timed out after 1 s"), std::string::npos) << r.err;
            EXPECT_NE(r.err.find("boundscope: note: --timeout SECONDS sets the limit"),
                      std::string::npos)
                << r.err;
            EXPECT_LT(seconds, 6.0) << command << " " << script; // 11b sleeps 8 s
        }
    }
}

TEST(CliRepro, TheWorkAfterTheScriptStopsAtTheTimeoutToo) {
    // A program with no GPU threads emulated runs in the interpreter: 8192 x 8192 elements take
    // it about 20 s, and --timeout covered only the script, so nothing stopped it but Ctrl-C.
    // The script's pass that never returns when the analysis runs it is interrupted there.
    const std::pair<const char*, const char*> commands[] = {
        {"run --target emulate --repeat 1", "heatmap_too_large.py"},
        {"run --target emulate --check", "heatmap_too_large.py"},
        {"lower", "user_pass_forever.py"},
        {"alloc", "user_pass_forever.py"}};
    for (const auto& [options, script] : commands) {
        const auto start = std::chrono::steady_clock::now();
        CommandResult r = runCli(std::string(options) + " --timeout 2 " + script);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        EXPECT_EQ(r.exitCode, 1) << options;
        EXPECT_EQ(r.out, "") << options;
        EXPECT_NE(r.err.find(std::string("boundscope: error: ") + script +
                             ": stopped after 2 s: the command ran past its time limit "
                             "(--timeout SECONDS sets it"),
                  std::string::npos)
            << r.err;
        EXPECT_LT(seconds, 12.0) << options;
    }
}
#endif

TEST(CliRepro, AScriptPathThatNeverEndsIsRefused) {
#if !BOUNDSCOPE_WITH_PYTHON
    GTEST_SKIP() << "built without Python: `script` says so first";
#endif
    for (const char* command : {"lower", "script"}) {
        CommandResult r = runCli(std::string(command) + " /dev/zero");
        EXPECT_EQ(r.exitCode, 2) << command;
        EXPECT_EQ(r.err, "boundscope: error: cannot open '/dev/zero': it is not a regular file (a "
                         "device, a pipe or a socket)\n");
    }
}

TEST(CliRepro, ANegativeExtentNamesTheStatementTheExtentAndTheSizes) {
    CommandResult r =
        runCli("run --target emulate --size M=2 --size W=5 repro_20_tc_negative_extent.tc");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(r.err,
              "repro_20_tc_negative_extent.tc:2: error: axis 0 of 'O0' has extent ((M + 1) - W) "
              "= -2 with M=2, W=5: the range of its index is empty, so the tensor has no "
              "elements to compute; give sizes for which the extent is at least 0\n");
}

#if BOUNDSCOPE_WITH_PYTHON
TEST(CliRepro, TheTightRulesKeepAVectorizedLoopsExtentConstant) {
    // Tight would give B's j the per-iteration extent min(3, 19 - j.outer*3); a vectorized loop
    // keeps TVM's 3 and its bound check instead, and the steps say why.
    CommandResult lower = runCli("lower --rules tight repro_08_tight_breaks_vectorize.py");
    ASSERT_EQ(lower.exitCode, 0) << lower.err;
    EXPECT_NE(lower.out.find("if (likely((((j.outer*3) + j.s) < 19)))"), std::string::npos)
        << lower.out;
    CommandResult steps = runCli("steps --rules tight repro_08_tight_breaks_vectorize.py");
    EXPECT_NE(steps.out.find("kept (its loop is vectorized or unrolled, which needs a constant "
                             "extent; the bound check guards the rest)"),
              std::string::npos)
        << steps.out;
#if BOUNDSCOPE_WITH_LLVM
    CommandResult run =
        runCli("run --target cpu --check --rules tight repro_08_tight_breaks_vectorize.py");
    EXPECT_EQ(run.exitCode, 0) << run.err;
#endif
}
#endif
