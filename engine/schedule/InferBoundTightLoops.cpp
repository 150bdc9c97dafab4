// Split remainders (seed 002, "PassDownDomain"): "If PassDownDomain could set the extent of the
// inner IterVar to min(factor, parent's extent - outer*factor), then the extent of the inner
// variable would properly adapt, based on which iteration of the outer loop is being executed."
// Example: extent 20 split by 16 runs `for (i.inner, 0, min(16, (20 - (i.outer*16))))`, 16
// then 4 iterations, and needs no `likely((i.outer*16 + i.inner) < 20)` check.
//
// The ranges in `bounds` keep the factor (it is the stride PassUpIndex multiplies the outer
// value by); only the loops run the remainder, through `loopExtents`.
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

/// Vectorized and unrolled loops need a constant extent.
bool hasAnnotatedLeaf(const Stage& stage, const std::vector<size_t>& positions) {
    return std::any_of(positions.begin(), positions.end(), [&](size_t i) {
        const IterVarAttr* attr = stage.attrOf(stage->leafIterVars[i]);
        return attr && (attr->iterType == IterVarType::Vectorized ||
                        attr->iterType == IterVarType::Unrolled);
    });
}

/// The extent every IterVar of a stage really runs, and the splits that run a remainder.
struct RemainderPlan {
    IterVarMap<Expr> extents;
    std::unordered_set<const SplitNode*> remainders;
};

class RemainderPlanner {
public:
    RemainderPlanner(const Stage& stage, const IterVarMap<Range>& rmap, Analyzer& analyzer)
        : m_stage(stage), m_rmap(rmap), m_analyzer(analyzer), m_positions(leafPositions(stage)),
          m_dominating(passUpThreadBinding(stage)) {}

    /// Nullopt when no split runs a remainder or the remainders cannot be expressed.
    std::optional<RemainderPlan> plan() {
        for (const IterVar& iv : m_stage->op->rootIterVars())
            if (m_rmap.count(iv))
                m_plan.extents[iv] = m_rmap.at(iv).extent;
        for (const IterVarRelation& rel : m_stage->relations)
            if (!step(rel))
                return std::nullopt;
        if (m_plan.remainders.empty() || !inLoopOrder())
            return std::nullopt;
        return std::move(m_plan);
    }

private:
    bool same(const Expr& a, const Expr& b) {
        return a.same_as(b) || structuralEqual(a, b) || m_analyzer.canProveEqual(a, b);
    }
    bool uniform(const IterVar& iv) { return same(m_plan.extents.at(iv), m_rmap.at(iv).extent); }

    bool step(const IterVarRelation& rel) {
        return visitRelation(rel, Overloaded{
                                      [&](const SplitNode* s) { return stepSplit(s); },
                                      [&](const FuseNode* f) { return stepFuse(f); },
                                      [&](const RebaseNode* r) { return stepRebase(r); },
                                      [&](const SingletonNode* g) {
                                          m_plan.extents[g->iter] = 1;
                                          return true;
                                      },
                                  });
    }

    bool stepSplit(const SplitNode* s) {
        auto& ext = m_plan.extents;
        if (!ext.count(s->parent) || !m_rmap.count(s->inner) || !m_rmap.count(s->outer))
            return false;
        Expr parent = ext.at(s->parent), stride = m_rmap.at(s->inner).extent;
        Expr outer = m_rmap.at(s->outer).extent;
        bool divides = uniform(s->parent) && m_analyzer.canProve(eq(stride * outer, parent));
        // disable_predication: the program runs every iteration unguarded, as under tvm.
        if (divides || s->disablePredication || m_dominating[s->parent] ||
            hasAnnotatedLeaf(m_stage, m_positions[s->inner])) {
            ext[s->outer] = outer;
            ext[s->inner] = stride;
            return uniform(s->parent);
        }
        Expr needed = ceilDivExtent(parent, stride, m_analyzer);
        ext[s->outer] = same(needed, outer) ? outer : needed;
        ext[s->inner] = min(stride, m_analyzer.simplify(parent - s->outer->var * stride));
        m_plan.remainders.insert(s);
        return true;
    }

    bool stepFuse(const FuseNode* f) {
        // floordiv/floormod by the inner extent need rows of one length.
        auto& ext = m_plan.extents;
        if (!ext.count(f->outer) || !ext.count(f->inner) || !uniform(f->inner))
            return false;
        ext[f->fused] = uniform(f->outer)
                            ? m_rmap.at(f->fused).extent
                            : m_analyzer.simplify(ext.at(f->outer) * ext.at(f->inner));
        return true;
    }

    bool stepRebase(const RebaseNode* r) {
        auto& ext = m_plan.extents;
        if (!ext.count(r->parent))
            return false;
        ext[r->rebased] = uniform(r->parent) ? m_rmap.at(r->rebased).extent : ext.at(r->parent);
        return true;
    }

    /// A remainder extent names the outer loop's variable, so every leaf of that outer IterVar
    /// must enclose the loop that runs the remainder.
    bool inLoopOrder() {
        const auto& leaves = m_stage->leafIterVars;
        for (size_t i = 0; i < leaves.size(); ++i) {
            auto it = m_plan.extents.find(leaves[i]);
            if (it == m_plan.extents.end() || uniform(leaves[i]))
                continue;
            for (const IterVar& iv : m_stage->allIterVars) {
                if (!usesVar(it->second, iv->var))
                    continue;
                const auto& pos = m_positions[iv];
                if (pos.empty() ||
                    std::any_of(pos.begin(), pos.end(), [&](size_t p) { return p >= i; }))
                    return false;
            }
        }
        return true;
    }

    const Stage& m_stage;
    const IterVarMap<Range>& m_rmap;
    Analyzer& m_analyzer;
    IterVarMap<std::vector<size_t>> m_positions;
    IterVarMap<bool> m_dominating;
    RemainderPlan m_plan;
};

bool rangeIsDom(const IterVar& iv, const IterVarMap<Range>& rmap, Analyzer& analyzer) {
    auto it = rmap.find(iv);
    return iv->dom.defined() && it != rmap.end() &&
           analyzer.canProveEqual(it->second.min, iv->dom.min) &&
           analyzer.canProveEqual(it->second.extent, iv->dom.extent);
}

} // namespace

void refineSplitRemainders(const Stage& stage, Analyzer& analyzer, const IterVarSet& rootsInsideDom,
                           InferBoundResult& result) {
    const IterVarMap<Range>& rmap = result.bounds;
    RemainderPlan plan = RemainderPlanner(stage, rmap, analyzer).plan().value_or(RemainderPlan{});
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
