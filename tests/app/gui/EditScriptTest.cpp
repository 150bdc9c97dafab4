// The Python text of schedule edits (edit/ScheduleEdit.h, edit/PythonNames.h), on programs built
// in C++ with the script lines the Python front end would record, so every expected line can be
// written out exactly.
#include "GuiTestSupport.h"

#include "edit/PythonNames.h"
#include "edit/ScheduleEdit.h"
#include "ir/Op.h"
#include "te/Compute.h"

#include <QtTest>

namespace bs::gui::test {

namespace {

/// The script the program below pretends to come from (line numbers matter).
const char *const kScript = R"(import tvm
from tvm import te

A = te.placeholder((64, 64), name="A")
B = te.compute((64, 64), lambda i, j: A[i, j] + 1, name="B")
C = te.compute((64, 64),
               lambda i, j: B[i, j] * 2, name="C")
s = te.create_schedule(C.op)
i, j = s[C].op.axis
xo, xi = s[C].split(i, factor=8)
tx = te.thread_axis("threadIdx.x")
)";

SourceLocation at(int line) {
    return SourceLocation{"edit.py", line};
}

/// kScript's program: C's i split by 8 (line 10); B's i split with no known line.
Program scriptProgram() {
    Tensor A, B, C;
    {
        ScopedSourceLocation here(at(4));
        A = placeholder({64, 64}, DataType::float32(), "A");
    }
    {
        ScopedSourceLocation here(at(5));
        B = compute({64, 64},
                    [&](const std::vector<Var> &v) {
                        return A({v[0], v[1]});
                    },
                    "B", "", {"i", "j"});
    }
    {
        ScopedSourceLocation here(at(7)); // the second line of C's statement
        C = compute({64, 64},
                    [&](const std::vector<Var> &v) {
                        return B({v[0], v[1]});
                    },
                    "C", "", {"i", "j"});
    }
    Schedule s;
    {
        ScopedSourceLocation here(at(8));
        s = createSchedule(C.op);
    }
    {
        ScopedSourceLocation here(at(10));
        s[C].split(C.op.as<ComputeOpNode>()->axis[0], makeConst(DataType::int32(), int64_t(8)));
    }
    s[B].split(B.op.as<ComputeOpNode>()->axis[0], makeConst(DataType::int32(), int64_t(4)));
    return Program{s, {A, C}, true};
}

ScheduleEdit edit(EditKind kind, const QString &stage, const QString &iterVar = QString()) {
    ScheduleEdit e;
    e.kind = kind;
    e.stage = stage;
    e.iterVar = iterVar;
    return e;
}

QString write(const ScheduleEdit &e, const QString &script = QString::fromLatin1(kScript)) {
    const EditText text = writeEdit(script, scriptProgram(), e);
    return text.ok() ? text.lines : QStringLiteral("error: ") + text.error;
}

} // namespace

class EditScriptTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void splitNamesItsResultsAfterTheLoop();
    void splitOfARootAxisUsesTheUnpackedName();
    void reassignedNameFallsBackToAStableExpression();
    void loopWithoutAScriptLineIsALeafIndex();
    void fuseAndReorderUseTheNeighbourLoops();
    void bindReusesTheScriptsThreadAxis();
    void computeAtNamesTheTargetStageAndLoop();
    void stageEditsAndCaches();
    void freshNamesAvoidTheScriptsIdentifiers();
    void illegalEditsAreRefusedWithAReason();
    void writingLeavesTheProgramUnchanged();
    void scheduleWithoutAVariableCannotBeEdited();
    void assignedNamesOfStatements();
    void appendLinesEndsThePreviousLine();
};

void EditScriptTest::splitNamesItsResultsAfterTheLoop() {
    ScheduleEdit e = edit(EditKind::Split, QStringLiteral("C"), QStringLiteral("i.inner"));
    e.factor = 4;
    QCOMPARE(write(e), QStringLiteral("i_inner_outer, i_inner_inner = s[C].split(xi, factor=4)\n"));
}

void EditScriptTest::splitOfARootAxisUsesTheUnpackedName() {
    ScheduleEdit e = edit(EditKind::Split, QStringLiteral("C"), QStringLiteral("j"));
    e.factor = 16;
    QCOMPARE(write(e), QStringLiteral("j_outer, j_inner = s[C].split(j, factor=16)\n"));
}

void EditScriptTest::reassignedNameFallsBackToAStableExpression() {
    const QString script =
        QString::fromLatin1(kScript) + QStringLiteral("for j in range(2):\n    pass\nxo += 0\n");
    QCOMPARE(write(edit(EditKind::Vectorize, QStringLiteral("C"), QStringLiteral("j")), script),
             QStringLiteral("s[C].vectorize(s[C].op.axis[1])\n"));
    QCOMPARE(write(edit(EditKind::Unroll, QStringLiteral("C"), QStringLiteral("i.outer")), script),
             QStringLiteral("s[C].unroll(s[C].leaf_iter_vars[0])\n"));
}

void EditScriptTest::loopWithoutAScriptLineIsALeafIndex() {
    QCOMPARE(write(edit(EditKind::Parallel, QStringLiteral("B"), QStringLiteral("i.outer"))),
             QStringLiteral("s[B].parallel(s[B].leaf_iter_vars[0])\n"));
}

void EditScriptTest::fuseAndReorderUseTheNeighbourLoops() {
    QCOMPARE(write(edit(EditKind::Fuse, QStringLiteral("C"), QStringLiteral("i.outer"))),
             QStringLiteral("i_outer_i_inner_fused = s[C].fuse(xo, xi)\n"));
    QCOMPARE(write(edit(EditKind::MoveOut, QStringLiteral("C"), QStringLiteral("j"))),
             QStringLiteral("s[C].reorder(j, xi)\n"));
    QCOMPARE(write(edit(EditKind::MoveIn, QStringLiteral("C"), QStringLiteral("i.outer"))),
             QStringLiteral("s[C].reorder(xi, xo)\n"));
}

void EditScriptTest::bindReusesTheScriptsThreadAxis() {
    ScheduleEdit e = edit(EditKind::Bind, QStringLiteral("C"), QStringLiteral("i.inner"));
    e.thread = QStringLiteral("threadIdx.x");
    QCOMPARE(write(e), QStringLiteral("s[C].bind(xi, tx)\n"));
    e.thread = QStringLiteral("blockIdx.x");
    e.iterVar = QStringLiteral("i.outer");
    QCOMPARE(write(e), QStringLiteral("s[C].bind(xo, te.thread_axis(\"blockIdx.x\"))\n"));
    // Without `from tvm import te` the call goes through tvm, imported first if need be.
    QString script = QString::fromLatin1(kScript);
    script.replace(QStringLiteral("from tvm import te"), QStringLiteral("from tvm import tir"));
    QCOMPARE(write(e, script),
             QStringLiteral("s[C].bind(xo, tvm.te.thread_axis(\"blockIdx.x\"))\n"));
    script.replace(QStringLiteral("import tvm\n"), QStringLiteral("\n"));
    QCOMPARE(write(e, script),
             QStringLiteral("import tvm\ns[C].bind(xo, tvm.te.thread_axis(\"blockIdx.x\"))\n"));
}

void EditScriptTest::computeAtNamesTheTargetStageAndLoop() {
    ScheduleEdit e = edit(EditKind::ComputeAt, QStringLiteral("B"));
    e.targetStage = QStringLiteral("C");
    e.targetIterVar = QStringLiteral("i.outer");
    QCOMPARE(write(e), QStringLiteral("s[B].compute_at(s[C], xo)\n"));
    QCOMPARE(e.description(), QStringLiteral("compute_at B → C.i.outer"));
}

void EditScriptTest::stageEditsAndCaches() {
    QCOMPARE(write(edit(EditKind::ComputeInline, QStringLiteral("B"))),
             QStringLiteral("s[B].compute_inline()\n"));
    QCOMPARE(write(edit(EditKind::ComputeRoot, QStringLiteral("B"))),
             QStringLiteral("s[B].compute_root()\n"));
    ScheduleEdit e = edit(EditKind::SetScope, QStringLiteral("B"));
    e.scope = QStringLiteral("shared");
    QCOMPARE(write(e), QStringLiteral("s[B].set_scope(\"shared\")\n"));
    e.kind = EditKind::CacheRead;
    e.stage = QStringLiteral("A");
    QCOMPARE(write(e), QStringLiteral("A_shared = s.cache_read(A, \"shared\", [B])\n"));
    e.kind = EditKind::CacheWrite;
    e.stage = QStringLiteral("C");
    e.scope = QStringLiteral("local");
    QCOMPARE(write(e), QStringLiteral("C_local = s.cache_write(C, \"local\")\n"));
}

void EditScriptTest::freshNamesAvoidTheScriptsIdentifiers() {
    ScheduleEdit e = edit(EditKind::CacheWrite, QStringLiteral("C"));
    e.scope = QStringLiteral("local");
    const QString script = QString::fromLatin1(kScript) + QStringLiteral("C_local = 1  # taken\n");
    QCOMPARE(write(e, script), QStringLiteral("C_local_2 = s.cache_write(C, \"local\")\n"));
    PythonNames names(script, scriptProgram());
    QCOMPARE(names.freshName(QStringLiteral("i.outer")), QStringLiteral("i_outer"));
    QCOMPARE(names.freshName(QStringLiteral("i.outer")), QStringLiteral("i_outer_2"));
    QCOMPARE(names.freshName(QStringLiteral("for")), QStringLiteral("for_2"));
    QCOMPARE(names.freshName(QStringLiteral("0k")), QStringLiteral("v0k"));
}

void EditScriptTest::illegalEditsAreRefusedWithAReason() {
    ScheduleEdit split = edit(EditKind::Split, QStringLiteral("C"), QStringLiteral("j"));
    QCOMPARE(write(split),
             QStringLiteral(
                 "error: split of 'j' in stage 'C': factor must be a positive integer, got 0"));
    QCOMPARE(write(edit(EditKind::Fuse, QStringLiteral("C"), QStringLiteral("j"))),
             QStringLiteral("error: 'j' is the innermost loop of stage 'C'"));
    QCOMPARE(write(edit(EditKind::MoveOut, QStringLiteral("C"), QStringLiteral("i.outer"))),
             QStringLiteral("error: 'i.outer' is the outermost loop of stage 'C'"));
    QCOMPARE(write(edit(EditKind::Vectorize, QStringLiteral("C"), QStringLiteral("i"))),
             QStringLiteral("error: 'i' is not a loop of stage 'C'"));
    QCOMPARE(write(edit(EditKind::ComputeInline, QStringLiteral("X"))),
             QStringLiteral("error: no stage 'X' in the schedule"));
    QCOMPARE(write(edit(EditKind::ComputeRoot, QStringLiteral("A"))),
             QStringLiteral("error: 'A' is a placeholder: it has no loops to schedule"));
    ScheduleEdit scope = edit(EditKind::SetScope, QStringLiteral("B"));
    scope.scope = QStringLiteral("shared\")\nimport os");
    QVERIFY(write(scope).startsWith(QStringLiteral("error: invalid storage scope")));
    // The engine's own check, met on the dry run: an output stays at the root.
    ScheduleEdit at = edit(EditKind::ComputeAt, QStringLiteral("C"));
    at.targetStage = QStringLiteral("B");
    at.targetIterVar = QStringLiteral("j");
    const QString refused = write(at);
    QVERIFY2(refused.startsWith(QStringLiteral("error: compute_at of stage 'C'")) &&
                 refused.contains(QStringLiteral("is an output")),
             qPrintable(refused));
}

void EditScriptTest::writingLeavesTheProgramUnchanged() {
    const Program program = scriptProgram();
    const Stage c = program.schedule.stages().back();
    const size_t leaves = c->leafIterVars.size();
    const size_t stages = program.schedule.stages().size();
    ScheduleEdit split = edit(EditKind::Split, QStringLiteral("C"), QStringLiteral("j"));
    split.factor = 2;
    QVERIFY(writeEdit(QString::fromLatin1(kScript), program, split).ok());
    ScheduleEdit cache = edit(EditKind::CacheWrite, QStringLiteral("C"));
    cache.scope = QStringLiteral("local");
    QVERIFY(writeEdit(QString::fromLatin1(kScript), program, cache).ok());
    QCOMPARE(c->leafIterVars.size(), leaves);
    QCOMPARE(program.schedule.stages().size(), stages);
}

void EditScriptTest::scheduleWithoutAVariableCannotBeEdited() {
    QString script = QString::fromLatin1(kScript);
    script.replace(QStringLiteral("s = te.create_schedule(C.op)"),
                   QStringLiteral("print(te.create_schedule(C.op))"));
    QCOMPARE(
        write(edit(EditKind::ComputeInline, QStringLiteral("B")), script),
        QStringLiteral("error: the schedule made at line 8 is not kept in a top-level variable "
                       "(write `s = te.create_schedule(...)`)"));
}

void EditScriptTest::assignedNamesOfStatements() {
    QCOMPARE(assignedNames(QStringLiteral("a, (b, c) = f(x=1)")), QStringList({"a", "b", "c"}));
    QCOMPARE(assignedNames(QStringLiteral("x += 1")), QStringList({"x"}));
    QCOMPARE(assignedNames(QStringLiteral("x //= 2")), QStringList({"x"}));
    QCOMPARE(assignedNames(QStringLiteral("for i, j in pairs:")), QStringList({"i", "j"}));
    QCOMPARE(assignedNames(QStringLiteral("import tvm.te as te2, numpy")),
             QStringList({"te2", "numpy"}));
    QCOMPARE(assignedNames(QStringLiteral("def tile(x):")), QStringList({"tile"}));
    QCOMPARE(assignedNames(QStringLiteral("f(x=1)")), QStringList());
    QCOMPARE(assignedNames(QStringLiteral("y == 2 and z <= 3")), QStringList());
    QCOMPARE(assignedNames(QStringLiteral("s[C].op = \"a = b\"")), QStringList());
}

void EditScriptTest::appendLinesEndsThePreviousLine() {
    QCOMPARE(appendLines(QStringLiteral("a = 1"), QStringLiteral("b = 2\n")),
             QStringLiteral("a = 1\nb = 2\n"));
    QCOMPARE(appendLines(QStringLiteral("a = 1\n"), QStringLiteral("b = 2\n")),
             QStringLiteral("a = 1\nb = 2\n"));
}

BS_GUI_TEST_SUITE(EditScriptTest);

} // namespace bs::gui::test

#include "EditScriptTest.moc"
