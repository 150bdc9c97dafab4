/// \file
/// One Analysis of a program: everything the CLI and the GUI show, computed by the engine in one
/// call (DESIGN.md: "each asks the engine for one Analysis of a script"): the normalized
/// schedule, the bounds and their trace under the chosen rules, and the lowered IR after every
/// pass, or the diagnostic that stopped it.
#pragma once

#include "analysis/Program.h"
#include "lower/Lower.h"

#include <optional>

namespace bs {

struct AnalysisOptions {
    BoundRules rules = BoundRules::Tvm;
    bool keepTrivialLoops = false;
};

struct Analysis {
    Program program;
    AnalysisOptions options;
    /// Set when lowering succeeded.
    std::optional<LowerResult> lowered;
    /// Set when the program could not be analysed (the message names the stage and problem).
    std::optional<Diagnostic> error;

    bool ok() const { return lowered.has_value(); }
};

/// Analyses `program`; never throws for user errors (they become `error`).
Analysis analyze(const Program& program, const AnalysisOptions& options = {});

/// The analysis of a program whose script failed with `error`: the program as built up to the
/// failing line, nothing inferred or lowered, so the views can show it with what failed marked.
Analysis failedAnalysis(const Program& program, const AnalysisOptions& options, Diagnostic error);

} // namespace bs
