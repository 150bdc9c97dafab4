#include "ScriptAnalysis.h"

#include "support/ScriptFile.h"

#include "Commands.h"

#ifdef BOUNDSCOPE_WITH_PYTHON
#include "script/RecordedRun.h"
#include "script/ScriptRunner.h"
#endif

#include "analysis/TcSource.h"

#include <fstream>
#include <iostream>
#include <sstream>

namespace bs::cli {

BoundRules rulesFromName(const std::string& name) {
    if (isOldSeedRulesName(name))
        std::cerr << "boundscope: note: " << oldSeedRulesNote() << '\n';
    return parseBoundRules(name).value_or(BoundRules::Tvm);
}

void printDiagnostic(const Diagnostic& d, const std::string& file) {
    Diagnostic shown = d;
    if (!shown.location.known())
        shown.location.file = file;
    std::string text = shown.toString();
    if (!d.location.known())
        text = file + ": " + Diagnostic{d.message, SourceLocation{}, d.severity}.toString();
    std::cerr << text << '\n';
    if (!d.fix.empty()) {
        std::string where = shown.location.known() ? shown.location.toString() : file;
        std::cerr << where << ": note: fix: " << d.fix << '\n';
    }
}

void printDiagnostic(const Diagnostic& d, const std::string& file, const Program& program) {
    Diagnostic inNames = d;
    inNames.fix = program.inSourceNamesOf(d.fix);
    printDiagnostic(inNames, file);
}

std::optional<Program> loadTcFile(const std::string& file) {
    std::string reason;
    const std::optional<std::string> source = readScriptFile(file, reason);
    if (!source) {
        printError("cannot open '" + file + "': " + reason);
        return std::nullopt;
    }
    try {
        Program program = tcSourceProgram(*source, file);
        for (const Diagnostic& warning : program.tcPrograms.front()->warnings)
            std::cerr << warning.toString() << '\n';
        return program;
    } catch (const UserError& e) {
        printDiagnostic(e.diagnostic(), file);
    }
    return std::nullopt;
}

namespace {

/// A `.tc` file (seed 003) needs no Python: its program is the default schedule of its outputs,
/// sizes left symbolic.
std::optional<Analysis> analyzeTcFile(const std::string& file, const AnalysisOptions& options,
                                      int* exitCode) {
    *exitCode = kExitFailure;
    std::optional<Program> program = loadTcFile(file);
    if (!program)
        return std::nullopt;
    Analysis analysis = analyze(*program, options);
    if (!analysis.ok()) {
        printDiagnostic(*analysis.error, file);
        return std::nullopt;
    }
    *exitCode = kExitOk;
    return analysis;
}

} // namespace

#ifdef BOUNDSCOPE_WITH_PYTHON
void noteTimeout(const script::ScriptResult& result) {
    if (result.status == script::ScriptStatus::TimedOut)
        std::cerr << "boundscope: note: --timeout SECONDS sets the limit (0: none); the default is "
                  << kDefaultScriptTimeoutSeconds << " s\n";
}

std::optional<Program> runScriptProgram(const std::string& file, int* exitCode, bool showOutput) {
    script::ScriptOptions scriptOptions;
    if (showOutput)
        scriptOptions.onOutput = [](script::OutputStream, const std::string& text) {
            std::cerr << text;
        };
    scriptOptions.timeout = scriptTimeLeft();
    scriptOptions.limitShown = scriptTimeout();
    script::ScriptRunner runner;
    Program program;
    script::ScriptResult result = script::runRecorded(
        runner, [&] { return runner.runFile(file, scriptOptions); }, &program);
    if (!result.ok()) {
        printDiagnostic(*result.diagnostic, file);
        noteTimeout(result);
        *exitCode = result.status == script::ScriptStatus::CannotOpen ? kExitUsage : kExitFailure;
        return std::nullopt;
    }
    *exitCode = kExitOk;
    return program;
}

std::optional<Analysis> analyzeScript(const std::string& file, const AnalysisOptions& options,
                                      int* exitCode) {
    if (!checkScriptReadable(file)) {
        *exitCode = kExitUsage;
        return std::nullopt;
    }
    if (isTcFileName(file))
        return analyzeTcFile(file, options, exitCode);
    std::optional<Program> program = runScriptProgram(file, exitCode, /*showOutput=*/true);
    if (!program)
        return std::nullopt;
    Analysis analysis = analyze(*program, options);
    if (!analysis.ok()) {
        printDiagnostic(*analysis.error, file);
        *exitCode = kExitFailure;
        return std::nullopt;
    }
    *exitCode = kExitOk;
    return analysis;
}
#else
std::optional<Analysis> analyzeScript(const std::string& file, const AnalysisOptions& options,
                                      int* exitCode) {
    if (isTcFileName(file)) {
        if (checkScriptReadable(file))
            return analyzeTcFile(file, options, exitCode);
        *exitCode = kExitUsage;
        return std::nullopt;
    }
    *exitCode = pythonNotBuilt("boundscope");
    return std::nullopt;
}
#endif

} // namespace bs::cli
