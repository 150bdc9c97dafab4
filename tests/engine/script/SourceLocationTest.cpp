#include "analysis/Analysis.h"
#include "ir/Expr.h"
#include "ir/Printer.h"
#include "script/RecordedRun.h"
#include "script/ScriptRunner.h"
#include "script/bindings/Casters.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

using namespace bs;
using namespace bs::script;
namespace py = pybind11;

namespace {

std::string outcome(const ScriptResult& result) {
    return result.diagnostic ? result.diagnostic->toString() : std::string("ok");
}

/// The engine object the last script stored in global `name`, read on the Python thread.
template <typename Handle> Handle scriptGlobal(ScriptRunner& runner, const char* name) {
    Handle value;
    runner.withGlobals([&](const py::dict& globals) { value = globals[name].cast<Handle>(); });
    return value;
}

} // namespace

TEST(SourceLocation, IterVarRemembersTheScriptLineThatCreatedIt) {
    ScriptRunner runner;
    ScriptResult r =
        runner.runSource("import tvm\n"
                         "\n"
                         "k = tvm.tir.IterVar((0, 16), 'k', tvm.tir.IterVar.CommReduce)\n",
                         "axes.py");
    ASSERT_TRUE(r.ok()) << outcome(r);
    IterVar k = scriptGlobal<IterVar>(runner, "k");
    ASSERT_TRUE(k.defined());
    EXPECT_EQ(k->location.file, "axes.py");
    EXPECT_EQ(k->location.line, 3);
    EXPECT_EQ(k->iterType, IterVarType::CommReduce);
}

TEST(SourceLocation, CallInsideAFunctionGetsTheInnermostScriptLine) {
    ScriptRunner runner;
    ScriptResult r = runner.runSource("import boundscope\n"
                                      "def make():\n"
                                      "    return boundscope._core._current_location()\n"
                                      "where = make()\n"
                                      "print(where)\n",
                                      "nested.py");
    EXPECT_EQ(r.output, "('nested.py', 3)\n") << outcome(r);
}

TEST(SourceLocation, CallFromAnImportedModuleGetsTheScriptLine) {
    // The engine links objects to the script the user edits: a helper module's frame is not it.
    auto dir = std::filesystem::temp_directory_path() / "bs_location_helper";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "bs_helper_module.py")
        << "import boundscope\ndef where():\n    return boundscope._core._current_location()\n";
    ScriptRunner runner;
    std::string script = (dir / "main.py").string();
    ScriptResult r = runner.runSource("import bs_helper_module\n"
                                      "\n"
                                      "print(bs_helper_module.where()[1])\n",
                                      script);
    EXPECT_EQ(r.output, "3\n") << outcome(r);
    std::filesystem::remove_all(dir);
}

TEST(SourceLocation, IsUnknownAgainBetweenCalls) {
    // The call guard restores the location it replaced, so engine work done on the Python
    // thread outside a call from the script is attributed to no line.
    ScriptRunner runner;
    ASSERT_TRUE(runner.runSource("import tvm\nx = tvm.tir.const(1) + 2\n", "quiet.py").ok());
    bool known = true;
    runner.withGlobals([&](const py::dict&) { known = currentSourceLocation().known(); });
    EXPECT_FALSE(known);
}

namespace {

/// Ex. 5 of the seed with a cache_read, an annotation and a thread binding: one object of each
/// kind the GUI links to a line.
const char* kScheduledScript = "import tvm\n"                                                   // 1
                               "from tvm import te\n"                                           // 2
                               "A = te.placeholder((64, 64), name='A')\n"                       // 3
                               "B = te.compute((64, 64), lambda i, j: A[i, j] + 1, name='B')\n" // 4
                               "C = te.compute((64, 64), lambda i, j: B[i, j] * 2, name='C')\n" // 5
                               "s = te.create_schedule(C.op)\n"                                 // 6
                               "xo, xi = s[C].split(C.op.axis[0], factor=8)\n"                  // 7
                               "s[B].compute_at(s[C], xo)\n"                                    // 8
                               "AA = s.cache_read(A, 'local', [B])\n"                           // 9
                               "s[C].vectorize(C.op.axis[1])\n"  // 10
                               "f = s[B].fuse(*s[B].op.axis)\n"; // 11

const Stage& stageNamed(const Schedule& sch, const std::string& name) {
    for (const Stage& s : sch.stages())
        if (s.name() == name)
            return s;
    throw std::runtime_error("no stage " + name);
}

} // namespace

TEST(SourceLocation, AnalysisKeepsTheScriptLineOfEveryScheduleObject) {
    ScriptRunner runner;
    Program program;
    ScriptResult r = runRecorded(
        runner, [&] { return runner.runSource(kScheduledScript, "sched.py"); }, &program);
    ASSERT_TRUE(r.ok()) << outcome(r);
    Analysis analysis = analyze(program);
    ASSERT_TRUE(analysis.ok()) << analysis.error->toString();
    const Schedule& sch = analysis.lowered->normalized;

    const Stage& c = stageNamed(sch, "C");
    const Stage& b = stageNamed(sch, "B");
    EXPECT_EQ(c->location.line, 6);
    EXPECT_EQ(stageNamed(sch, "A.local")->location.line, 9);
    EXPECT_EQ(b->attachLocation.line, 8);
    EXPECT_EQ(c.attrOf(c->op.as<ComputeOpNode>()->axis[1])->location.line, 10);
    // Every IterVar and relation has a line: the split's, the fuse's, and the compute's for
    // the root IterVars and for the rebases normalize() made outside any script call.
    std::map<std::string, int> lines;
    for (const Stage& s : sch.stages()) {
        for (const IterVar& iv : s->allIterVars) {
            EXPECT_TRUE(iv->location.known()) << s.name() << " " << iv->var.name();
            EXPECT_EQ(iv->location.file, "sched.py");
            lines[s.name() + ":" + iv->var.name()] = iv->location.line;
        }
        for (const IterVarRelation& rel : s->relations)
            EXPECT_TRUE(rel->location.known()) << s.name() << " " << toString(rel);
    }
    EXPECT_EQ(lines["C:i.outer"], 7);
    EXPECT_EQ(lines["C:i.inner"], 7);
    EXPECT_EQ(lines["B:i.j.fused"], 11);
    EXPECT_EQ(lines["A.local:ax0"], 9);
    EXPECT_EQ(c->relations.front()->location.line, 7);
    const IterVarRelation& rebase = c->relations.back();
    ASSERT_EQ(rebase.kind(), RelationKind::Rebase);
    EXPECT_EQ(rebase->location.line, 5);
    EXPECT_EQ(lines["C:j"], 5);
}
