/// \file
/// Running a script and analysing its current program, for the subcommands that show an
/// analysis (lower, bounds, trace, alloc, graph, codegen, run).
#pragma once

#include "analysis/Analysis.h"

#ifdef BOUNDSCOPE_WITH_PYTHON
#include "script/ScriptRunner.h"
#endif

#include <optional>
#include <string>

namespace bs::cli {

/// Runs `file` in the embedded interpreter (its output goes to stderr, so stdout holds only the
/// command's result) and analyses the program it defines. On failure prints one message
/// (`FILE:LINE: error: MESSAGE`) and sets `exitCode`; returns nullopt.
std::optional<Analysis> analyzeScript(const std::string& file, const AnalysisOptions& options,
                                      int* exitCode);

/// Builds the `.tc` file `file` (tc/Tc.h) as its default schedule, printing its warnings
/// (`FILE:LINE: warning: MESSAGE`) on stderr. On failure prints one `FILE:LINE: error: MESSAGE`
/// and returns nullopt.
std::optional<Program> loadTcFile(const std::string& file);

#ifdef BOUNDSCOPE_WITH_PYTHON
/// Runs the script `file` (its output to stderr when `showOutput`) and returns the program it
/// defines, unanalysed (its engine code in the script's names: Program::inSourceNames). On
/// failure prints one message and sets `exitCode`; returns nullopt.
std::optional<Program> runScriptProgram(const std::string& file, int* exitCode, bool showOutput);

/// After a script that ran out of time: `boundscope: note: --timeout SECONDS sets the limit`.
void noteTimeout(const script::ScriptResult& result);
#endif

/// Prints `d` as `FILE:LINE: error: MESSAGE` on stderr, `FILE: error: MESSAGE` when it has no
/// location of its own (e.g. an error of the engine after the script ran).
void printDiagnostic(const Diagnostic& d, const std::string& file);
/// The same for an error of the engine's work on `program` (a run, a report): its fix in the
/// script's names (Program::inSourceNames).
void printDiagnostic(const Diagnostic& d, const std::string& file, const Program& program);

/// Parses a rules name already checked by the option parser.
BoundRules rulesFromName(const std::string& name);

} // namespace bs::cli
