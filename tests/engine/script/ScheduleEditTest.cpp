// Schedule edits written into the script (script/edit/ScheduleEdit.h, edit/PythonNames.h), on
// programs built in C++ with the script lines the Python front end would record, so every
// expected line can be written out exactly. The placement rules have golden tests through
// `boundscope edit` (tests/app/cli/golden/edit).
#include "script/edit/ScheduleEdit.h"
#include "ir/Op.h"
#include "script/edit/PythonNames.h"
#include "script/edit/SourceOutline.h"
#include "te/Compute.h"
#include "te/Reduce.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace bs::script {
namespace {

/// `text` with the first `from` replaced by `to`.
std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const size_t at = text.find(from);
    return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

bool startsWith(const std::string& text, const std::string& prefix) {
    return text.rfind(prefix, 0) == 0;
}

/// The script the program below pretends to come from (line numbers matter).
const char* const kScript = R"(import tvm
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

SourceLocation at(int line) { return SourceLocation{"edit.py", line}; }

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
                    [&](const std::vector<Var>& v) {
                        return A({v[0], v[1]});
                    },
                    "B", "", {"i", "j"});
    }
    {
        ScopedSourceLocation here(at(7)); // the second line of C's statement
        C = compute({64, 64},
                    [&](const std::vector<Var>& v) {
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

ScheduleEdit edit(EditKind kind, const std::string& stage, const std::string& iterVar = "") {
    ScheduleEdit e;
    e.kind = kind;
    e.stage = stage;
    e.iterVar = iterVar;
    return e;
}

/// The program is built here, not by running the script: the edited script is not run.
EditOptions withoutRunning() {
    EditOptions options;
    options.verify = false;
    return options;
}

/// The lines `e` writes into `script`, or `error: ...`.
std::string write(const ScheduleEdit& e, const std::string& script = kScript) {
    const EditResult result = applyEdit(script, "edit.py", scriptProgram(), e, withoutRunning());
    return result.ok() ? result.lines : "error: " + result.error;
}

TEST(ScheduleEdit, SplitNamesItsResultsAfterTheLoop) {
    ScheduleEdit e = edit(EditKind::Split, "C", "i.inner");
    e.factor = 4;
    EXPECT_EQ(write(e), "i_inner_outer, i_inner_inner = s[C].split(xi, factor=4)\n");
}

TEST(ScheduleEdit, SplitOfARootAxisUsesTheUnpackedName) {
    ScheduleEdit e = edit(EditKind::Split, "C", "j");
    e.factor = 16;
    EXPECT_EQ(write(e), "j_outer, j_inner = s[C].split(j, factor=16)\n");
}

TEST(ScheduleEdit, ReassignedNameFallsBackToAStableExpression) {
    const std::string script = std::string(kScript) + "for j in range(2):\n    pass\nxo += 0\n";
    EXPECT_EQ(write(edit(EditKind::Vectorize, "C", "j"), script),
              "s[C].vectorize(s[C].op.axis[1])\n");
    EXPECT_EQ(write(edit(EditKind::Unroll, "C", "i.outer"), script),
              "s[C].unroll(s[C].leaf_iter_vars[0])\n");
}

TEST(ScheduleEdit, LoopWithoutAScriptLineIsALeafIndex) {
    EXPECT_EQ(write(edit(EditKind::Parallel, "B", "i.outer")),
              "s[B].parallel(s[B].leaf_iter_vars[0])\n");
}

TEST(ScheduleEdit, FuseAndReorderUseTheNeighbourLoops) {
    EXPECT_EQ(write(edit(EditKind::Fuse, "C", "i.outer")),
              "i_outer_i_inner_fused = s[C].fuse(xo, xi)\n");
    EXPECT_EQ(write(edit(EditKind::MoveOut, "C", "j")), "s[C].reorder(j, xi)\n");
    EXPECT_EQ(write(edit(EditKind::MoveIn, "C", "i.outer")), "s[C].reorder(xi, xo)\n");
}

TEST(ScheduleEdit, BindReusesTheScriptsThreadAxis) {
    ScheduleEdit e = edit(EditKind::Bind, "C", "i.inner");
    e.thread = "threadIdx.x";
    EXPECT_EQ(write(e), "s[C].bind(xi, tx)\n");
    e.thread = "blockIdx.x";
    e.iterVar = "i.outer";
    EXPECT_EQ(write(e), "s[C].bind(xo, te.thread_axis(\"blockIdx.x\"))\n");
    // Without `from tvm import te` the call goes through tvm, imported first if need be.
    std::string script = std::string(kScript);
    script = replaced(script, "from tvm import te", "from tvm import tir");
    EXPECT_EQ(write(e, script), "s[C].bind(xo, tvm.te.thread_axis(\"blockIdx.x\"))\n");
    script = replaced(script, "import tvm\n", "\n");
    EXPECT_EQ(write(e, script), "import tvm\ns[C].bind(xo, tvm.te.thread_axis(\"blockIdx.x\"))\n");
}

TEST(ScheduleEdit, ComputeAtNamesTheTargetStageAndLoop) {
    ScheduleEdit e = edit(EditKind::ComputeAt, "B");
    e.targetStage = "C";
    e.targetIterVar = "i.outer";
    EXPECT_EQ(write(e), "s[B].compute_at(s[C], xo)\n");
    EXPECT_EQ(e.description(), "compute_at B → C.i.outer");
}

TEST(ScheduleEdit, StageEditsAndCaches) {
    // B's loop i is split: inlining it would not lower (TVM stops there too), so it is refused
    // with lowering's reason rather than written.
    EXPECT_TRUE(startsWith(write(edit(EditKind::ComputeInline, "B")),
                           "error: compute_inline B would break the schedule: 'B' is inlined, "
                           "but its loop 'i' was split"))
        << write(edit(EditKind::ComputeInline, "B"));
    EXPECT_EQ(write(edit(EditKind::ComputeRoot, "B")), "s[B].compute_root()\n");
    ScheduleEdit e = edit(EditKind::SetScope, "B");
    e.scope = "shared";
    EXPECT_EQ(write(e), "s[B].set_scope(\"shared\")\n");
    e.kind = EditKind::CacheRead;
    e.stage = "A";
    EXPECT_EQ(write(e), "A_shared = s.cache_read(A, \"shared\", [B])\n");
    e.kind = EditKind::CacheWrite;
    e.stage = "C";
    e.scope = "local";
    EXPECT_EQ(write(e), "C_local = s.cache_write(C, \"local\")\n");
}

TEST(ScheduleEdit, FreshNamesAvoidTheScriptsIdentifiers) {
    ScheduleEdit e = edit(EditKind::CacheWrite, "C");
    e.scope = "local";
    const std::string script = std::string(kScript) + "C_local = 1  # taken\n";
    EXPECT_EQ(write(e, script), "C_local_2 = s.cache_write(C, \"local\")\n");
    const SourceOutline outline = outlineSource(script, "edit.py");
    const Program program = scriptProgram();
    PythonNames names(outline, program);
    EXPECT_EQ(names.freshName("i.outer"), "i_outer");
    EXPECT_EQ(names.freshName("i.outer"), "i_outer_2");
    EXPECT_EQ(names.freshName("for"), "for_2");
    EXPECT_EQ(names.freshName("0k"), "v0k");
}

TEST(ScheduleEdit, IllegalEditsAreRefusedWithAReason) {
    ScheduleEdit split = edit(EditKind::Split, "C", "j");
    EXPECT_EQ(
        write(split),
        std::string("error: split of 'j' in stage 'C': give a positive factor or nparts, got 0"));
    EXPECT_EQ(write(edit(EditKind::Fuse, "C", "j")),
              "error: 'j' is the innermost loop of stage 'C'");
    EXPECT_EQ(write(edit(EditKind::MoveOut, "C", "i.outer")),
              "error: 'i.outer' is the outermost loop of stage 'C'");
    EXPECT_EQ(write(edit(EditKind::Vectorize, "C", "i")),
              "error: 'i' is not a loop of stage 'C' (its loops: i.outer, i.inner, j)");
    EXPECT_EQ(write(edit(EditKind::ComputeInline, "X")), "error: no stage 'X' in the schedule");
    EXPECT_EQ(write(edit(EditKind::ComputeRoot, "A")),
              "error: 'A' is a placeholder: it has no loops to schedule");
    ScheduleEdit scope = edit(EditKind::SetScope, "B");
    scope.scope = "shared\")\nimport os";
    EXPECT_TRUE(startsWith(write(scope), "error: invalid storage scope"));
    // The engine's own check, met on the dry run: an output stays at the root.
    ScheduleEdit at = edit(EditKind::ComputeAt, "C");
    at.targetStage = "B";
    at.targetIterVar = "j";
    const std::string refused = write(at);
    EXPECT_TRUE(startsWith(refused, "error: compute_at of stage 'C'") &&
                refused.find("is an output") != std::string::npos)
        << refused;
}

TEST(ScheduleEdit, AnEditThatStrandsAnAttachedStageIsRefused) {
    // rfactor rebuilds C's loops: B, computed at C's i, would hang at a loop C no longer has
    // (lowering fails), so the edit is refused up front, with the stage and the loop named.
    Tensor A = placeholder({64, 64}, DataType::float32(), "A");
    Tensor B = compute({64, 64},
                       [&](const std::vector<Var>& v) {
                           return A({v[0], v[1]}) * 2;
                       },
                       "B", "", {"i", "j"});
    IterVar k = reduceAxis(Range(0, 64), "k");
    Tensor C = compute({64},
                       [&](const std::vector<Var>& v) {
                           return sum(B({v[0], k->var}), k);
                       },
                       "C", "", {"i"});
    Schedule s = createSchedule(C.op);
    s[B].computeAt(s[C], C.op.as<ComputeOpNode>()->axis[0]);
    const Program program{s, {A, C}, true};
    const std::string refused = checkEdit(program, edit(EditKind::Rfactor, "C", "k"));
    EXPECT_EQ(refused, "rfactor C.k would strand stage 'B': it is computed at 'i' of 'C', a loop "
                       "the edit replaces ('C' loops over ax0, k.v after it); compute 'B' "
                       "elsewhere first (compute_root), then rfactor");
    // Computed at the root, B does not stop it.
    Schedule root = createSchedule(C.op);
    EXPECT_EQ(checkEdit(Program{root, {A, C}, true}, edit(EditKind::Rfactor, "C", "k")), "");
}

TEST(ScheduleEdit, WritingLeavesTheProgramUnchanged) {
    const Program program = scriptProgram();
    const Stage c = program.schedule.stages().back();
    const size_t leaves = c->leafIterVars.size();
    const size_t stages = program.schedule.stages().size();
    ScheduleEdit split = edit(EditKind::Split, "C", "j");
    split.factor = 2;
    EXPECT_TRUE(applyEdit(kScript, "edit.py", program, split, withoutRunning()).ok());
    ScheduleEdit cache = edit(EditKind::CacheWrite, "C");
    cache.scope = "local";
    EXPECT_TRUE(applyEdit(kScript, "edit.py", program, cache, withoutRunning()).ok());
    EXPECT_EQ(c->leafIterVars.size(), leaves);
    EXPECT_EQ(program.schedule.stages().size(), stages);
}

TEST(ScheduleEdit, ScheduleWithoutAVariableCannotBeEdited) {
    std::string script = std::string(kScript);
    script = replaced(script, "s = te.create_schedule(C.op)", "print(te.create_schedule(C.op))");
    EXPECT_EQ(write(edit(EditKind::ComputeInline, "B"), script),
              std::string("error: the schedule made at line 8 is not kept in a top-level variable "
                          "(write `s = te.create_schedule(...)`)"));
}

TEST(ScheduleEdit, EditGoesAfterTheNamesItUsesAndKeepsTheRest) {
    ScheduleEdit e = edit(EditKind::ComputeAt, "B");
    e.targetStage = "C";
    e.targetIterVar = "i.outer";
    const EditResult result = applyEdit(kScript, "edit.py", scriptProgram(), e, withoutRunning());
    ASSERT_TRUE(result.ok()) << result.error;
    // B has no primitive in the script: after the split that names xo, the last statement
    // calling the schedule.
    EXPECT_EQ(result.line, 11);
    EXPECT_EQ(result.script, replaced(kScript, "tx = ", "s[B].compute_at(s[C], xo)\ntx = "));
    EXPECT_TRUE(result.replaced.empty());
}

TEST(ScheduleEdit, InsertedLinesTakeTheScriptsLineEndings) {
    std::string crlf;
    for (char c : std::string(kScript))
        crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    ScheduleEdit e = edit(EditKind::SetScope, "B");
    e.scope = "local";
    const EditResult result = applyEdit(crlf, "edit.py", scriptProgram(), e, withoutRunning());
    ASSERT_TRUE(result.ok()) << result.error;
    EXPECT_NE(
        result.script.find("xo, xi = s[C].split(i, factor=8)\r\ns[B].set_scope(\"local\")\r\n"),
        std::string::npos)
        << result.script;
    EXPECT_EQ(result.script.find("\n", 0), result.script.find("\r\n") + 1);
    EXPECT_EQ(std::count(result.script.begin(), result.script.end(), '\n'),
              std::count(result.script.begin(), result.script.end(), '\r'));
}

TEST(ScheduleEdit, LocationsInAnotherFileNameNoStatement) {
    // The program's objects were made at lines of edit.py; read as another file, no line of it
    // names them, so they get the expressions that hold anywhere.
    const SourceOutline outline = outlineSource(kScript, "other.py");
    const Program program = scriptProgram();
    const PythonNames names(outline, program, "other.py");
    EXPECT_FALSE(names.schedule().has_value());
    const Stage c = program.schedule.stages().back();
    EXPECT_EQ(names.tensor(c), "s.stages[2].op.output(0)");
    EXPECT_EQ(names.iterVar(c, c->leafIterVars[0]), "s.stages[2].leaf_iter_vars[0]");
    const PythonNames same(outline, program, "edit.py");
    EXPECT_EQ(same.tensor(c), "C");
}

TEST(ScheduleEdit, OutlineReadsStatementsWithCPythonsAst) {
    const SourceOutline outline =
        outlineSource("x = 1; s[C].split(i, factor=2)\nf(a,\n  b)  # é\n", "o.py");
    ASSERT_EQ(outline.statements.size(), 3u);
    EXPECT_EQ(outline.statements[1].primitive->stage, "C");
    EXPECT_EQ(outline.statements[1].primitive->keywords.at("factor"), "2");
    EXPECT_EQ(outline.statements[1].start, 7u);
    EXPECT_EQ(outline.statements[2].line, 2);
    EXPECT_EQ(outline.statements[2].endLine, 3);
    EXPECT_EQ(outline.statements[2].value, "f(a, b)");
    // `s[C]` reads s through a subscript, `f(a, ...)` hands a on whole.
    EXPECT_TRUE(outline.statements[1].reads("s"));
    EXPECT_FALSE(outline.statements[1].readsWhole("s"));
    EXPECT_TRUE(outline.statements[2].readsWhole("a"));
    EXPECT_EQ(outline.indexAt(3), 2);
    EXPECT_EQ(outline.indexAt(1), -1); // two statements: a line names neither
    try {
        outlineSource("x = (\n", "bad.py");
        FAIL() << "a syntax error is a UserError";
    } catch (const UserError& error) {
        EXPECT_EQ(error.diagnostic().location.file, "bad.py");
        EXPECT_EQ(error.diagnostic().message.rfind("SyntaxError: ", 0), 0u);
    }
}

} // namespace
} // namespace bs::script
