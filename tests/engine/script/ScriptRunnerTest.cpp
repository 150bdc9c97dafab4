#include "script/ScriptRunner.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <utility>

using namespace bs;
using namespace bs::script;
using namespace std::chrono_literals;

namespace {

/// The diagnostic of a failed run as the CLI prints it, or "ok".
std::string outcome(const ScriptResult& result) {
    return result.diagnostic ? result.diagnostic->toString() : std::string("ok");
}

} // namespace

TEST(ScriptRunner, CapturesStdoutAndStderr) {
    ScriptRunner runner;
    ScriptResult r = runner.runSource("import sys\nprint('hello', 6 * 7)\n"
                                      "print('careful', file=sys.stderr)\n",
                                      "hello.py");
    EXPECT_TRUE(r.ok()) << outcome(r);
    EXPECT_EQ(r.output, "hello 42\n");
    EXPECT_EQ(r.errorOutput, "careful\n");
}

TEST(ScriptRunner, PassesOutputToTheCallbackAsItIsWritten) {
    ScriptRunner runner;
    ScriptOptions options;
    std::string seen;
    options.onOutput = [&](OutputStream stream, const std::string& text) {
        seen += (stream == OutputStream::Stdout ? "out:" : "err:") + text;
    };
    runner.runSource("import sys\nsys.stdout.write('a')\nsys.stderr.write('b')\n", "cb.py",
                     options);
    EXPECT_EQ(seen, "out:aerr:b");
}

TEST(ScriptRunner, RunsAsMainWithArgv) {
    ScriptRunner runner;
    ScriptOptions options;
    options.arguments = {"--size", "8"};
    ScriptResult r =
        runner.runSource("import sys\nprint(__name__, __file__, sys.argv)\n", "main.py", options);
    EXPECT_EQ(r.output, "__main__ main.py ['main.py', '--size', '8']\n");
}

TEST(ScriptRunner, RestoresSysStdoutAfterTheRun) {
    ScriptRunner runner;
    runner.runSource("import sys\nkept = sys.stdout\n", "first.py");
    // The second run sees its own sink; the first run's sink, still held, writes nowhere.
    ScriptResult r = runner.runSource("print('second')\n", "second.py");
    EXPECT_EQ(r.output, "second\n");
}

TEST(ScriptRunner, ReportsANameErrorAtItsLine) {
    ScriptRunner runner;
    ScriptResult r = runner.runSource("import tvm\n\nx = 1\nprint(foo)\n", "ex6.py");
    EXPECT_EQ(r.status, ScriptStatus::Failed);
    EXPECT_EQ(outcome(r), "ex6.py:4: error: NameError: name 'foo' is not defined");
    EXPECT_NE(r.traceback.find("Traceback"), std::string::npos);
}

TEST(ScriptRunner, ReportsASyntaxErrorAtItsLine) {
    ScriptRunner runner;
    ScriptResult r = runner.runSource("x = 1\n\nif x\n    pass\n", "bad.py");
    EXPECT_EQ(r.status, ScriptStatus::Failed);
    EXPECT_EQ(outcome(r), "bad.py:3: error: SyntaxError: expected ':'");
}

TEST(ScriptRunner, ReportsTheInnermostLineOfTheScript) {
    ScriptRunner runner;
    ScriptResult r = runner.runSource("def check(n):\n    assert n > 1, 'n too small'\n\n"
                                      "check(0)\n",
                                      "inner.py");
    EXPECT_EQ(outcome(r), "inner.py:2: error: AssertionError: n too small");
}

TEST(ScriptRunner, PutsAMultiLineMessageOnOneLine) {
    ScriptRunner runner;
    ScriptResult r = runner.runSource("raise ValueError('first\\n   second')\n", "lines.py");
    EXPECT_EQ(outcome(r), "lines.py:1: error: ValueError: first second");
}

TEST(ScriptRunner, EngineErrorIsTvmErrorInsideTheScript) {
    ScriptRunner runner;
    ScriptResult r =
        runner.runSource("import tvm\n"
                         "try:\n"
                         "    tvm.tir.const(1) // 0\n"
                         "except tvm.error.TVMError as e:\n"
                         "    print(type(e).__name__, isinstance(e, RuntimeError), e)\n",
                         "caught.py");
    EXPECT_TRUE(r.ok()) << outcome(r);
    EXPECT_EQ(r.output, "TVMError True floor division by zero\n");
}

TEST(ScriptRunner, UncaughtEngineErrorIsReportedAtTheCallingLine) {
    ScriptRunner runner;
    ScriptResult r = runner.runSource("import tvm\nfrom tvm import te\n\n"
                                      "n = te.var('n')\n"
                                      "bad = n // 0\n",
                                      "div.py");
    EXPECT_EQ(r.status, ScriptStatus::Failed);
    EXPECT_EQ(outcome(r), "div.py:5: error: floor division by zero");
}

TEST(ScriptRunner, SystemExitZeroIsSuccessAndOtherStatusesFail) {
    ScriptRunner runner;
    EXPECT_TRUE(runner.runSource("import sys\nsys.exit(0)\n", "exit0.py").ok());
    EXPECT_EQ(outcome(runner.runSource("import sys\nsys.exit(3)\n", "exit3.py")),
              "exit3.py:2: error: script exited with status 3");
    EXPECT_EQ(outcome(runner.runSource("import sys\n\nsys.exit('no schedule')\n", "msg.py")),
              "msg.py:3: error: no schedule");
}

TEST(ScriptRunner, MissingFileCannotBeOpened) {
    ScriptRunner runner;
    ScriptResult r = runner.runFile("/nonexistent/x.py");
    EXPECT_EQ(r.status, ScriptStatus::CannotOpen);
    EXPECT_EQ(outcome(r), "error: cannot open '/nonexistent/x.py': No such file or directory");
}

TEST(ScriptRunner, RunsAFileUnderItsPath) {
    auto path = std::filesystem::temp_directory_path() / "bs_runner_file_test.py";
    std::ofstream(path) << "x = 2\nraise KeyError('k')\n";
    ScriptRunner runner;
    ScriptResult r = runner.runFile(path.string());
    EXPECT_EQ(outcome(r), path.string() + ":2: error: KeyError: 'k'");
    std::filesystem::remove(path);
}

TEST(ScriptRunner, InterruptStopsARunningScript) {
    ScriptRunner runner;
    ScriptOptions options;
    std::promise<void> started;
    options.onOutput = [&](OutputStream, const std::string& text) {
        if (text == "ready")
            started.set_value();
    };
    auto future = runner.startSource("import sys\nsys.stdout.write('ready')\n"
                                     "while True:\n    pass\n",
                                     "spin.py", options);
    ASSERT_EQ(started.get_future().wait_for(30s), std::future_status::ready);
    EXPECT_TRUE(runner.isBusy());
    runner.interrupt(); // from this thread, while the script spins on the Python thread
    ASSERT_EQ(future.wait_for(30s), std::future_status::ready);
    ScriptResult r = future.get();
    EXPECT_EQ(r.status, ScriptStatus::Interrupted);
    EXPECT_EQ(r.diagnostic->message, "interrupted");
    EXPECT_EQ(r.diagnostic->location.file, "spin.py");
    EXPECT_GE(r.diagnostic->location.line, 3);
    EXPECT_FALSE(runner.isBusy());
}

TEST(ScriptRunner, AFloatIndexIsAnErrorAtItsLine) {
    ScriptRunner runner;
    ScriptResult r = runner.runSource("import tvm\nfrom tvm import te\n"
                                      "A = te.placeholder((8,), name='A')\n"
                                      "B = te.compute((7,), lambda i: A[i + 0.5], name='B')\n",
                                      "float_index.py");
    ASSERT_EQ(r.status, ScriptStatus::Failed);
    EXPECT_EQ(r.diagnostic->location.line, 4);
    EXPECT_NE(r.diagnostic->message.find("tensor 'A' is indexed with"), std::string::npos)
        << r.diagnostic->message;
}

TEST(ScriptRunner, InterruptOfAQueuedScriptSkipsIt) {
    ScriptRunner busy;
    ScriptRunner queued;
    ScriptOptions options;
    std::promise<void> started;
    bool signalled = false; // print() writes twice ('go', then the newline)
    options.onOutput = [&](OutputStream, const std::string&) {
        if (!std::exchange(signalled, true))
            started.set_value();
    };
    auto first = busy.startSource("print('go')\nwhile True: pass\n", "busy.py", options);
    ASSERT_EQ(started.get_future().wait_for(30s), std::future_status::ready);
    auto second = queued.startSource("print('should not run')\n", "queued.py");
    queued.interrupt(); // only the queued runner's script
    EXPECT_EQ(first.wait_for(200ms), std::future_status::timeout);
    busy.interrupt();
    ScriptResult skipped = second.get();
    EXPECT_EQ(skipped.status, ScriptStatus::Interrupted);
    EXPECT_EQ(skipped.output, "");
    EXPECT_EQ(first.get().status, ScriptStatus::Interrupted);
}

TEST(ScriptRunner, InterruptAfterTheRunDoesNotReachTheNextOne) {
    ScriptRunner runner;
    EXPECT_TRUE(runner.runSource("x = 1\n", "done.py").ok());
    runner.interrupt(); // nothing is running: no effect
    ScriptResult r = runner.runSource("import time\ntime.sleep(0.05)\nprint('fine')\n", "next.py");
    EXPECT_TRUE(r.ok()) << outcome(r);
    EXPECT_EQ(r.output, "fine\n");
}

TEST(ScriptRunner, TimeLimitInterruptsTheScript) {
    ScriptRunner runner;
    ScriptOptions options;
    options.timeout = 200ms;
    auto begin = std::chrono::steady_clock::now();
    ScriptResult r = runner.runSource("while True:\n    pass\n", "slow.py", options);
    EXPECT_LT(std::chrono::steady_clock::now() - begin, 20s);
    EXPECT_EQ(r.status, ScriptStatus::TimedOut);
    EXPECT_EQ(r.diagnostic->message, "timed out after 200 ms");
}

TEST(ScriptRunner, TimeLimitOutlastsACaughtKeyboardInterrupt) {
    ScriptRunner runner;
    ScriptOptions options;
    options.timeout = 100ms;
    // (The loop body on a line of its own: CPython 3.11 does not let `try` catch an
    // asynchronous exception raised in some one-line loops such as `while True: pass`.)
    ScriptResult r = runner.runSource("n = 0\ntry:\n    while True:\n        n += 1\n"
                                      "except KeyboardInterrupt:\n"
                                      "    print('caught')\nwhile True: pass\n",
                                      "stubborn.py", options);
    EXPECT_EQ(r.output, "caught\n");
    EXPECT_EQ(r.status, ScriptStatus::TimedOut);
}

TEST(ScriptRunner, ImportTvmAlwaysResolvesToBoundscope) {
    // A "real" tvm earlier on sys.path (and one the script adds itself) must not win.
    auto fake = std::filesystem::temp_directory_path() / "bs_fake_tvm";
    std::filesystem::create_directories(fake / "tvm");
    std::ofstream(fake / "tvm" / "__init__.py") << "raise ImportError('the real tvm')\n";
    ScriptRunner runner;
    ScriptResult r =
        runner.runSource("import sys\nsys.path.insert(0, " + ("'" + fake.string() + "'") +
                             ")\nimport tvm\nfrom tvm import te\n"
                             "print(tvm.__boundscope__, te.var('x'))\n",
                         "shadow.py");
    EXPECT_TRUE(r.ok()) << outcome(r);
    EXPECT_EQ(r.output, "True x\n");
    std::filesystem::remove_all(fake);
}

TEST(ScriptRunner, FindsItsPythonPackages) {
    std::string dir = ScriptRunner::pythonDirectory();
    EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(dir) / "tvm" / "__init__.py")) << dir;
}

TEST(ScriptNames, AFixIsWrittenInTheScriptsVariables) {
    ScriptNames names;
    names.variableOfTensor = {{"B.local", "BL"}, {"C", "C"}};
    names.schedule = "sch";
    EXPECT_EQ(inScriptNames("s[B.local].compute_at(s[C], C.op.axis[0])", names),
              "sch[BL].compute_at(sch[C], C.op.axis[0])");
    // Only whole names are renamed: `Bs[` and `x.s.` are not the schedule.
    EXPECT_EQ(inScriptNames("Bs[B.local] x.s.y", names), "Bs[BL] x.s.y");
}

TEST(ScriptNames, WhatOneRenameWritesIsNotRenamedAgain) {
    // Tensor B is held in variable C, and tensor C in variable D.
    ScriptNames names;
    names.variableOfTensor = {{"B", "C"}, {"C", "D"}};
    EXPECT_EQ(inScriptNames("s[B].compute_at(s[C], C.op.axis[0]); B.op.axis", names),
              "s[C].compute_at(s[D], D.op.axis[0]); C.op.axis");
}
