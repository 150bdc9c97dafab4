#include "viz/Report.h"

#include "analysis/Heatmap.h"
#include "ir/Printer.h"
#include "support/Markup.h"
#include "viz/Dot.h"
#include "viz/Layout.h"
#include "viz/ScheduleGraphs.h"

#include <algorithm>
#include <sstream>

namespace bs::viz {

namespace {

/// `text` for HTML, line breaks kept (escapeHtml drops control characters).
std::string escapedText(const std::string& text) {
    std::string out;
    size_t from = 0;
    while (from <= text.size()) {
        const size_t newline = std::min(text.find('\n', from), text.size());
        out += escapeHtml(text.substr(from, newline - from));
        if (newline < text.size())
            out += '\n';
        from = newline + 1;
    }
    return out;
}

/// Graphviz's SVG without its XML prolog and doctype (which name a DTD on the web), to inline.
std::string inlineSvg(const Graph& graph) {
    if (!graphvizAvailable())
        return "<p class=note>This build has no Graphviz: the graph is not drawn.</p>";
    try {
        const std::string svg = render(graph, GraphFormat::Svg);
        const size_t start = svg.find("<svg");
        return start == std::string::npos ? std::string() : svg.substr(start);
    } catch (const UserError& e) {
        return "<p class=note>" + escapeHtml(e.diagnostic().message) + "</p>";
    }
}

void section(std::ostringstream& os, const std::string& id, const std::string& title) {
    os << "<h2 id=\"" << id << "\">" << escapeHtml(title) << "</h2>\n";
}

void pre(std::ostringstream& os, const std::string& text) {
    os << "<pre>" << escapedText(text) << "</pre>\n";
}

void figure(std::ostringstream& os, const std::string& caption, const Graph& graph) {
    os << "<figure>" << inlineSvg(graph) << "<figcaption>" << escapeHtml(caption)
       << "</figcaption></figure>\n";
}

} // namespace

namespace {

/// The heatmaps of the buffers that waste elements under the report's rules, most wasteful
/// first: which elements each consumer reads and which none does.
void heatmaps(std::ostream& os, const Analysis& analysis, const AllocReport& allocations) {
    std::vector<const BufferReport*> wasteful;
    // Only where the report's own interpreter run fit its budget: a heatmap is such a run.
    for (const BufferReport& buffer : allocations.buffers)
        if (buffer.wastePercent().value_or(0) > 0 && buffer.touchedTotal)
            wasteful.push_back(&buffer);
    std::stable_sort(wasteful.begin(), wasteful.end(), [](const auto* a, const auto* b) {
        return a->wastePercent().value_or(0) > b->wastePercent().value_or(0);
    });
    if (wasteful.size() > kReportHeatmaps)
        wasteful.resize(kReportHeatmaps);
    if (wasteful.empty())
        return;
    HeatmapOptions options;
    options.rules = analysis.options.rules;
    options.args = analysis.program.args;
    // One run of the program for all of them.
    std::optional<HeatmapRun> run;
    std::string whyNot;
    try {
        run.emplace(analysis.program.schedule, options);
    } catch (const UserError& e) {
        whyNot = e.diagnostic().message;
    }
    for (const BufferReport* buffer : wasteful) {
        os << "<figure>";
        try {
            if (!run)
                throw UserError(whyNot);
            os << run->heatmap(buffer->stage).toSvg();
        } catch (const UserError& e) {
            os << "<p class=\"note\">No heatmap: " << escapeHtml(e.diagnostic().message) << "</p>";
        }
        os << "<figcaption>Who reads the elements of " << escapeHtml(buffer->name)
           << "</figcaption></figure>\n";
    }
}

} // namespace

std::string reportHtml(const ReportInput& input) {
    std::ostringstream os;
    const Analysis* analysis = input.analysis;
    const std::string rules = analysis ? boundRulesName(analysis->options.rules) : "";
    os << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
       << "<title>" << escapeHtml(input.title) << " - Boundscope report</title>\n"
       << "<style>body{font-family:sans-serif;margin:2em;max-width:80em}"
          "pre{background:#f4f4f4;padding:.6em;overflow-x:auto;font-size:90%}"
          "figure{margin:1em 0;overflow-x:auto}figcaption{font-style:italic}"
          ".note{color:#a33}details{margin:.4em 0}</style>\n</head>\n<body>\n";
    os << "<h1>" << escapeHtml(input.title) << "</h1>\n<p>InferBound rules: <b>"
       << escapeHtml(rules) << "</b>. Made by Boundscope; this file needs no network.</p>\n";
    os << "<nav><a href=\"#script\">Script</a> · <a href=\"#ir\">Lowered IR</a> · "
          "<a href=\"#graphs\">Graphs</a> · <a href=\"#allocations\">Allocations</a> · "
          "<a href=\"#steps\">Steps</a></nav>\n";
    section(os, "script", "Script");
    pre(os, input.script);
    if (!analysis || !analysis->lowered) {
        section(os, "error", "Error");
        pre(os, analysis && analysis->error ? analysis->error->toString()
                                            : std::string("the script was not analysed"));
        os << "</body>\n</html>\n";
        return os.str();
    }
    const LowerResult& lowered = *analysis->lowered;
    section(os, "ir", "Lowered IR");
    pre(os, toString(lowered.func.final));
    const std::pair<const char*, const Stmt*> passes[] = {
        {"after ScheduleOps", &lowered.func.afterScheduleOps},
        {"after StorageFlatten", &lowered.func.afterFlatten},
        {"after Simplify", &lowered.func.afterSimplify},
        {"after CSE", &lowered.func.afterCse},
    };
    for (const auto& [name, stmt] : passes) {
        if (!stmt->defined())
            continue;
        os << "<details><summary>" << name << "</summary>";
        pre(os, toString(*stmt));
        os << "</details>\n";
    }
    section(os, "graphs", "Graphs");
    const GraphInput graphs{lowered.normalized, &lowered.bounds.bounds, &lowered.bounds.trace};
    figure(os, "Stage DAG", stageDag(graphs));
    figure(os, "Attach tree", attachTree(graphs));
    for (const Stage& stage : lowered.normalized.stages()) {
        if (stage->op.as<PlaceholderOpNode>())
            continue;
        os << "<h3>Stage " << escapeHtml(stage.name()) << "</h3>\n";
        figure(os, "IterVar relations of " + stage.name(), iterVarGraph(graphs, stage));
        if (!stage->isOutput)
            figure(os, "What the consumers of " + stage.name() + " request",
                   consumerRequests(graphs, stage));
    }
    section(os, "allocations", "Allocations");
    pre(os, input.allocations ? input.allocations->toText() : std::string("no allocation report"));
    if (input.allocations)
        heatmaps(os, *analysis, *input.allocations);
    section(os, "steps", "InferBound, step by step");
    std::ostringstream steps;
    for (const BoundStep& step : lowered.bounds.steps.all())
        steps << stepText(step);
    pre(os, steps.str());
    os << "</body>\n</html>\n";
    return os.str();
}

} // namespace bs::viz
