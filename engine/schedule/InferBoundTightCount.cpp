// Exact per-iteration counts for the allocation report (schedule/InferBoundTight.h): for every
// iteration of the loops around a stage's realize, the number of elements its consumers read
// (each read alone and all together) and the size of their bounding box; the report takes the
// maximum over the iterations. ISL counts the elements of each iteration's set; the iterations
// are enumerated (only over the loops a count depends on), within a budget: counts are absent
// beyond it, and for symbolic shapes.
#include "schedule/InferBoundTight.h"

#ifdef BOUNDSCOPE_WITH_ISL

#include "arith/ConstEval.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "ir/Substitute.h"
#include "schedule/Graph.h"
#include "schedule/InferBoundTightModel.h"

#include <isl/ctx.h>
#include <isl/map.h>
#include <isl/point.h>
#include <isl/set.h>
#include <isl/val.h>

#include <algorithm>
#include <unordered_map>

namespace bs {

namespace {

using tight::NeedModel;

/// Enumerating more attach iterations, or counting more elements over all of them, is not
/// worth the wait: the counts are then reported as unknown.
constexpr int64_t kMaxIterations = 1 << 18;
constexpr int64_t kMaxCountedIterations = 4096;
constexpr int64_t kMaxElements = 2000000;
/// ISL's work on one count (its operation counter: mostly simplex pivots) before the count is
/// given up: a parametric minimum over a set with nested divisions (repro 14, a fused and split
/// cache read counted per thread) took 90 s and 2.5 s to reach 200,000 operations; the tests'
/// largest count (an unaligned fuse) needs between 100,000 and 200,000, in a tenth of a second.
constexpr unsigned long kMaxIslOperations = 300000;

/// Runs `count` with ISL's work limited to kMaxIslOperations, which passed makes ISL's calls
/// return NULL (the C++ wrapper throws): the count is then `fallback` and `gaveUp` is set.
template <typename Result, typename Count>
Result withinBudget(isl::ctx ctx, bool& gaveUp, Result fallback, Count count) {
    isl_ctx* c = ctx.get();
    isl_ctx_reset_error(c);
    isl_ctx_reset_operations(c);
    isl_ctx_set_max_operations(c, kMaxIslOperations);
    // The limit is lifted however the count ends.
    struct Unlimit {
        isl_ctx* c;
        ~Unlimit() { isl_ctx_set_max_operations(c, 0); }
    } unlimit{c};
    Result result = fallback;
    bool quota = false;
    try {
        result = count();
    } catch (const isl::exception_quota&) {
        quota = true; // the C++ wrapper's call passed the limit (and reset the error)
    } catch (const isl::exception&) {
        // A C call passed the limit and returned NULL, which the wrapper then refused.
        if (isl_ctx_last_error(c) != isl_error_quota)
            throw;
    }
    if (quota || isl_ctx_last_error(c) == isl_error_quota) {
        gaveUp = true;
        result = fallback;
    }
    isl_ctx_reset_error(c);
    return result;
}

struct MaxCounts {
    std::optional<int64_t> count;
    std::optional<int64_t> hull;
};

using Points = std::vector<std::vector<long>>;

/// The points of the attach domain projected on the attach parameters `names` (a value per
/// name, in order); nullopt when the projection is unbounded (it depends on a symbolic size)
/// or its bounding box has more than `limit` points.
std::optional<Points> attachPoints(isl::ctx ctx, const NeedModel& model,
                                   const std::vector<std::string>& names, int64_t limit) {
    isl_set* dom = model.paramDomain(ctx).release();
    for (const std::string& name : names) {
        int pos = isl_set_find_dim_by_name(dom, isl_dim_param, name.c_str());
        dom = pos >= 0
                  ? isl_set_move_dims(dom, isl_dim_set, unsigned(isl_set_dim(dom, isl_dim_set)),
                                      isl_dim_param, unsigned(pos), 1)
                  : isl_set_add_dims(dom, isl_dim_set, 1);
    }
    dom = isl_set_project_out(dom, isl_dim_param, 0, unsigned(isl_set_dim(dom, isl_dim_param)));
    isl::set points = isl::manage(dom);
    if (points.is_empty())
        return Points{};
    if (isl_set_is_bounded(points.get()) != isl_bool_true)
        return std::nullopt;
    // The bounding box bounds the count cheaply before anything is enumerated.
    int64_t box = 1;
    for (int d = 0; d < int(names.size()) && box <= limit; ++d) {
        isl::val lo = isl::manage(isl_set_dim_min_val(points.copy(), d));
        isl::val hi = isl::manage(isl_set_dim_max_val(points.copy(), d));
        if (!lo.is_int() || !hi.is_int())
            return std::nullopt;
        box *= hi.get_num_si() - lo.get_num_si() + 1;
    }
    if (box > limit)
        return std::nullopt;
    struct Collect {
        Points points;
        size_t dims;
    } collect{{}, names.size()};
    isl_set_foreach_point(
        points.get(),
        [](isl_point* pt, void* user) {
            auto* c = static_cast<Collect*>(user);
            std::vector<long> values;
            for (size_t i = 0; i < c->dims; ++i) {
                isl_val* v = isl_point_get_coordinate_val(pt, isl_dim_set, int(i));
                values.push_back(isl_val_get_num_si(v));
                isl_val_free(v);
            }
            c->points.push_back(std::move(values));
            isl_point_free(pt);
            return isl_stat_ok;
        },
        &collect);
    return std::move(collect.points);
}

/// The attach parameters `set` depends on; nullopt when it depends on a free one (a symbolic
/// size: its counts are symbolic too).
std::optional<std::vector<std::string>> involvedParams(const NeedModel& model,
                                                       const isl::set& set) {
    std::vector<std::string> names;
    isl_size n = isl_set_dim(set.get(), isl_dim_param);
    for (int pos = 0; pos < n; ++pos) {
        if (isl_set_involves_dims(set.get(), isl_dim_param, unsigned(pos), 1) != isl_bool_true)
            continue;
        isl_id* id = isl_set_get_dim_id(set.get(), isl_dim_param, unsigned(pos));
        std::string name = isl_id_get_name(id);
        isl_id_free(id);
        if (!model.params.isAttach(name))
            return std::nullopt;
        names.push_back(name);
    }
    return names;
}

/// The extent of each axis of `set` per iteration when `set` is its own bounding box in every
/// iteration (then |set| is their product); nullopt otherwise. One parametric ISL check: the
/// box, built axis by axis as { a : min(p) <= a <= max(p) }, lies inside `set`.
std::optional<std::vector<Expr>> denseExtents(const NeedModel& model, const isl::set& set,
                                              const isl::set& context) {
    isl_size dims = isl_set_dim(set.get(), isl_dim_set);
    std::vector<Expr> extents;
    isl_set* box = nullptr;
    for (int d = 0; d < dims; ++d) {
        isl::pw_aff lo = isl::manage(isl_set_dim_min(set.copy(), d));
        isl::pw_aff hi = isl::manage(isl_set_dim_max(set.copy(), d));
        isl_set* atLeast = isl_set_from_pw_aff(lo.copy());
        atLeast = isl_set_apply(atLeast, isl_map_lex_le(isl_set_get_space(atLeast)));
        isl_set* atMost = isl_set_from_pw_aff(hi.copy());
        atMost = isl_set_apply(atMost, isl_map_lex_ge(isl_set_get_space(atMost)));
        isl_set* axis = isl_set_intersect(atLeast, atMost);
        box = box ? isl_set_flat_product(box, axis) : axis;
        auto extent = tight::toExpr(hi.sub(lo).add_constant(isl::val(set.ctx(), 1)), context,
                                    model.params, /*singlePieceOnly=*/false);
        if (!extent) {
            isl_set_free(box);
            return std::nullopt;
        }
        extents.push_back(*extent);
    }
    if (box) {
        isl::set full = isl::manage(box);
        if (!full.is_subset(set))
            return std::nullopt;
    }
    return extents;
}

/// The values of the parameters `names` at one point, by variable.
VarMap<int64_t> valuesAt(const NeedModel& model, const std::vector<std::string>& names,
                         const std::vector<long>& point) {
    VarMap<int64_t> values;
    for (size_t i = 0; i < names.size(); ++i)
        values[*model.params.varOf(names[i])] = point[i];
    return values;
}

/// The attach parameters the expressions name.
std::vector<std::string> namedParams(const NeedModel& model, const std::vector<Expr>& exprs) {
    std::vector<std::string> names;
    for (const std::string& name : model.params.attachNames()) {
        Var v = *model.params.varOf(name);
        if (std::any_of(exprs.begin(), exprs.end(), [&](const Expr& e) { return usesVar(e, v); }))
            names.push_back(name);
    }
    return names;
}

/// The maximum over the attach iterations of the product of `extents` (a dense set's size):
/// only the parameters the extents name are enumerated.
MaxCounts maxOfProduct(isl::ctx ctx, const NeedModel& model, const std::vector<Expr>& extents) {
    std::vector<std::string> names = namedParams(model, extents);
    std::optional<Points> points = attachPoints(ctx, model, names, kMaxIterations);
    if (!points)
        return {};
    MaxCounts out{0, 0};
    for (const auto& point : *points) {
        VarMap<int64_t> values = valuesAt(model, names, point);
        int64_t box = 1;
        for (const Expr& e : extents) {
            std::optional<int64_t> v = evaluateInt(e, values);
            if (!v)
                return {};
            box *= std::max<int64_t>(*v, 0);
        }
        out.count = out.hull = std::max(*out.count, box);
    }
    return out;
}

/// |set| and its bounding box at one point of the parameters `names`; nullopt past the budget.
std::optional<std::pair<int64_t, int64_t>> countAt(const isl::set& set,
                                                   const std::vector<std::string>& names,
                                                   const std::vector<long>& point) {
    isl_set* fixed = set.copy();
    for (size_t i = 0; i < names.size(); ++i) {
        int pos = isl_set_find_dim_by_name(fixed, isl_dim_param, names[i].c_str());
        fixed = isl_set_fix_si(fixed, isl_dim_param, unsigned(pos), int(point[i]));
    }
    isl::set at = isl::manage(fixed);
    if (at.is_empty())
        return std::pair<int64_t, int64_t>{0, 0};
    int64_t box = 1;
    for (int d = 0; d < int(isl_set_dim(at.get(), isl_dim_set)); ++d) {
        isl::val lo = isl::manage(isl_set_dim_min_val(at.copy(), d));
        isl::val hi = isl::manage(isl_set_dim_max_val(at.copy(), d));
        if (!lo.is_int() || !hi.is_int())
            return std::nullopt;
        box *= hi.get_num_si() - lo.get_num_si() + 1;
    }
    if (box > kMaxElements)
        return std::nullopt;
    isl::val n = isl::manage(isl_set_count_val(at.get()));
    if (!n.is_int())
        return std::nullopt;
    return std::pair<int64_t, int64_t>{n.get_num_si(), box};
}

/// The maximum over the attach iterations of |set| and of its bounding box: from the box's
/// extents when the set is dense, else by counting with ISL iteration by iteration.
MaxCounts maxOverIterations(isl::ctx ctx, const NeedModel& model, const isl::set& set,
                            const isl::set& context) {
    if (auto extents = denseExtents(model, set, context))
        return maxOfProduct(ctx, model, *extents);
    std::optional<std::vector<std::string>> names = involvedParams(model, set);
    if (!names)
        return {};
    std::optional<Points> points = attachPoints(ctx, model, *names, kMaxCountedIterations);
    if (!points)
        return {};
    MaxCounts out{0, 0};
    int64_t budget = kMaxElements;
    for (const auto& point : *points) {
        auto counted = countAt(set, *names, point);
        if (!counted || (budget -= counted->second) < 0)
            return {};
        out.count = std::max(*out.count, counted->first);
        out.hull = std::max(*out.hull, counted->second);
    }
    return out;
}

/// `set` over every attach iteration at once: the attach parameters projected out.
isl::set overTheRun(const NeedModel& model, const isl::set& set) {
    isl_set* s = set.copy();
    for (const std::string& name : model.params.attachNames()) {
        int pos = isl_set_find_dim_by_name(s, isl_dim_param, name.c_str());
        if (pos >= 0)
            s = isl_set_project_out(s, isl_dim_param, unsigned(pos), 1);
    }
    return isl::manage(s);
}

/// The elements of `set` read over the whole run (the union over the attach iterations, where
/// overlapping iterations count once): the product of its box's extents when dense (a stencil's
/// union is), else counted by ISL within the budget; nullopt when it depends on a symbolic size.
std::optional<int64_t> countOverTheRun(const NeedModel& model, const isl::set& set,
                                       const isl::set& context) {
    isl::set all = overTheRun(model, set);
    std::optional<std::vector<std::string>> names = involvedParams(model, all);
    if (!names || !names->empty())
        return std::nullopt;
    if (auto extents = denseExtents(model, all, overTheRun(model, context))) {
        int64_t n = 1;
        for (const Expr& e : *extents) {
            std::optional<int64_t> v = asConstInt(e);
            if (!v)
                return std::nullopt;
            n *= std::max<int64_t>(*v, 0);
        }
        return n;
    }
    auto counted = countAt(all, {}, {});
    return counted ? std::optional<int64_t>(counted->first) : std::nullopt;
}

/// The bounding box of one read over one iteration, `lo:hi` per axis when constant, else
/// `min..max` where ISL gives single expressions.
std::string regionOf(const isl::set& set, const NeedModel& model, const isl::set& context) {
    std::string out;
    for (int d = 0; d < int(isl_set_dim(set.get(), isl_dim_set)); ++d) {
        auto lo =
            tight::toExpr(isl::manage(isl_set_dim_min(set.copy(), d)), context, model.params, true);
        auto hi =
            tight::toExpr(isl::manage(isl_set_dim_max(set.copy(), d)), context, model.params, true);
        std::optional<int64_t> l = lo ? asConstInt(*lo) : std::nullopt;
        std::optional<int64_t> h = hi ? asConstInt(*hi) : std::nullopt;
        out += d ? ", " : "";
        if (l && h)
            out += std::to_string(*l) + ":" + std::to_string(*h + 1);
        else
            out += (lo ? toString(*lo) : "?") + ".." + (hi ? toString(*hi) : "?");
    }
    return out;
}

bool isExact(const NeedModel& model) {
    return model.domainExact &&
           std::all_of(model.axisExact.begin(), model.axisExact.end(), [](bool b) { return b; });
}

/// Whether a consumer loop the model of `trace` reads is bound to a thread: only then does
/// counting per thread (RelaxMode::PerThread) differ from counting as traced, which encodes the
/// producer's attach path alike (and a path N loops long is not read for every stage).
bool touchesThreads(const StageTrace& trace, const IterVarMap<IterVar>& bindMap) {
    auto bound = [&](const IterVar& iv) { return tight::isThreadBound(iv, bindMap); };
    for (const ConsumerTrace& ct : trace.consumers) {
        if (std::any_of(ct.leafSets.begin(), ct.leafSets.end(),
                        [&](const LeafSetEntry& e) { return bound(e.iv); }) ||
            std::any_of(ct.relaxSet.begin(), ct.relaxSet.end(),
                        [&](const RelaxEntry& e) { return bound(e.iv); }))
            return true;
    }
    return false;
}

} // namespace

struct StageNeedCache::Impl {
    std::unordered_map<std::string, StageNeed> needs;
    /// Where the loops of the run the stages are analysed in sit (built on first use).
    const InferBoundResult* run = nullptr;
    std::optional<tight::LoopIndex> loops;
};

StageNeedCache::StageNeedCache() : m_impl(std::make_unique<Impl>()) {}
StageNeedCache::~StageNeedCache() = default;
size_t StageNeedCache::entries() const { return m_impl->needs.size(); }

namespace {

/// What makes two models give the same StageNeed: their parameters and sets, as text.
std::string modelKey(const NeedModel& model) {
    std::string key = model.params.header() + "|" + model.params.signature() + "|" +
                      model.domainConstraints + "|" + model.params.sizeConstraints() + "|" +
                      (model.domainExact ? "exact" : "inexact");
    for (bool exact : model.axisExact)
        key += exact ? "1" : "0";
    for (const tight::AccessSet& a : model.accesses)
        key += "\n" + a.text;
    return key;
}

} // namespace

std::optional<StageNeed> analyzeStageNeed(const Schedule& normalized, const InferBoundResult& tight,
                                          const Operation& op) {
    return analyzeStageNeed(normalized, tight, op, createBindMap(normalized));
}

std::optional<StageNeed> analyzeStageNeed(const Schedule& normalized, const InferBoundResult& tight,
                                          const Operation& op, const IterVarMap<IterVar>& bindMap,
                                          StageNeedCache* cache) {
    Stage stage = normalized.findStage(op);
    const StageTrace* trace = tight.trace.find(op);
    if (!stage.defined() || !trace || trace->kind != StageTrace::Kind::Computed)
        return std::nullopt;
    tight::ModelInputs in{normalized, tight.bounds, tight.loopExtents, bindMap};
    if (cache) {
        StageNeedCache::Impl& impl = cache->impl();
        if (impl.run != &tight || !impl.loops) {
            impl.loops.emplace(normalized, tight.trace, bindMap);
            impl.run = &tight;
        }
        in.loops = &*impl.loops;
    }
    tight::IslContext isl;
    isl::ctx ctx = isl.ctx();
    try {
        std::optional<NeedModel> model = tight::buildNeedModel(in, stage, *trace);
        if (!model)
            return std::nullopt;
        // Counting per thread builds a second model; stages that have none are cached.
        const bool threads = touchesThreads(*trace, bindMap);
        std::string key = cache && !threads ? modelKey(*model) : std::string();
        if (!key.empty()) {
            auto hit = cache->impl().needs.find(key);
            if (hit != cache->impl().needs.end()) {
                StageNeed need = hit->second;
                for (size_t i = 0; i < need.accesses.size(); ++i) {
                    need.accesses[i].consumer = model->accesses[i].consumer;
                    need.accesses[i].index = model->accesses[i].index;
                    need.accesses[i].indices = model->accesses[i].indices;
                }
                return need;
            }
        }
        StageNeed need;
        need.exact = isExact(*model);
        isl::set context = model->paramDomain(ctx);
        // Each read's set is built once (from text, which ISL simplifies as it reads it).
        std::vector<isl::set> sets;
        for (size_t i = 0; i < model->accesses.size(); ++i)
            sets.push_back(model->accessSet(ctx, i, context));
        isl::set all = sets.front();
        for (size_t i = 1; i < sets.size(); ++i)
            all = all.unite(sets[i]);
        for (size_t i = 0; i < model->accesses.size(); ++i) {
            const isl::set& set = sets[i];
            MaxCounts c = withinBudget(ctx, need.gaveUp, MaxCounts{}, [&] {
                return maxOverIterations(ctx, *model, set, context);
            });
            // A region given up shows as `?`; it is no count, so need.gaveUp stays.
            bool regionGivenUp = false;
            std::string region = withinBudget(ctx, regionGivenUp, std::string("?"),
                                              [&] { return regionOf(set, *model, context); });
            need.accesses.push_back(
                StageNeed::Access{model->accesses[i].consumer, model->accesses[i].index,
                                  model->accesses[i].indices, c.count, c.hull, std::move(region)});
        }
        MaxCounts counts = withinBudget(ctx, need.gaveUp, MaxCounts{}, [&] {
            return maxOverIterations(ctx, *model, all, context);
        });
        need.needed = counts.count;
        need.hull = counts.hull;
        need.distinct = withinBudget(ctx, need.gaveUp, std::optional<int64_t>(),
                                     [&] { return countOverTheRun(*model, all, context); });
        if (!threads) {
            need.perThread = need.needed;
            if (!key.empty())
                cache->impl().needs.emplace(std::move(key), need);
            return need;
        }
        tight::ModelOptions oneThread;
        oneThread.mode = tight::RelaxMode::PerThread;
        std::optional<NeedModel> perThread = tight::buildNeedModel(in, stage, *trace, oneThread);
        if (perThread)
            need.perThread = withinBudget(ctx, need.gaveUp, std::optional<int64_t>(), [&] {
                return maxOverIterations(ctx, *perThread, perThread->unionSet(ctx),
                                         perThread->paramDomain(ctx))
                    .count;
            });
        return need;
    } catch (const isl::exception&) {
        return std::nullopt;
    }
}

std::optional<StageTouched> analyzeStageTouched(const Schedule& normalized,
                                                const InferBoundResult& result, const Operation& op,
                                                const IterVarMap<IterVar>& bindMap) {
    Stage stage = normalized.findStage(op);
    const StageTrace* trace = result.trace.find(op);
    const auto* compute = op.as<ComputeOpNode>();
    if (!stage.defined() || !trace || !compute || compute->numOutputs() != 1 ||
        (trace->kind != StageTrace::Kind::Computed && trace->kind != StageTrace::Kind::Output) ||
        stage->storePredicate.defined() || stage->doubleBuffer)
        return std::nullopt;
    auto bound = [&](const IterVar& iv) { return tight::isThreadBound(iv, bindMap); };
    if (std::any_of(trace->attachPath.begin(), trace->attachPath.end(), bound) ||
        std::any_of(stage->leafIterVars.begin(), stage->leafIterVars.end(), bound) ||
        touchesThreads(*trace, bindMap))
        return std::nullopt;
    // A tensorized loop nest is a packed call, which the interpreter counts as touching every
    // element of the strided span it is given.
    auto tensorized = [](const Stage& s) {
        return std::any_of(s->leafIterVars.begin(), s->leafIterVars.end(), [&](const IterVar& iv) {
            const IterVarAttr* attr = s.attrOf(iv);
            return attr && attr->iterType == IterVarType::Tensorized;
        });
    };
    if (tensorized(stage) ||
        std::any_of(trace->consumers.begin(), trace->consumers.end(), [&](const ConsumerTrace& ct) {
            const Stage consumer = normalized.stageOf(ct.consumer);
            return !consumer.defined() || tensorized(consumer);
        }))
        return std::nullopt;
    tight::ModelOptions options;
    options.ownWrites = true;
    std::vector<Expr> mins;
    for (const IterVar& axis : compute->axis) {
        auto range = result.bounds.find(axis);
        if (range == result.bounds.end() || !asConstInt(range->second.extent))
            return std::nullopt; // offsets row-major over one box for every entry
        mins.push_back(range->second.min);
    }
    options.alsoNamed = mins;
    tight::ModelInputs in{normalized, result.bounds, result.loopExtents, bindMap};
    tight::IslContext isl;
    isl::ctx ctx = isl.ctx();
    try {
        std::optional<NeedModel> model = tight::buildNeedModel(in, stage, *trace, options);
        if (!model || !isExact(*model))
            return std::nullopt;
        const isl::set context = model->paramDomain(ctx);
        isl::set all = model->unionSet(ctx);
        bool gaveUp = false;
        MaxCounts peak = withinBudget(ctx, gaveUp, MaxCounts{},
                                      [&] { return maxOverIterations(ctx, *model, all, context); });
        if (!peak.count || gaveUp)
            return std::nullopt;
        // The offsets of the allocation: each element less the realize min of its iteration.
        std::vector<std::string> elements, offsetsOf, eqs;
        for (size_t d = 0; d < mins.size(); ++d) {
            std::optional<std::string> min = tight::islAffine(mins[d], model->params.namer());
            if (!min)
                return std::nullopt;
            elements.push_back("a" + std::to_string(d));
            offsetsOf.push_back("o" + std::to_string(d));
            eqs.push_back(offsetsOf.back() + " = " + elements.back() + " - (" + *min + ")");
        }
        isl::map toOffsets(ctx, model->params.header() + "{ [" + tight::join(elements, ", ") +
                                    "] -> [" + tight::join(offsetsOf, ", ") + "] : " +
                                    (eqs.empty() ? "true" : tight::join(eqs, " and ")) + " }");
        isl::set offsets = all.apply(toOffsets);
        std::optional<int64_t> total = withinBudget(ctx, gaveUp, std::optional<int64_t>(), [&] {
            return countOverTheRun(*model, offsets, context);
        });
        if (!total || gaveUp)
            return std::nullopt;
        return StageTouched{*peak.count, *total};
    } catch (const isl::exception&) {
        return std::nullopt;
    }
}

} // namespace bs

#else

namespace bs {

std::optional<StageNeed> analyzeStageNeed(const Schedule&, const InferBoundResult&,
                                          const Operation&) {
    return std::nullopt;
}

struct StageNeedCache::Impl {};

StageNeedCache::StageNeedCache() : m_impl(std::make_unique<Impl>()) {}
StageNeedCache::~StageNeedCache() = default;
size_t StageNeedCache::entries() const { return 0; }

std::optional<StageNeed> analyzeStageNeed(const Schedule&, const InferBoundResult&,
                                          const Operation&, const IterVarMap<IterVar>&,
                                          StageNeedCache*) {
    return std::nullopt;
}

std::optional<StageTouched> analyzeStageTouched(const Schedule&, const InferBoundResult&,
                                                const Operation&, const IterVarMap<IterVar>&) {
    return std::nullopt;
}

} // namespace bs

#endif // BOUNDSCOPE_WITH_ISL
