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
        // Roots, then the IterVars between, then the leaves in loop order.
        std::vector<std::pair<size_t, BoundsRow>> stageRows;
        for (const auto& [iv, r] : trace.stages[s].ranges) {
            const std::string role = stage.defined() ? roleOf(iv, stage) : "root";
            size_t key = role == "root" ? 0 : role == "inner" ? 1 : 2;
            if (key == 2) {
                const auto& leaves = stage->leafIterVars;
                key += size_t(std::find_if(leaves.begin(), leaves.end(),
                                           [&](const IterVar& x) { return x.same_as(iv); }) -
                              leaves.begin());
            }
            stageRows.push_back(
                {key, BoundsRow{trace.stages[s].op->name, role, iv->var.name(), toString(r.min),
                                toString(r.extent),
                                boundOfExtent(r.extent, analysis.lowered->bounds.bounds)}});
        }
        std::stable_sort(stageRows.begin(), stageRows.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
        for (auto& [key, row] : stageRows)
            rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace bs
