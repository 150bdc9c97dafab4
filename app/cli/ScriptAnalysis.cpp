#include "ScriptAnalysis.h"

#include "Commands.h"

#ifdef BOUNDSCOPE_WITH_PYTHON
#include "script/ScriptRunner.h"
#endif

#include <iostream>

namespace bs::cli {

BoundRules rulesFromName(const std::string& name) {
    return parseBoundRules(name).value_or(BoundRules::Tvm);
}

namespace {

void printDiagnostic(const Diagnostic& d, const std::string& file) {
    Diagnostic shown = d;
    if (!shown.location.known())
        shown.location.file = file;
    std::string text = shown.toString();
    if (!d.location.known())
        text = file + ": " + Diagnostic{d.message, SourceLocation{}, d.severity}.toString();
    std::cerr << text << '\n';
}

} // namespace

#ifdef BOUNDSCOPE_WITH_PYTHON
std::optional<Analysis> analyzeScript(const std::string& file, const AnalysisOptions& options,
                                      int* exitCode) {
    if (!checkScriptReadable(file)) {
        *exitCode = kExitUsage;
        return std::nullopt;
    }
    ProgramRecorder::current().reset();
    script::ScriptOptions scriptOptions;
    scriptOptions.onOutput = [](script::OutputStream, const std::string& text) { std::cerr << text; };
    script::ScriptRunner runner;
    script::ScriptResult result = runner.runFile(file, scriptOptions);
    if (!result.ok()) {
        printDiagnostic(*result.diagnostic, file);
        *exitCode = result.status == script::ScriptStatus::CannotOpen ? kExitUsage : kExitFailure;
        return std::nullopt;
    }
    Program program = ProgramRecorder::current().program();
    Analysis analysis = analyze(program, options);
    if (!analysis.ok()) {
        printDiagnostic(*analysis.error, file);
        *exitCode = kExitFailure;
        return std::nullopt;
    }
    *exitCode = kExitOk;
    return analysis;
}
#else
std::optional<Analysis> analyzeScript(const std::string&, const AnalysisOptions&, int* exitCode) {
    std::cerr << "boundscope: Python support was not built (configure with "
                 "-DBOUNDSCOPE_WITH_PYTHON=ON, which needs python3-dev and pybind11-dev)\n";
    *exitCode = kExitUnavailable;
    return std::nullopt;
}
#endif

} // namespace bs::cli
