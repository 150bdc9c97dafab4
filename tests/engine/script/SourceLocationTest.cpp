#include "ir/Expr.h"
#include "script/ScriptRunner.h"
#include "script/bindings/Casters.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

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
    ScriptResult r = runner.runSource("import tvm\n"
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
