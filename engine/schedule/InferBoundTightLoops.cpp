// Split remainders (seed 002, "PassDownDomain"): PassDownDomain's remainder mode
// (schedule/MessagePassing.h) finds the extent each loop really runs; here they are kept where
// the loops can run them, recorded as steps, and the bound checks they make unnecessary dropped.
// Example: extent 20 split by 16 runs `for (i.inner, 0, min(16, (20 - (i.outer*16))))`, 16
// then 4 iterations, and needs no `likely((i.outer*16 + i.inner) < 20)` check.
#include "schedule/InferBoundTightLoops.h"

#include "ir/Equality.h"
#include "ir/Op.h"
#include "ir/Substitute.h"
#include "schedule/BoundStepText.h"
#include "schedule/MessagePassing.h"

#include <algorithm>
#include <unordered_set>

namespace bs::tight {

namespace {

/// The positions in the loop nest of the leaves each IterVar is computed from.
IterVarMap<std::vector<size_t>> leafPositions(const Stage& stage) {
    IterVarMap<std::vector<size_t>> pos;
    for (size_t i = 0; i < stage->leafIterVars.size(); ++i)
        pos[stage->leafIterVars[i]].push_back(i);
    for (size_t i = stage->relations.size(); i-- > 0;) {
        const IterVarRelation& rel = stage->relations[i];
        for (const IterVar& to : relationInputs(rel)) {
            for (const IterVar& from : relationOutputs(rel)) {
                auto it = pos.find(from);
                if (it != pos.end())
                    pos[to].insert(pos[to].end(), it->second.begin(), it->second.end());
            }
        }
    }
    return pos;
}

/// A remainder extent names the outer loop's variable, so every leaf of that outer IterVar must
/// enclose the loop that runs the remainder.
bool inLoopOrder(const Stage& stage, const LoopExtents& loops, const IterVarMap<Range>& rmap,
                 Analyzer& analyzer) {
    const IterVarMap<std::vector<size_t>> positions = leafPositions(stage);
    const auto& leaves = stage->leafIterVars;
    for (size_t i = 0; i < leaves.size(); ++i) {
        auto it = loops.extents.find(leaves[i]);
        if (it == loops.extents.end() ||
            analyzer.canProveEqual(it->second, rmap.at(leaves[i]).extent))
            continue;
        for (const IterVar& iv : stage->allIterVars) {
            if (!usesVar(it->second, iv->var))
                continue;
            auto pos = positions.find(iv);
            if (pos == positions.end() || pos->second.empty() ||
                std::any_of(pos->second.begin(), pos->second.end(),
                            [&](size_t p) { return p >= i; }))
                return false;
        }
    }
    return true;
}

bool rangeIsDom(const IterVar& iv, const IterVarMap<Range>& rmap, Analyzer& analyzer) {
    auto it = rmap.find(iv);
    return iv->dom.defined() && it != rmap.end() &&
           analyzer.canProveEqual(it->second.min, iv->dom.min) &&
           analyzer.canProveEqual(it->second.extent, iv->dom.extent);
}

} // namespace

void refineSplitRemainders(const Stage& stage, Analyzer& analyzer, const LoopExtents& loops,
                           const IterVarSet& rootsInsideDom, InferBoundResult& result) {
    const IterVarMap<Range>& rmap = result.bounds;
    static const LoopExtents none;
    const bool run =
        loops.expressible && !loops.remainders.empty() && inLoopOrder(stage, loops, rmap, analyzer);
    const LoopExtents& plan = run ? loops : none;
    for (const auto& [split, why] : loops.kept)
        result.keptFactors[split->inner] = why;
    if (!run)
        for (const SplitNode* split : loops.remainders)
            result.keptFactors[split->inner] =
                loops.expressible ? KeptFactor::NotInLoopOrder : KeptFactor::NotExpressible;
    for (const IterVar& leaf : stage->leafIterVars) {
        auto it = plan.extents.find(leaf);
        if (it == plan.extents.end() || !rmap.count(leaf) ||
            analyzer.canProveEqual(it->second, rmap.at(leaf).extent))
            continue;
        result.loopExtents[leaf] = it->second;
        BoundStep step;
        step.phase = StepPhase::Tight;
        step.rule = "split-remainder";
        step.stage = stage->op;
        step.iterVars = {leaf};
        step.location = leaf->location;
        step.text = steptext::tightRemainder(leaf, it->second, rmap.at(leaf), stage->op->name);
        if (int previous = result.steps.rangeStep(leaf); previous >= 0)
            step.from = {previous};
        step.outputs.push_back(
            StepValue{"loop extent", leaf, std::nullopt, std::nullopt, it->second});
        result.steps.setLoopStep(leaf, result.steps.add(std::move(step)));
    }
    IterVarMap<bool> check = passUpBoundCheck(stage, rmap, analyzer, &plan.remainders);
    std::vector<IterVar> roots = stage->op->rootIterVars();
    for (const IterVar& iv : stage->allIterVars) {
        if (check[iv])
            continue;
        bool isRoot = std::any_of(roots.begin(), roots.end(),
                                  [&](const IterVar& r) { return r.same_as(iv); });
        if (isRoot && !rootsInsideDom.count(iv) && !rangeIsDom(iv, rmap, analyzer))
            continue;
        result.provenInRange.insert(iv);
    }
}

} // namespace bs::tight
