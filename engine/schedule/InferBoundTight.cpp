// The tight rules' root bounds (DESIGN.md "InferBound, faithful first"): after TVM's
// InferRootBound has given each data axis of a stage the interval union of its consumers'
// requests, the exact per-iteration need replaces it. For every axis, ISL gives the min and the
// max of what one iteration of the attach loops reads as piecewise quasi-affine functions of
// those loops; the loops compute [min, max] and the realize keeps min with the largest extent
// over all iterations. Where TVM's expression (or TVM's interval arithmetic run over the
// remainder extents) is provably the exact one, its form is kept, so seed listings print as
// they did.
#include "schedule/InferBoundTight.h"

#include <algorithm>

#include "schedule/BoundStepText.h"

#include "schedule/Graph.h"
#include "schedule/InferBoundTightLoops.h"
#include "schedule/MessagePassing.h"
#include "schedule/ScheduleErrors.h"
#include "te/Operation.h"

#ifdef BOUNDSCOPE_WITH_ISL
#include "ir/Equality.h"
#include "ir/Functor.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "ir/Substitute.h"
#include "schedule/InferBoundTightModel.h"

#include <isl/aff.h>
#include <isl/set.h>
#endif

namespace bs {

bool hasIsl() {
#ifdef BOUNDSCOPE_WITH_ISL
    return true;
#else
    return false;
#endif
}

struct TightRules::Impl {
    Schedule sch;
    IterVarMap<IterVar> bindMap;
    /// Data axes whose exact range lies inside their dom on every attach iteration.
    IterVarSet rootsInsideDom;
#ifdef BOUNDSCOPE_WITH_ISL
    tight::IslContext isl;
#endif
};

TightRules::TightRules(const Schedule& sch) {
    if (!hasIsl())
        throw UserError("the tight and compact rule sets need ISL, which this build lacks");
    m_impl = std::make_unique<Impl>();
    m_impl->sch = sch;
    m_impl->bindMap = createBindMap(sch);
}

TightRules::~TightRules() = default;

void TightRules::refineLoops(const Stage& stage, Analyzer& analyzer, const LoopExtents& loops,
                             InferBoundResult& result) {
    tight::refineSplitRemainders(stage, analyzer, loops, m_impl->rootsInsideDom, result);
}

#ifdef BOUNDSCOPE_WITH_ISL

namespace {

using tight::NeedModel;

/// TVM's ranges with every consumer loop at the extent it really runs (RootBoundReplay). Empty
/// when no relaxed consumer loop runs a remainder or when intervals cannot say.
std::vector<Range> remainderAwareRanges(const StageTrace& trace, const InferBoundResult& result,
                                        const RootBoundReplay& replay) {
    bool anyRemainder = false;
    for (const ConsumerTrace& ct : trace.consumers) {
        for (const LeafSetEntry& e : ct.leafSets)
            anyRemainder |= e.leafCase == LeafCase::Relax && result.loopExtents.count(e.iv);
        for (const RelaxEntry& e : ct.relaxSet)
            anyRemainder |= result.loopExtents.count(e.iv) != 0;
    }
    if (!anyRemainder)
        return {};
    return replay(result.loopExtents).value_or(std::vector<Range>{});
}

/// The range of one data axis under the tight rules.
struct AxisChoice {
    Range loop;         ///< what each iteration computes
    Expr staticExtent;  ///< the realize extent: the loop extent's maximum over the iterations
    bool exact = false; ///< min and extent are the exact per-iteration need
    bool needEverywhere = false; ///< every attach iteration needs something of this axis
};

class AxisChooser {
public:
    AxisChooser(isl::ctx ctx, NeedModel& model)
        : m_ctx(ctx), m_model(model), m_domain(model.paramDomain(ctx)),
          m_need(model.unionSet(ctx)) {
        std::string sizes = model.params.sizeConstraints();
        m_free =
            isl::set(ctx, model.params.header() + "{ : " + (sizes.empty() ? "true" : sizes) + " }");
    }

    std::optional<AxisChoice> choose(int d, const Range& tvm,
                                     const std::vector<Range>& remainderAware) {
        isl::pw_aff minPw = isl::manage(isl_set_dim_min(m_need.copy(), d));
        isl::pw_aff maxPw = isl::manage(isl_set_dim_max(m_need.copy(), d));
        if (minPw.domain().is_empty())
            return std::nullopt;
        // Built by push_back: GCC 12 warns (falsely) about growing a one-element list.
        std::vector<Expr> minCandidates, extentCandidates;
        minCandidates.reserve(2);
        extentCandidates.reserve(2);
        minCandidates.push_back(tvm.min);
        extentCandidates.push_back(tvm.extent);
        if (!remainderAware.empty()) {
            minCandidates.push_back(remainderAware[size_t(d)].min);
            extentCandidates.push_back(remainderAware[size_t(d)].extent);
        }
        AxisChoice choice;
        std::optional<Expr> min = pick(minCandidates, minPw);
        bool minExact = min.has_value();
        if (!minExact) {
            // Several pieces (a segment that may or may not wrap a row): keep TVM's min, which
            // is below every piece, and measure the extent from it.
            min = tvm.min;
            std::optional<isl::pw_aff> tvmMin = tight::toPwAff(m_ctx, tvm.min, m_model.params);
            if (!tvmMin)
                return std::nullopt;
            minPw = *tvmMin;
        }
        isl::pw_aff extentPw = maxPw.sub(minPw).add_constant(isl::val(m_ctx, 1));
        std::optional<Expr> extent = pick(extentCandidates, extentPw);
        choice.exact = minExact && extent.has_value();
        choice.loop = Range(*min, extent ? *extent : tvm.extent);
        choice.staticExtent = staticExtent(choice.loop.extent);
        choice.needEverywhere = m_domain.is_subset(maxPw.domain());
        return choice;
    }

private:
    /// The first candidate provably equal to `target`, else ISL's own expression of it when it
    /// is a single piece (several pieces would make every index a select).
    std::optional<Expr> pick(const std::vector<Expr>& candidates, const isl::pw_aff& target) {
        for (const Expr& c : candidates)
            if (c.defined() && tight::equalsOn(m_ctx, c, target, m_model.params))
                return c;
        return tight::toExpr(target, m_domain, m_model.params, /*singlePieceOnly=*/true);
    }

    /// The largest value `extent` takes over the attach iterations: a constant, or an
    /// expression of the free (shape) variables; `extent` itself when ISL cannot say.
    Expr staticExtent(const Expr& extent) {
        std::optional<isl::pw_aff> pa = tight::toPwAff(m_ctx, extent, m_model.params);
        if (!pa)
            return extent;
        isl::pw_aff bounded = isl::manage(isl_pw_aff_intersect_params(pa->copy(), m_domain.copy()));
        isl::pw_aff largest = tight::maxOverAttach(bounded, m_model.params);
        if (auto e = tight::toExpr(largest, m_free, m_model.params, true))
            return *e;
        isl::val v = largest.max_val();
        if (v.is_int())
            return makeConst(DataType::int32(), int64_t(v.get_num_si()));
        if (auto e = tight::toExpr(largest, m_free, m_model.params, false))
            return *e;
        return extent;
    }

    isl::ctx m_ctx;
    NeedModel& m_model;
    isl::set m_domain;
    isl::set m_need;
    isl::set m_free;
};

/// Records a tight step for data axis `d` of `stage`: its choice, or why it was kept.
void addTightStep(const Stage& stage, const IterVar& axis, const TightAxis& t,
                  InferBoundResult& result) {
    BoundStep step;
    step.phase = StepPhase::Tight;
    step.rule = t.loop ? "exact-box" : "kept";
    step.stage = stage->op;
    step.iterVars = {axis};
    step.axis = t.axis;
    step.location = stepLine(stage);
    step.text = steptext::tightAxis(axis, t, stage->op->name);
    int previous = result.steps.rangeStep(axis);
    if (previous >= 0)
        step.from = {previous};
    if (t.loop)
        step.outputs.push_back(StepValue{axis->var.name(), axis, std::nullopt, *t.loop, Expr()});
    if (t.realize.defined())
        step.outputs.push_back(
            StepValue{"realize extent", axis, std::nullopt, std::nullopt, t.realize});
    step.detail = t;
    int id = result.steps.add(std::move(step));
    if (t.loop)
        result.steps.setRangeStep(axis, id);
}

/// Records the choice for one data axis: its loop range, its static realize region where that
/// differs, whether it provably stays inside the dom, and a step.
void applyChoice(const Stage& stage, int d, const AxisChoice& choice, InferBoundResult& result,
                 IterVarSet& insideDom) {
    const IterVar& axis = stage->op.as<ComputeOpNode>()->axis[size_t(d)];
    Analyzer analyzer;
    DataType t = axis->var.type();
    Range loop(analyzer.simplify(cast(t, choice.loop.min)),
               analyzer.simplify(cast(t, choice.loop.extent)));
    result.bounds[axis] = loop;
    Expr realize = analyzer.simplify(cast(t, choice.staticExtent));
    TightAxis step{d, loop, Expr(), choice.exact ? "the exact per-iteration need" : "partly exact"};
    if (!analyzer.canProveEqual(realize, loop.extent)) {
        result.realizeBounds[axis] = Range(loop.min, realize);
        step.realize = realize;
    }
    if (choice.exact && choice.needEverywhere)
        insideDom.insert(axis);
    addTightStep(stage, axis, step, result);
}

/// Whether root `axis` of `stage` is itself a vectorized or unrolled loop (the axis, or the
/// copy normalize rebased it into): such a loop needs a constant extent, so a per-iteration
/// extent cannot replace TVM's (whose bound check guards the rest).
bool isConstantLoopAxis(const Stage& stage, const IterVar& axis) {
    for (const IterVar& leaf : stage->leafIterVars) {
        const IterVarAttr* attr = stage.attrOf(leaf);
        if (loopAsWritten(stage, leaf).same_as(axis) && attr &&
            (attr->iterType == IterVarType::Vectorized || attr->iterType == IterVarType::Unrolled))
            return true;
    }
    return false;
}

/// Whether root `axis` of `stage` is split while another stage is computed inside `stage`'s
/// loops: a per-iteration extent of `axis` would become the stride of the split's outer loop,
/// so the attached stage's requests would multiply loop variables (not quasi-affine) and fall
/// back to intervals wider than TVM's (shared/repro 07: 90 elements where TVM allocates 14).
bool splitUnderAttachedStages(const Schedule& sch, const Stage& stage, const IterVar& axis) {
    const bool split = std::any_of(stage->relations.begin(), stage->relations.end(),
                                   [&](const IterVarRelation& rel) {
                                       const auto* s = rel.as<SplitNode>();
                                       return s && s->parent.same_as(axis);
                                   });
    return split && std::any_of(sch->stages.begin(), sch->stages.end(), [&](const Stage& other) {
               const Stage spec = other.attachSpec();
               return spec->attachType == AttachType::Scope && spec->attachStage.same_as(stage);
           });
}

/// `v + c` (or `v`, `v - c`) as (v, c); nullopt for any other index.
std::optional<std::pair<Var, int64_t>> varPlusConstant(const Expr& e) {
    if (const auto* v = e.as<VarNode>())
        return std::pair<Var, int64_t>{Var(v), 0};
    const auto* add = e.as<AddNode>();
    const auto* sub = e.as<SubNode>();
    const Expr* var = add ? &add->a : sub ? &sub->a : nullptr;
    std::optional<int64_t> c = add ? asConstInt(add->b) : sub ? asConstInt(sub->b) : std::nullopt;
    if (!var || !c || !var->as<VarNode>())
        return std::nullopt;
    return std::pair<Var, int64_t>{Var(var->as<VarNode>()), sub ? -*c : *c};
}

bool sameRange(const Range& a, const Range& b) {
    return structuralEqual(a.min, b.min) && structuralEqual(a.extent, b.extent);
}

/// Whether TVM's interval result for `stage` is already its exact per-iteration need, so that
/// ISL has nothing to add (issue 19: a nest of 1,000 attached stages spent seconds confirming
/// it). It is when every read of the stage indexes each axis with one root variable of its
/// consumer plus a constant, and the interval of that variable is exactly the values it takes:
/// - the consumer's loops are its roots, rebased (no split or fuse, whose remainders and
///   strides intervals miss) and no attach-path loop is relaxed for it;
/// - every root's range has a constant extent of at least one (each iteration reads) and lies
///   inside its dom (the tight rules proved it, or it is the dom), so no bound check removes
///   values;
/// - each read stays inside the producer's constant dom, and TVM's extent is a constant (the
///   realize needs no maximum over the iterations).
bool tvmIsExact(const Schedule& sch, const Stage& stage, const StageTrace& trace,
                const InferBoundResult& result, const IterVarSet& rootsInsideDom) {
    const auto* producer = stage->op.as<ComputeOpNode>();
    if (trace.consumers.empty())
        return false; // nothing reads it: ISL's model says so (kept)
    for (const IterVar& axis : producer->axis) {
        const Range& r = result.bounds.at(axis);
        if (!asConstInt(r.extent) || !asConstInt(axis->dom.min) || !asConstInt(axis->dom.extent))
            return false;
    }
    for (const ConsumerTrace& ct : trace.consumers) {
        const auto* consumer = ct.consumer.as<ComputeOpNode>();
        if (!consumer || !ct.relaxSet.empty())
            return false;
        const Stage cs = sch.stageOf(ct.consumer);
        for (const IterVarRelation& rel : cs->relations)
            if (!rel.as<RebaseNode>() && !rel.as<SingletonNode>())
                return false;
        VarMap<IterVar> roots;
        for (const IterVar& root : consumer->rootIterVars()) {
            auto range = result.bounds.find(root);
            std::optional<int64_t> extent =
                range != result.bounds.end() ? asConstInt(range->second.extent) : std::nullopt;
            if (!extent || *extent < 1 || result.loopExtents.count(root) ||
                !(rootsInsideDom.count(root) || sameRange(range->second, root->dom)))
                return false;
            roots[root->var] = root;
        }
        for (const IterVar& iv : cs->allIterVars)
            if (result.loopExtents.count(iv))
                return false;
        auto readsStage = [&](const Tensor& t) { return t.op.same_as(stage->op); };
        for (const auto& indices : distinctReads(consumer->body, readsStage)) {
            for (size_t d = 0; d < indices.size(); ++d) {
                std::optional<std::pair<Var, int64_t>> index = varPlusConstant(indices[d]);
                auto root = index ? roots.find(index->first) : roots.end();
                if (root == roots.end())
                    return false;
                std::optional<int64_t> lo = asConstInt(root->second->dom.min);
                std::optional<int64_t> n = asConstInt(root->second->dom.extent);
                const int64_t plo = *asConstInt(producer->axis[d]->dom.min);
                const int64_t pn = *asConstInt(producer->axis[d]->dom.extent);
                if (!lo || !n || *lo + index->second < plo || *lo + *n + index->second > plo + pn)
                    return false;
            }
        }
    }
    return true;
}

/// A tight step for every data axis: kept, and why.
void keepAll(const Stage& stage, const std::string& why, InferBoundResult& result) {
    const auto* compute = stage->op.as<ComputeOpNode>();
    for (size_t d = 0; d < compute->axis.size(); ++d)
        addTightStep(stage, compute->axis[d], TightAxis{int(d), std::nullopt, Expr(), why}, result);
}

} // namespace

void TightRules::refineRootBounds(const Stage& stage, StageTrace& trace,
                                  const RootBoundReplay& replay, InferBoundResult& result) {
    const auto* compute = stage->op.as<ComputeOpNode>();
    if (trace.kind != StageTrace::Kind::Computed || !compute)
        return;
    for (const ConsumerTrace& ct : trace.consumers) {
        if (ct.consumer.as<ExternOpNode>()) {
            // Its body is opaque: it may read any element, so the whole tensor is the need.
            keepAll(stage, "kept (extern stage '" + ct.consumer->name + "' reads it whole)",
                    result);
            return;
        }
        if (const auto* tc = ct.consumer.as<TensorComputeOpNode>()) {
            // The intrinsic reads its regions whole, through a buffer.
            keepAll(stage,
                    "kept ('" + ct.consumer->name +
                        "' passes regions of it to tensor "
                        "intrinsic '" +
                        tc->intrin->name + "')",
                    result);
            return;
        }
    }
    if (tvmIsExact(m_impl->sch, stage, trace, result, m_impl->rootsInsideDom)) {
        for (size_t d = 0; d < compute->axis.size(); ++d) {
            const Range& tvm = result.bounds.at(compute->axis[d]);
            applyChoice(stage, int(d), AxisChoice{tvm, tvm.extent, true, true}, result,
                        m_impl->rootsInsideDom);
        }
        return;
    }
    tight::ModelInputs in{m_impl->sch, result.bounds, result.loopExtents, m_impl->bindMap};
    try {
        std::vector<Range> remainderAware = remainderAwareRanges(trace, result, replay);
        // The chooser converts TVM's ranges and these with the model's parameters.
        tight::ModelOptions options;
        for (const IterVar& axis : compute->axis) {
            const Range& tvm = result.bounds.at(axis);
            options.alsoNamed.insert(options.alsoNamed.end(), {tvm.min, tvm.extent});
        }
        for (const Range& r : remainderAware)
            options.alsoNamed.insert(options.alsoNamed.end(), {r.min, r.extent});
        std::optional<NeedModel> model = tight::buildNeedModel(in, stage, trace, options);
        if (!model) {
            keepAll(stage, "kept (a consumer's loop nest is not quasi-affine)", result);
            return;
        }
        AxisChooser chooser(m_impl->isl.ctx(), *model);
        for (size_t d = 0; d < compute->axis.size(); ++d) {
            const IterVar& axis = compute->axis[d];
            std::optional<AxisChoice> choice;
            if (model->axisExact[d])
                choice = chooser.choose(int(d), result.bounds.at(axis), remainderAware);
            if (!choice) {
                std::string why = model->axisExact[d]
                                      ? "kept (no iteration reads this axis)"
                                      : "kept (a read of this axis is not quasi-affine)";
                addTightStep(stage, axis, TightAxis{int(d), std::nullopt, Expr(), why}, result);
                continue;
            }
            if (!asConstInt(choice->loop.extent) && isConstantLoopAxis(stage, axis)) {
                addTightStep(stage, axis,
                             TightAxis{int(d), std::nullopt, Expr(),
                                       "kept (its loop is vectorized or unrolled, which needs a "
                                       "constant extent; the bound check guards the rest)"},
                             result);
                continue;
            }
            if (!asConstInt(choice->loop.extent) &&
                splitUnderAttachedStages(m_impl->sch, stage, axis)) {
                addTightStep(stage, axis,
                             TightAxis{int(d), std::nullopt, Expr(),
                                       "kept (it is split and stages are computed inside its "
                                       "loops: a per-iteration extent would make their strides "
                                       "vary; the bound check guards the rest)"},
                             result);
                continue;
            }
            applyChoice(stage, int(d), *choice, result, m_impl->rootsInsideDom);
        }
    } catch (const isl::exception& e) {
        // Our text is always well formed; should ISL still refuse it, the interval result of
        // the remaining axes stands, and the steps say so.
        keepAll(stage, std::string("kept (ISL failed: ") + e.what() + ")", result);
    }
}

#else

void TightRules::refineRootBounds(const Stage&, StageTrace&, const RootBoundReplay&,
                                  InferBoundResult&) {}

#endif // BOUNDSCOPE_WITH_ISL

} // namespace bs
