#include "analysis/BoundsTable.h"

#include "ir/Printer.h"

#include <algorithm>

namespace bs {

namespace {

std::string roleOf(const IterVar& iv, const Stage& stage) {
    auto has = [&](const std::vector<IterVar>& list) {
        return std::any_of(list.begin(), list.end(),
                           [&](const IterVar& x) { return x.same_as(iv); });
    };
    const bool root = has(stage->op->rootIterVars());
    const bool leaf = has(stage->leafIterVars);
    if (root && leaf)
        return "root,leaf";
    return root ? "root" : leaf ? "leaf" : "inner";
}

} // namespace

std::vector<BoundsRow> boundsTable(const Analysis& analysis) {
    std::vector<BoundsRow> rows;
    if (!analysis.lowered)
        return rows;
    const auto& trace = analysis.lowered->bounds.trace;
    const Schedule& sch = analysis.lowered->normalized;
    for (size_t s = trace.stages.size(); s-- > 0;) {
        const Stage stage = sch.findStage(trace.stages[s].op);
        for (const auto& [iv, r] : trace.stages[s].ranges)
            rows.push_back({trace.stages[s].op->name, stage.defined() ? roleOf(iv, stage) : "root",
                            iv->var.name(), toString(r.min), toString(r.extent),
                            boundOfExtent(r.extent, analysis.lowered->bounds.bounds)});
    }
    return rows;
}

} // namespace bs
