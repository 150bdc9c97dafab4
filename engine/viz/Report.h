/// \file
/// A report to share (issue 18, item 4): one self-contained HTML file of an analysis, with no
/// network and no scripts: the script, the lowered IR after each pass, InferBound's steps, the
/// graphs as inline SVG (stage DAG, attach tree, each stage's IterVar relations and its
/// consumers' requests), the allocation report with the heatmap of each buffer that allocates
/// elements no consumer reads (analysis/Heatmap.h: one interpreter run each, at most
/// kReportHeatmaps). `boundscope report` and the app write it.
#pragma once

#include "analysis/AllocReport.h"
#include "analysis/Analysis.h"

#include <string>

namespace bs::viz {

struct ReportInput {
    std::string title;                        ///< the script's name
    std::string script;                       ///< its text
    const Analysis* analysis = nullptr;       ///< lowered
    const AllocReport* allocations = nullptr; ///< may be null
};

/// The most heatmaps a report draws (the most wasteful buffers first).
inline constexpr size_t kReportHeatmaps = 8;

/// The HTML. Graphs need Graphviz: without it each graph's place says so.
std::string reportHtml(const ReportInput& input);

} // namespace bs::viz
