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
        const size_t first = rows.size();
        std::vector<int> order; // roots, then the IterVars between, then the leaves in loop order
        for (const auto& [iv, r] : trace.stages[s].ranges) {
            const std::string role = stage.defined() ? roleOf(iv, stage) : "root";
            int key = role == "root" ? 0 : role == "inner" ? 1 : 2;
            if (key == 2) {
                const auto& leaves = stage->leafIterVars;
                key += int(std::find_if(leaves.begin(), leaves.end(),
                                        [&](const IterVar& x) { return x.same_as(iv); }) -
                           leaves.begin());
            }
            order.push_back(key);
            rows.push_back({trace.stages[s].op->name, role, iv->var.name(), toString(r.min),
                            toString(r.extent),
                            boundOfExtent(r.extent, analysis.lowered->bounds.bounds)});
        }
        std::vector<size_t> index(order.size());
        for (size_t i = 0; i < index.size(); ++i)
            index[i] = i;
        std::stable_sort(index.begin(), index.end(),
                         [&](size_t a, size_t b) { return order[a] < order[b]; });
        std::vector<BoundsRow> sorted;
        for (size_t i : index)
            sorted.push_back(rows[first + i]);
        std::copy(sorted.begin(), sorted.end(), rows.begin() + std::ptrdiff_t(first));
    }
    return rows;
}

} // namespace bs
