// Building a program without typing Python (script/edit/StageEdit.h): each edit on a real
// script, checked by running the edited script as the app and the CLI do.
#include "script/edit/StageEdit.h"
#include "script/RecordedRun.h"

#include <gtest/gtest.h>

namespace bs::script {
namespace {

/// The program `script` defines (undefined when it makes no schedule).
Program programOf(const std::string& script) {
    ScriptRunner runner;
    Program program;
    const ScriptResult result = runRecorded(
        runner, [&] { return runner.runSource(script, "stage.py"); }, &program);
    EXPECT_TRUE(result.ok()) << (result.diagnostic ? result.diagnostic->toString() : "");
    return program;
}

std::string stageNames(const Program& program) {
    std::string names;
    for (const Stage& s : program.schedule.stages())
        names += (names.empty() ? "" : ",") + s.name();
    return names;
}

/// `script` after `stage` is added, failing the test when the edit is refused.
std::string added(const std::string& script, const NewStage& stage) {
    const EditResult result = addStage(script, "stage.py", programOf(script), stage);
    EXPECT_TRUE(result.ok()) << result.error;
    return result.script;
}

NewStage placeholder(const std::string& name, std::vector<std::string> shape) {
    NewStage s;
    s.kind = NewStage::Kind::Placeholder;
    s.name = name;
    s.shape = std::move(shape);
    return s;
}

NewStage compute(const std::string& name, std::vector<std::string> shape, const std::string& body) {
    NewStage s;
    s.name = name;
    s.axes = defaultAxes(shape.size());
    s.shape = std::move(shape);
    s.body = body;
    return s;
}

TEST(StageEdit, AThreeStageProgramFromAnEmptyScript) {
    std::string script = added("", placeholder("A", {"64", "64"}));
    EXPECT_EQ(script,
              "import tvm\nfrom tvm import te\n\nA = te.placeholder((64, 64), name=\"A\")\n");
    script = added(script, compute("B", {"64", "64"}, "A[i, j] * 2"));
    EXPECT_EQ(script, "import tvm\nfrom tvm import te\n\nA = te.placeholder((64, 64), name=\"A\")\n"
                      "B = te.compute((64, 64), lambda i, j: A[i, j] * 2, name=\"B\")\n\n"
                      "s = te.create_schedule(B.op)\n");
    NewStage sum = compute("C", {"64"}, "B[i, k]");
    sum.kind = NewStage::Kind::Reduction;
    sum.reduceAxes = {{"k", "64"}};
    script = added(script, sum);
    EXPECT_EQ(script, "import tvm\nfrom tvm import te\n\nA = te.placeholder((64, 64), name=\"A\")\n"
                      "B = te.compute((64, 64), lambda i, j: A[i, j] * 2, name=\"B\")\n\n"
                      "k = te.reduce_axis((0, 64), name=\"k\")\n"
                      "C = te.compute((64,), lambda i: te.sum(B[i, k], axis=k), name=\"C\")\n"
                      "s = te.create_schedule(C.op)\n");
    EXPECT_EQ(stageNames(programOf(script)), "A,B,C");
}

const char* const kScript = R"(import tvm
from tvm import te

A = te.placeholder((64,), name="A")
U = te.placeholder((64,), name="U")
B = te.compute((64,), lambda i: A[i] * 2, name="B")
C = te.compute((64,), lambda i: B[i] + 1, name="C")
s = te.create_schedule(C.op)
xo, xi = s[B].split(B.op.axis[0], factor=8)
print(tvm.lower(s, [A, U, C], simple_mode=True))
)";

TEST(StageEdit, AStageReadingTheOutputBecomesTheOutput) {
    const std::string script = added(kScript, compute("D", {"64"}, "C[i] * C[i]"));
    EXPECT_NE(script.find("D = te.compute((64,), lambda i: C[i] * C[i], name=\"D\")\n"
                          "s = te.create_schedule(D.op)\n"),
              std::string::npos)
        << script;
    EXPECT_NE(script.find("tvm.lower(s, [A, U, C, D], simple_mode=True)"), std::string::npos);
    EXPECT_EQ(stageNames(programOf(script)), "A,B,C,D"); // U is read by no stage
    // One that reads no output is one more output.
    const std::string other = added(kScript, compute("E", {"64"}, "A[i] - 1"));
    EXPECT_NE(other.find("s = te.create_schedule([C.op, E.op])"), std::string::npos) << other;
}

TEST(StageEdit, RenameChangesTheNameAndTheVariable) {
    const EditResult result = renameStage(kScript, "stage.py", programOf(kScript), "B", "Bx");
    ASSERT_TRUE(result.ok()) << result.error;
    EXPECT_NE(result.script.find("Bx = te.compute((64,), lambda i: A[i] * 2, name=\"Bx\")"),
              std::string::npos);
    EXPECT_NE(result.script.find("lambda i: Bx[i] + 1"), std::string::npos);
    EXPECT_NE(result.script.find("s[Bx].split(Bx.op.axis[0], factor=8)"), std::string::npos);
    EXPECT_EQ(stageNames(programOf(result.script)), "A,Bx,C");
    EXPECT_EQ(renameStage(kScript, "stage.py", programOf(kScript), "B", "C").error,
              "the script already uses the name 'C'");
}

TEST(StageEdit, RenameNamesAStageTheScriptLeftUnnamed) {
    // te.compute's default name twice: the schedule calls C `compute_1`, and renaming it gives
    // its call the name (there was no name= to change, so the rename was refused).
    const std::string script = "import tvm\n"
                               "from tvm import te\n"
                               "X = te.placeholder((64,))\n"
                               "B = te.compute((64,), lambda i: X[i] * 2)\n"
                               "C = te.compute(\n"
                               "    (64,),\n"
                               "    lambda i: B[i] + 1,\n"
                               ")\n"
                               "s = te.create_schedule(C.op)\n";
    const Program program = programOf(script);
    ASSERT_EQ(stageNames(program), "placeholder,compute,compute_1");
    const EditResult c = renameStage(script, "stage.py", program, "compute_1", "Bias");
    ASSERT_TRUE(c.ok()) << c.error;
    EXPECT_NE(c.script.find("    lambda i: B[i] + 1,\nname=\"Bias\")\n"), std::string::npos)
        << c.script;
    EXPECT_EQ(stageNames(programOf(c.script)), "placeholder,compute,Bias");
    const EditResult b = renameStage(script, "stage.py", program, "compute", "Scaled");
    ASSERT_TRUE(b.ok()) << b.error;
    EXPECT_NE(b.script.find("B = te.compute((64,), lambda i: X[i] * 2, name=\"Scaled\")\n"),
              std::string::npos)
        << b.script;
    const EditResult x = renameStage(script, "stage.py", program, "placeholder", "X");
    EXPECT_EQ(x.error, "the script already uses the name 'X'");
    const EditResult input = renameStage(script, "stage.py", program, "placeholder", "Input");
    ASSERT_TRUE(input.ok()) << input.error;
    EXPECT_NE(input.script.find("X = te.placeholder((64,), name=\"Input\")\n"), std::string::npos);
    // A name given by position is not overridden by a second one.
    const std::string positional = std::string(script).replace(
        script.find("te.placeholder((64,))"), 21, "te.placeholder((64,), \"float32\", \"In\")");
    EXPECT_EQ(renameStage(positional, "stage.py", programOf(positional), "In", "Input").error,
              "the statement at line 3 does not give the name as name=\"In\"");
}

TEST(StageEdit, DeleteRemovesTheStageItsPrimitivesAndItsArgument) {
    const Program program = programOf(kScript);
    EXPECT_EQ(deleteStage(kScript, "stage.py", program, "B").error,
              "stage 'B' is read by 'C': change or delete 'C' first");
    // The only output: what it reads is the output then.
    const EditResult c = deleteStage(kScript, "stage.py", program, "C");
    ASSERT_TRUE(c.ok()) << c.error;
    EXPECT_NE(c.script.find("s = te.create_schedule(B.op)\n"), std::string::npos) << c.script;
    EXPECT_NE(c.script.find("tvm.lower(s, [A, U], simple_mode=True)"), std::string::npos);
    const EditResult unused = deleteStage(kScript, "stage.py", program, "U");
    ASSERT_TRUE(unused.ok()) << unused.error;
    EXPECT_EQ(unused.script.find("U = "), std::string::npos);
    EXPECT_NE(unused.script.find("tvm.lower(s, [A, C], simple_mode=True)"), std::string::npos);
    // Deleting what was added gives the script back; an extra output's primitives go too.
    const std::string withD = added(kScript, compute("D", {"64"}, "C[i] * 2"));
    EXPECT_EQ(deleteStage(withD, "stage.py", programOf(withD), "D").script, kScript);
    const std::string withE =
        added(kScript, compute("E", {"64"}, "A[i] - 1")) + "s[E].vectorize(E.op.axis[0])\n";
    const EditResult e = deleteStage(withE, "stage.py", programOf(withE), "E");
    ASSERT_TRUE(e.ok()) << e.error;
    EXPECT_EQ(e.script, kScript);
}

TEST(StageEdit, StatementsSharingALineKeepTheirNeighbours) {
    const std::string script = added(kScript, compute("E", {"64"}, "A[i] - 1")) +
                               "s[E].vectorize(E.op.axis[0]); s[C].parallel(C.op.axis[0])\n";
    const EditResult e = deleteStage(script, "stage.py", programOf(script), "E");
    ASSERT_TRUE(e.ok()) << e.error;
    EXPECT_EQ(e.script, std::string(kScript) + "s[C].parallel(C.op.axis[0])\n");
}

TEST(StageEdit, RenameNeverCapturesANameOfTheScript) {
    const std::string script =
        std::string(kScript) + "def report(t):\n    x = t.shape\n    return B.shape, x\n";
    EXPECT_EQ(renameStage(script, "stage.py", programOf(script), "B", "x").error,
              "the script already uses the name 'x'");
    // `op_name="B"` is not the stage's name= argument.
    const std::string tagged = std::string(kScript).replace(
        std::string(kScript).find("name=\"B\")"), 9, "name=\"B\", tag=\"op_name='B'\")");
    const EditResult renamed = renameStage(tagged, "stage.py", programOf(tagged), "B", "Bx");
    ASSERT_TRUE(renamed.ok()) << renamed.error;
    EXPECT_NE(renamed.script.find("name=\"Bx\", tag=\"op_name='B'\""), std::string::npos)
        << renamed.script;
}

TEST(StageEdit, BadInputIsRefusedWithTheReasonAndNothingWritten) {
    const Program program = programOf(kScript);
    EXPECT_EQ(addStage(kScript, "stage.py", program, compute("B", {"64"}, "A[i]")).error,
              "the script already uses the name 'B'");
    EXPECT_EQ(addStage(kScript, "stage.py", program, compute("2x", {"64"}, "A[i]")).error,
              "the stage name '2x' is not a Python name");
    EXPECT_EQ(addStage(kScript, "stage.py", program, compute("D", {}, "A[i]")).error,
              "give the shape of 'D' (e.g. 64, 64)");
    const EditResult bad = addStage(kScript, "stage.py", program, compute("D", {"64"}, "A[i] +"));
    EXPECT_FALSE(bad.ok());
    EXPECT_EQ(bad.error, "'A[i] +' is not a Python expression (SyntaxError: invalid syntax)");
    // Valid Python that is not valid TE: the script's own error, from the check run.
    const EditResult wrong = addStage(kScript, "stage.py", program, compute("D", {"64"}, "Q[i]"));
    EXPECT_NE(wrong.error.find("the edited script fails: stage.py:8: error: NameError: name 'Q' "
                               "is not defined"),
              std::string::npos)
        << wrong.error;
    EXPECT_TRUE(bad.script.empty());
}

} // namespace
} // namespace bs::script
