#include "analysis/Analysis.h"

#include "analysis/ScheduleFixes.h"

namespace bs {

Analysis analyze(const Program& program, const AnalysisOptions& options) {
    Analysis analysis;
    analysis.program = program;
    analysis.options = options;
    if (!program.defined()) {
        analysis.error = Diagnostic{"the script creates no schedule (call te.create_schedule)",
                                    SourceLocation{}, Severity::Error};
        return analysis;
    }
    try {
        LowerOptions lowerOptions;
        lowerOptions.rules = options.rules;
        lowerOptions.keepTrivialLoops = options.keepTrivialLoops;
        lowerOptions.scalarArgs = program.scalarArgs;
        lowerOptions.freeScalarsAsParams = true;
        lowerOptions.userPasses = program.userPasses;
        analysis.lowered = lower(program.schedule, program.args, lowerOptions);
    } catch (const UserError& e) {
        analysis.error = e.diagnostic();
        if (analysis.error->fix.empty())
            analysis.error->fix = findScheduleFix(program, *analysis.error, options.rules);
        // An error found after the script ran (an attach TVM refuses when it lowers): its fix
        // in the script's names, as for an error the script raised.
        analysis.error->fix = program.inSourceNamesOf(analysis.error->fix);
    }
    return analysis;
}

Analysis failedAnalysis(const Program& program, const AnalysisOptions& options, Diagnostic error) {
    Analysis analysis;
    analysis.program = program;
    analysis.options = options;
    analysis.error = std::move(error);
    return analysis;
}

} // namespace bs
