// script/RecordedRun: each run records into a recorder of its own and hands the program back
// as a value; nothing a run defined is seen by a later run or by the module's own recorder.
#include "script/RecordedRun.h"

#include "script/bindings/Recording.h"

#include <gtest/gtest.h>

namespace bs::script {
namespace {

const char* kScheduled = "import tvm\n"
                         "from tvm import te\n"
                         "A = te.placeholder((8,), name='A')\n"
                         "B = te.compute((8,), lambda i: A[i] + 1, name='B')\n"
                         "s = te.create_schedule(B.op)\n";

Program run(ScriptRunner& runner, const std::string& source) {
    Program program;
    ScriptResult result = runRecorded(
        runner, [&] { return runner.runSource(source, "run.py"); }, &program);
    EXPECT_TRUE(result.ok()) << (result.diagnostic ? result.diagnostic->toString() : "");
    return program;
}

TEST(RecordedRun, EachRunHandsBackItsOwnProgram) {
    ScriptRunner runner;
    Program first = run(runner, kScheduled);
    ASSERT_TRUE(first.defined());
    EXPECT_EQ(first.schedule.stages().back().name(), "B");
    // The second script makes no schedule: it gets nothing, not the first run's program.
    EXPECT_FALSE(run(runner, "x = 1\n").defined());
    // A run's recorder is not the module's (what a plain python3 records into; a test run
    // before this one in the same process may have left a program there).
    EXPECT_FALSE(activeRecorder()->program().schedule.same_as(first.schedule));
}

TEST(RecordedRun, AFailingScriptStillHandsBackWhatItDefined) {
    ScriptRunner runner;
    Program program;
    ScriptResult result = runRecorded(
        runner,
        [&] {
            return runner.runSource(std::string(kScheduled) + "raise ValueError('no')\n", "f.py");
        },
        &program);
    EXPECT_FALSE(result.ok());
    ASSERT_TRUE(program.defined()) << "the schedule made before the failure is the program";
    EXPECT_FALSE(run(runner, "y = 2\n").defined());
}

} // namespace
} // namespace bs::script
