#include "schedule/InferBound.h"

#include "arith/Analyzer.h"
#include "arith/EvalSet.h"
#include "ir/Functor.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "ir/StorageScope.h"
#include "ir/Substitute.h"
#include "schedule/BoundStepText.h"
#include "schedule/Graph.h"
#include "schedule/InferBoundTight.h"
#include "schedule/MessagePassing.h"
#include "schedule/ScheduleErrors.h"
#include "support/Cancellation.h"
#include "te/Operation.h"

#include <algorithm>
#include <memory>
#include <unordered_set>

namespace bs {

namespace {

/// What InferBound knows about the whole schedule (TVM's GraphContext).
struct GraphContext {
    FeedGraph feedGraph;
    AttachPathMap attachPath;
    IterVarMap<IterVar> bindMap;
    std::unordered_map<const Node*, int> stageIndex; ///< op -> position in sch.stages
    /// Per op, the positions in its attach path of the loops with a thread tag: past the attach
    /// point only those can be relaxed (needRelax), so a walk of a long path jumps to them.
    std::unordered_map<const Node*, std::vector<size_t>> taggedOnPath;
    /// Every stage's IterVars and the threads they are bound to, by variable.
    std::unordered_map<const VarNode*, IterVar> loopOfVar;
};

const std::string& threadTagOf(const IterVar& iv, const IterVarMap<IterVar>& bindMap);

const std::string& threadTagOf(const IterVar& iv, const IterVarMap<IterVar>& bindMap) {
    auto it = bindMap.find(iv);
    return it != bindMap.end() ? it->second->threadTag : iv->threadTag;
}

/// Whether a loop with thread tag `tag` runs on a thread (NeedRelax's test: no tag, or the
/// `pipeline` tag, is a serial loop).
bool isThreadTag(const std::string& tag) { return !tag.empty() && tag != "pipeline"; }

/// TVM's NeedRelax, returning the reason as text for the trace (notes section 4).
bool needRelax(const IterVar& iv, bool foundAttach, const IterVarMap<IterVar>& bindMap,
               const StorageScope& scope, std::string* reason) {
    const std::string& tag = threadTagOf(iv, bindMap);
    if (!isThreadTag(tag)) {
        *reason = foundAttach ? "at or outside the attach point: one iteration at a time"
                              : "inside the attach point: all its iterations are needed";
        return !foundAttach;
    }
    ThreadScope ts = ThreadScope::create(tag);
    // Storage shared at this thread level needs every index of the axis (shared storage and
    // threadIdx: the threads of a block share the buffer); storage private to it needs one
    // (shared storage and blockIdx: each block has its own buffer).
    bool relax = threadSharesStorage(scope, ts);
    if (relax && scope.rank == StorageRank::Warp) {
        *reason =
            "bound to threadIdx.x and the storage is warp: one buffer serves the warp's lanes";
        return true;
    }
    const std::string unit = ts.rank == 0 ? "block" : "thread";
    const std::string buffer = scope.toString() + " buffer";
    *reason = "bound to " + tag +
              (relax ? ": the " + unit + "s share one " + buffer + ", so all its indices are needed"
                     : ": each " + unit + " has its own " + buffer + ", so one index at a time");
    return relax;
}

/// Infers the storage scope from the attach path when the stage sets none (the thread's rule:
/// threadIdx/vthread on the path -> local, blockIdx only -> shared, none -> global).
StorageScope inferStorageScope(const Stage& stage, const GraphContext& ctx, bool* inferred) {
    *inferred = stage->scope.empty();
    if (!*inferred)
        return StorageScope::create(stage->scope);
    int maxRank = -1;
    const AttachPath& path = ctx.attachPath.at(stage->op);
    for (size_t at : ctx.taggedOnPath.at(stage->op.get()))
        maxRank = std::max(maxRank, ThreadScope::create(threadTagOf(path[at], ctx.bindMap)).rank);
    return StorageScope::fromThreadRank(maxRank);
}

/// The consumers of any output of `stage`, in schedule order (deterministic traces).
std::vector<Operation> consumersOf(const Stage& stage, const GraphContext& ctx) {
    std::vector<Operation> consumers;
    for (int i = 0; i < stage->op->numOutputs(); ++i) {
        auto it = ctx.feedGraph.find(stage->op.output(i));
        if (it == ctx.feedGraph.end())
            continue;
        for (const Operation& op : it->second)
            if (std::none_of(consumers.begin(), consumers.end(),
                             [&](const Operation& c) { return c.same_as(op); }))
                consumers.push_back(op);
    }
    std::sort(consumers.begin(), consumers.end(), [&](const Operation& a, const Operation& b) {
        return ctx.stageIndex.at(a.get()) < ctx.stageIndex.at(b.get());
    });
    return consumers;
}

using TensorDomMap =
    std::unordered_map<Tensor, std::vector<std::vector<IntSet>>, TensorHash, TensorEqual>;

/// The steps of one stage's visit: InferRootBound's phases and PassDownDomain.
struct StageStepLog {
    BoundSteps& steps;
    Operation stage;
    Operation consumer; ///< the consumer whose request is being made, in phases 1-3
    SourceLocation location;
    /// Phases 1-2 of the current consumer: the step that made each IterVar's set, and the
    /// relax steps (what a root set reads).
    IterVarMap<int> setSteps;
    std::vector<int> relaxSteps;

    int add(StepPhase phase, std::string rule, std::string text, StepDetail detail = {}) {
        BoundStep step;
        step.phase = phase;
        step.rule = std::move(rule);
        step.stage = stage;
        step.consumer = consumer;
        step.text = std::move(text);
        step.location = location;
        step.detail = std::move(detail);
        return steps.add(std::move(step));
    }
    BoundStep& last() { return const_cast<BoundStep&>(steps.at(int(steps.size()) - 1)); }

    /// The PassUpDomain / PassDownDomain events of this stage as steps.
    PassSink sink(StepPhase phase) {
        return [this, phase](const PassEvent& e) {
            std::string owner = phase == StepPhase::PassUp ? consumer->name : stage->name;
            std::string text = phase == StepPhase::PassUp ? steptext::passUp(e, owner)
                                                          : steptext::passDown(e, owner);
            std::string rule = passRuleName(e.rule);
            if (e.tightening != Tightening::NotApplicable)
                rule += std::string("/") + tighteningName(e.tightening);
            add(phase, rule, text);
            BoundStep& step = last();
            step.relation = e.relation;
            if (e.relation.defined())
                step.location = e.relation->location;
            else if (e.location.known())
                step.location = e.location;
            for (const auto& [iv, set] : e.setsIn) {
                step.inputs.push_back(StepValue{iv->var.name(), iv, set, std::nullopt, Expr()});
                if (auto it = setSteps.find(iv); it != setSteps.end())
                    step.from.push_back(it->second);
            }
            for (const auto& [iv, set] : e.setsOut) {
                step.outputs.push_back(StepValue{iv->var.name(), iv, set, std::nullopt, Expr()});
                setSteps[iv] = step.id;
            }
            for (const auto& [iv, r] : e.rangesIn) {
                step.inputs.push_back(StepValue{iv->var.name(), iv, std::nullopt, r, Expr()});
                if (steps.rangeStep(iv) >= 0)
                    step.from.push_back(steps.rangeStep(iv));
            }
            for (const auto& [iv, r] : e.rangesOut) {
                step.outputs.push_back(StepValue{iv->var.name(), iv, std::nullopt, r, Expr()});
                step.iterVars.push_back(iv);
                if (phase == StepPhase::PassDown)
                    steps.setRangeStep(iv, step.id);
            }
            if (e.evaluated.defined())
                step.inputs.push_back(
                    StepValue{"evaluated", IterVar(), std::nullopt, std::nullopt, e.evaluated});
        };
    }
};

/// The tight rules' replay of InferRootBound (TightRules::refineRootBounds): the loops that run
/// a split remainder take the extent they really run instead of their range's. InferBound's own
/// run has no `extents` and takes every range.
struct LoopExtentOverride {
    const IterVarMap<Expr>* extents = nullptr;
    VarSet relaxed;                      ///< the variables of every loop relaxed so far
    std::vector<Expr> relaxedRemainders; ///< the remainder extents of relaxed loops

    /// The set of loop `iv` (variable `var`), relaxed over its range `r`.
    IntSet relax(const IterVar& iv, const Var& var, const Range& r) {
        if (!extents)
            return IntSet::fromRange(r);
        relaxed.insert(var);
        auto it = extents->find(iv);
        if (it == extents->end())
            return IntSet::fromRange(r);
        relaxedRemainders.push_back(it->second);
        return IntSet::fromMinExtent(r.min, it->second);
    }
    /// Whether a relaxed loop's remainder names another relaxed loop: intervals cannot
    /// correlate the two.
    bool correlated() const {
        return std::any_of(relaxedRemainders.begin(), relaxedRemainders.end(), [&](const Expr& e) {
            return usesVar(e, [&](const VarNode* v) { return relaxed.count(Var(v)) != 0; });
        });
    }
};

/// Phase 1: the IntSet of each consumer leaf, innermost first.
void initLeafSets(const Stage& consumer, const AttachPath& attach, const StorageScope& scope,
                  const GraphContext& ctx, const IterVarMap<Range>& rmap, LoopExtentOverride& loops,
                  IterVarMap<IntSet>* upState, bool* found, StageStepLog& log) {
    const auto& leaves = consumer->leafIterVars;
    for (size_t i = leaves.size(); i-- > 0;) {
        const IterVar& iv = leaves[i];
        if (!attach.empty() && iv.same_as(attach[0]))
            *found = true;
        auto it = rmap.find(iv);
        BS_CHECK(it != rmap.end()) << "consumer leaf " << iv->var.name() << " has no range yet";
        const Range& r = it->second;
        LeafSetEntry entry{iv, r, IntSet(), LeafCase::Relax, ""};
        auto bound = ctx.bindMap.find(iv);
        if (isOne(r.extent)) {
            entry.set = IntSet::singlePoint(r.min);
            entry.leafCase = LeafCase::ExtentOne;
            entry.reason = "extent is 1: a single point at its min";
        } else if (bound != ctx.bindMap.end() &&
                   regionHoldsVirtualThread(consumer, rmap, bound->second)) {
            // As the loop nest computes it (lower/LoopNest.cpp); TVM takes the thread variable.
            entry.set = IntSet::singlePoint(r.min);
            entry.leafCase = LeafCase::ThreadInRegion;
            entry.reason = "bound to " + bound->second->threadTag +
                           ", whose offset the stage's own region already holds: its min";
        } else if (!needRelax(iv, *found, ctx.bindMap, scope, &entry.reason)) {
            if (!isConstInt(r.min, 0))
                throw UserError("InferBound requires every leaf iter var's min to be 0, but '" +
                                iv->var.name() + "' of stage '" + consumer->op->name +
                                "' starts at " + toString(r.min) + "; call schedule.normalize()");
            entry.set = IntSet::singlePoint(bound != ctx.bindMap.end() ? Expr(bound->second->var)
                                                                       : Expr(iv->var));
            entry.leafCase = LeafCase::NoRelax;
        } else {
            entry.set = loops.relax(iv, iv->var, r);
        }
        (*upState)[iv] = entry.set;
        std::string text = steptext::leafSet(entry, consumer->op->name);
        log.setSteps[iv] = log.add(StepPhase::LeafSet, leafCaseName(entry.leafCase), text, entry);
        BoundStep& step = log.last();
        if (int from = log.steps.rangeStep(iv); from >= 0)
            step.from.push_back(from);
        step.iterVars = {iv};
        step.location = iv->location;
        step.inputs.push_back(StepValue{iv->var.name(), iv, std::nullopt, r, Expr()});
        step.outputs.push_back(StepValue{iv->var.name(), iv, entry.set, std::nullopt, Expr()});
    }
}

void addRelaxStep(StageStepLog& log, const RelaxEntry& entry) {
    log.relaxSteps.push_back(
        log.add(StepPhase::Relax, "relax", steptext::relax(entry, log.consumer->name), entry));
    BoundStep& step = log.last();
    if (int from = log.steps.rangeStep(entry.iv); from >= 0)
        step.from.push_back(from);
    step.iterVars = {entry.iv};
    step.outputs.push_back(StepValue{entry.var.name(), entry.iv, entry.set, std::nullopt, Expr()});
}

/// A virtual thread's variable is defined only inside the loops bound to it. Where the
/// consumer's region holds one (regionHoldsVirtualThread: a "local" consumer computed outside
/// its own consumer's vthread loop) and the producer is attached outside every loop bound to
/// it, the producer serves all of the thread's values: the thread joins the relax set. TVM
/// leaves the thread variable free in the producer's region, and its MakeAPI then rejects the
/// program ("Not all Vars are passed").
void relaxVirtualThreadsOutOfScope(const Stage& consumer, const AttachPath& attach,
                                   const GraphContext& ctx, const IterVarMap<Range>& rmap,
                                   LoopExtentOverride& loops, VarMap<IntSet>* relaxSet,
                                   StageStepLog& log) {
    auto inScope = [&](const IterVar& thread) {
        return std::any_of(attach.begin(), attach.end(), [&](const IterVar& iv) {
            auto bound = ctx.bindMap.find(iv);
            return bound != ctx.bindMap.end() && bound->second.same_as(thread);
        });
    };
    for (const auto& [leaf, thread] : ctx.bindMap) {
        auto range = rmap.find(thread);
        if (relaxSet->count(thread->var) || range == rmap.end() ||
            !regionHoldsVirtualThread(consumer, rmap, thread) || inScope(thread))
            continue;
        IntSet set = loops.relax(thread, thread->var, range->second);
        (*relaxSet)[thread->var] = set;
        addRelaxStep(log, RelaxEntry{thread, thread->var, set,
                                     "a virtual thread the consumer's region holds, not defined "
                                     "at the attach point: all its values are needed"});
    }
}

/// The consumer's own attach-path loops that are inside the producer's attach point (or bound
/// to threads the storage scope shares) form the relax set.
void collectRelaxSet(const Operation& consumerOp, const AttachPath& attach,
                     const StorageScope& scope, const GraphContext& ctx,
                     const IterVarMap<Range>& rmap, LoopExtentOverride& loops, bool* found,
                     VarMap<IntSet>* relaxSet, StageStepLog& log) {
    const AttachPath& path = ctx.attachPath.at(consumerOp);
    const std::vector<size_t>& tagged = ctx.taggedOnPath.at(consumerOp.get());
    for (size_t at = 0; at < path.size(); ++at) {
        if (*found) {
            // Past the attach point a loop without a thread tag is never relaxed: the next
            // tagged one, if any.
            auto next = std::lower_bound(tagged.begin(), tagged.end(), at);
            if (next == tagged.end())
                break;
            at = *next;
        }
        const IterVar& iv = path[at];
        if (!attach.empty() && iv.same_as(attach[0]))
            *found = true;
        auto it = rmap.find(iv);
        BS_CHECK(it != rmap.end()) << "attach path loop " << iv->var.name() << " has no range";
        std::string reason;
        if (!needRelax(iv, *found, ctx.bindMap, scope, &reason))
            continue;
        IntSet set = loops.relax(iv, iv->var, it->second);
        (*relaxSet)[iv->var] = set;
        addRelaxStep(log, RelaxEntry{iv, iv->var, set, reason});
        auto bound = ctx.bindMap.find(iv);
        if (bound != ctx.bindMap.end()) {
            loops.relaxed.insert(bound->second->var);
            (*relaxSet)[bound->second->var] = set;
            addRelaxStep(log, RelaxEntry{iv, bound->second->var, set, reason});
        }
    }
}

/// The request steps per (tensor op, value index, axis): what phase 4's union reads.
using RequestStepMap = std::map<std::tuple<const Node*, int, int>, std::vector<int>>;

/// Phase 3 for a compute consumer (ComputeOp::PropBoundToInputs): every read of one of the
/// producer's tensors pushes one IntSet per axis, clamped to the shape when the shape interval
/// is provably inside the access interval (both ends together, notes section 5). TVM v0.5 (the
/// tvm-0.5 rules) never clamps: PR #3526 added the clamp, PR #5367 made it both ends together.
class RequestCollector : public IRVisitor {
public:
    RequestCollector(Analyzer& analyzer, const VarMap<IntSet>& dom, TensorDomMap& tmap,
                     StageStepLog& log, std::vector<int> rootSetSteps, RequestStepMap& requestSteps,
                     BoundRules rules)
        : m_analyzer(analyzer), m_dom(dom), m_tmap(tmap), m_log(log),
          m_rootSetSteps(std::move(rootSetSteps)), m_requestSteps(requestSteps),
          m_clamp(rules != BoundRules::Tvm05) {}

protected:
    using IRVisitor::visit;
    void visit(const ProducerLoadNode* op) override {
        IRVisitor::visit(op);
        auto it = m_tmap.find(op->tensor);
        if (it == m_tmap.end())
            return;
        const std::vector<Expr>& shape = op->tensor.shape();
        for (size_t i = 0; i < op->indices.size(); ++i) {
            IntSet evaluated = m_analyzer.intSet(op->indices[i], m_dom);
            IntSet request = evaluated;
            bool clamped = false;
            Expr shapeMax = shape[i] - 1;
            bool unbounded = !evaluated.hasLowerBound() && !evaluated.hasUpperBound();
            if (m_clamp &&
                (unbounded || (evaluated.hasLowerBound() && evaluated.hasUpperBound() &&
                               m_analyzer.canProve(makeZero(shape[i].type()) >= evaluated.min()) &&
                               m_analyzer.canProve(shapeMax <= evaluated.max())))) {
                request = IntSet::interval(makeZero(shape[i].type()), shapeMax);
                clamped = true;
            }
            it->second[i].push_back(request);
            RequestEntry entry{op->tensor, int(i), op->indices[i], evaluated, request, clamped};
            m_log.add(StepPhase::Request, clamped ? "clamped" : "evaluated",
                      steptext::request(entry, m_log.consumer), entry);
            BoundStep& step = m_log.last();
            step.tensor = op->tensor;
            step.axis = int(i);
            step.from = m_rootSetSteps;
            step.inputs.push_back(
                StepValue{"index", IterVar(), std::nullopt, std::nullopt, op->indices[i]});
            step.outputs.push_back(StepValue{op->tensor.name() + "[axis " + std::to_string(i) + "]",
                                             IterVar(), request, std::nullopt, Expr()});
            m_requestSteps[{op->tensor.op.get(), op->tensor.valueIndex, int(i)}].push_back(step.id);
        }
    }

private:
    Analyzer& m_analyzer;
    const VarMap<IntSet>& m_dom;
    TensorDomMap& m_tmap;
    StageStepLog& m_log;
    std::vector<int> m_rootSetSteps;
    RequestStepMap& m_requestSteps;
    bool m_clamp;
};

/// Phase 3 for a scan consumer (TVM's ScanOpNode::PropBoundToInputs): an init is needed whole
/// along its rows, an update at the rows of the scan axis; the other axes of both over the
/// range the scan computes its spatial axes. (TVM requests a spatial axis's whole domain
/// there while realizing only the range its GatherBound sliced at a fix point, so the inits
/// and updates write past the state; the range is what the scan realizes.)
void requestFromScan(const ScanOpNode* scan, const VarMap<IntSet>& domMap,
                     const IterVarMap<Range>& rmap, TensorDomMap& tmap, StageStepLog& log,
                     const std::vector<int>& rootSetSteps, RequestStepMap& requestSteps) {
    auto push = [&](const Tensor& t, size_t axis, const IterVar& by, IntSet request,
                    const char* rule, std::string why) {
        auto it = tmap.find(t);
        if (it == tmap.end())
            return;
        it->second[axis].push_back(request);
        RequestEntry entry{t, int(axis), by->var, request, request, false};
        log.add(StepPhase::Request, rule,
                "Phase 3: scan '" + scan->name + "' needs " + t.name() + " axis " +
                    std::to_string(axis) + " over " + request.toString() + ": " + std::move(why) +
                    ".",
                entry);
        BoundStep& step = log.last();
        step.tensor = t;
        step.axis = int(axis);
        step.from = rootSetSteps;
        step.inputs.push_back(StepValue{"index", IterVar(), std::nullopt, std::nullopt, by->var});
        step.outputs.push_back(StepValue{t.name() + "[axis " + std::to_string(axis) + "]",
                                         IterVar(), request, std::nullopt, Expr()});
        requestSteps[{t.op.get(), t.valueIndex, int(axis)}].push_back(step.id);
    };
    const IterVar& time = scan->scanAxis;
    for (size_t i = 0, sp = 0; i < scan->update.size(); ++i) {
        const Tensor& init = scan->init[i];
        const Tensor& update = scan->update[i];
        push(init, 0, time,
             IntSet::fromRange(Range(makeZero(init.shape()[0].type()), init.shape()[0])),
             "scan-init",
             "the init fills rows 0 to " + toString(init.shape()[0]) +
                 " - 1 of the state, all of them before the scan starts");
        push(update, 0, time, domMap.at(time->var), "scan-update",
             "each step of the scan computes the update's rows at its index " + time->var.name());
        for (size_t k = 1; k < update.ndim(); ++k, ++sp) {
            const IterVar& axis = scan->spatialAxis[sp];
            IntSet set = domMap.at(axis->var);
            std::string why = "the scan's spatial axis " + axis->var.name() + " spans it";
            if (auto computed = rmap.find(axis); computed != rmap.end()) {
                set = IntSet::fromRange(computed->second);
                why = "the scan computes its spatial axis " + axis->var.name() + " over " +
                      set.toString();
            }
            push(init, k, axis, set, "scan-spatial", why);
            push(update, k, axis, set, "scan-spatial", why);
        }
    }
}

/// Phase 3 for an extern consumer (TVM's ExternOpNode::PropBoundToInputs): its body is opaque,
/// so every input is needed whole, [0, shape) along each axis.
void requestFromExtern(const ExternOpNode* ext, TensorDomMap& tmap, StageStepLog& log,
                       RequestStepMap& requestSteps) {
    for (const Tensor& t : ext->inputs) {
        auto it = tmap.find(t);
        if (it == tmap.end())
            continue;
        for (size_t axis = 0; axis < t.ndim(); ++axis) {
            const Expr& extent = t.shape()[axis];
            IntSet request = IntSet::fromRange(Range(makeZero(extent.type()), extent));
            it->second[axis].push_back(request);
            // No index expression: the body is opaque (the trace shows "opaque").
            RequestEntry entry{t,       int(axis), StringImmNode::make("opaque"),
                               request, request,   false};
            log.add(StepPhase::Request, "extern-input",
                    "Phase 3: extern '" + ext->name + "' needs " + t.name() + " axis " +
                        std::to_string(axis) + " whole, " + request.toString() +
                        ": its body is a statement bound inference does not look into, so it "
                        "may read any element.",
                    entry);
            BoundStep& step = log.last();
            step.tensor = t;
            step.axis = int(axis);
            step.location = ext->location;
            step.inputs.push_back(
                StepValue{"index", IterVar(), std::nullopt, std::nullopt, entry.index});
            step.outputs.push_back(StepValue{t.name() + "[axis " + std::to_string(axis) + "]",
                                             IterVar(), request, std::nullopt, Expr()});
            requestSteps[{t.op.get(), t.valueIndex, int(axis)}].push_back(step.id);
        }
    }
}

/// Phase 3 for a tensor-compute consumer (TVM's TensorComputeOpNode::PropBoundToInputs): each
/// input is needed over its region, each range evaluated over the consumer's roots.
void requestFromTensorCompute(const TensorComputeOpNode* tc, const VarMap<IntSet>& domMap,
                              Analyzer& analyzer, TensorDomMap& tmap, StageStepLog& log,
                              const std::vector<int>& rootSetSteps, RequestStepMap& requestSteps) {
    for (size_t i = 0; i < tc->inputs.size(); ++i) {
        const Tensor& t = tc->inputs[i];
        auto it = tmap.find(t);
        if (it == tmap.end())
            continue;
        for (size_t axis = 0; axis < t.ndim(); ++axis) {
            const Range& r = tc->inputRegions[i][axis];
            // TVM's EvalSet(Range): the last element simplified first, so that a region
            // [i, 10 - i) ends at 9 whatever i is.
            Expr last = analyzer.simplify(r.min + r.extent - 1);
            IntSet request = IntSet::interval(analyzer.intSet(r.min, domMap).min(),
                                              analyzer.intSet(last, domMap).max());
            it->second[axis].push_back(request);
            // No single index: the call reads a range (the trace shows it as text).
            Expr index =
                StringImmNode::make("[" + toString(r.min) + ", +" + toString(r.extent) + ")");
            RequestEntry entry{t, int(axis), index, request, request, false};
            log.add(StepPhase::Request, "tensor-compute-region",
                    "Phase 3: '" + tc->name + "' calls tensor intrinsic '" + tc->intrin->name +
                        "' on " + t.name() + " axis " + std::to_string(axis) + " over [" +
                        toString(r.min) + ", " + toString(r.extent) +
                        "] at each iteration: " + request.toString() + " over its loops.",
                    entry);
            BoundStep& step = log.last();
            step.tensor = t;
            step.axis = int(axis);
            step.from = rootSetSteps;
            step.inputs.push_back(StepValue{"region", IterVar(), std::nullopt, r, Expr()});
            step.outputs.push_back(StepValue{t.name() + "[axis " + std::to_string(axis) + "]",
                                             IterVar(), request, std::nullopt, Expr()});
            requestSteps[{t.op.get(), t.valueIndex, int(axis)}].push_back(step.id);
        }
    }
}

/// Binds the ranges the consumer's expressions can mention: the consumer's own IterVars, the
/// loops around it (its attach path) and around the producer, with the threads they are bound
/// to. TVM binds every range inferred so far, but no other variable can appear in these
/// expressions, and binding only these keeps InferBound linear in the number of stages.
void bindVisibleRanges(const Stage& consumer, const Stage& producer, const GraphContext& ctx,
                       const IterVarMap<Range>& rmap, Analyzer& analyzer) {
    // A loop of the attach paths is bound only when something bound before it names it: the
    // consumer's own loops, their ranges and, transitively, the ranges of the loops those name
    // (the paths run innermost first, and a loop's range names only loops further out). A
    // binding no analysed expression reaches changes nothing. The order is the paths' (the
    // analyzer bounds a range with what is bound before it). A nest of N attached stages has
    // paths N loops long: a walk stops once nothing named is left to bind and no thread-bound
    // loop is left on the path.
    VarMap<bool> bound;
    std::unordered_set<const VarNode*> named;
    std::unordered_set<const VarNode*> pending; ///< named loops not bound yet
    auto name = [&](const Expr& e) {
        for (const Var& v : usedVars(e))
            if (named.insert(v.get()).second && ctx.loopOfVar.count(v.get()) && !bound.count(v))
                pending.insert(v.get());
    };
    auto bindOne = [&](const IterVar& iv, bool always) {
        if (!always && !named.count(iv->var.get()))
            return; // most loops of a long path: not looked up
        auto it = rmap.find(iv);
        if (it == rmap.end() || !bound.emplace(iv->var, true).second)
            return;
        pending.erase(iv->var.get());
        name(it->second.min);
        name(it->second.extent);
        analyzer.bind(iv->var, it->second);
    };
    auto bindWithThread = [&](const IterVar& iv, bool always) {
        bindOne(iv, always);
        auto thread = ctx.bindMap.find(iv);
        if (thread != ctx.bindMap.end())
            bindOne(thread->second, true); // few: a kernel has at most six thread axes
    };
    for (const IterVar& iv : consumer->allIterVars)
        bindWithThread(iv, true);
    for (const Stage& stage : {consumer, producer}) {
        const AttachPath& path = ctx.attachPath.at(stage->op);
        const std::vector<size_t>& tagged = ctx.taggedOnPath.at(stage->op.get());
        const size_t threadsEnd = tagged.empty() ? 0 : tagged.back() + 1;
        for (size_t at = 0; at < path.size() && (!pending.empty() || at < threadsEnd); ++at)
            bindWithThread(path[at], false);
    }
}

/// TVM's "cannot find the producer along the loop nest": `stage` is computed at a loop its
/// consumer does not run inside. Said from the compute_at that made it, at its line.
[[noreturn]] void throwAttachNoPath(const Stage& stage, const Operation& consumerOp) {
    const std::string producer = stage->op->name;
    const Stage spec = stage.attachSpec();
    const std::string loop = spec->attachIVar->var.name();
    const std::string at = spec->attachStage.name();
    const std::string group = spec.same_as(stage) ? "" : " (with its group " + spec.name() + ")";
    Diagnostic d{"invalid schedule: '" + producer + "' is computed at loop '" + loop + "' of '" +
                     at + "'" + group + ", but its consumer '" + consumerOp->name +
                     "' does not run inside that loop, so "
                     "no iteration of '" +
                     loop + "' can compute what '" + consumerOp->name +
                     "' reads (TVM: cannot find the producer along the loop nest)",
                 spec->attachLocation.known() ? spec->attachLocation : currentSourceLocation()};
    d.subject.kind = "attach-no-path";
    d.subject.stage = producer;
    d.subject.iterVar = loop;
    // The loop as the script named it: normalize rebased the attach stage's root loops.
    d.subject.iterVarId = loopAsWritten(spec->attachStage, spec->attachIVar).get();
    d.subject.otherStage = at;
    d.subject.consumer = consumerOp->name;
    throw UserError(std::move(d));
}

/// An inlined stage has no loops of its own, so none of them can be split or fused: TVM stops
/// in PassDownDomain (`Check failed: allow_missing`, the split's parent has no range). Said at
/// the compute_inline, naming the relation's line.
void refuseRelationsOfInlined(const Stage& stage) {
    if (stage->attachType != AttachType::InlinedAlready)
        return;
    for (const IterVarRelation& rel : stage->relations) {
        std::string what;
        IterVar loop;
        if (const auto* split = rel.as<SplitNode>()) {
            what = "split";
            loop = split->parent;
        } else if (const auto* fuse = rel.as<FuseNode>()) {
            what = "fused";
            loop = fuse->outer;
        } else {
            continue; // a singleton loop needs no range; rebase never applies to inlined stages
        }
        const std::string name = stage->op->name;
        const std::string line =
            rel->location.known() ? " at line " + std::to_string(rel->location.line) : "";
        Diagnostic d{"'" + name + "' is inlined, but its loop '" + loop->var.name() + "' was " +
                         what + line +
                         ": an inlined stage has no loops of its own, its values are "
                         "computed inside its consumers' loops (TVM stops here too: Check failed: "
                         "allow_missing)",
                     stage->attachLocation.known() ? stage->attachLocation : rel->location};
        d.subject = loopSubject("inlined-has-loops", stage, loop);
        d.fix = "schedule the loops of the consumers that " + name +
                " is inlined into, or compute " + name + " at the root (s[" + name +
                "].compute_root()) to keep its " + what + " loop";
        throw UserError(std::move(d));
    }
}

/// Phases 1-3 for one consumer of `stage`; false when `loops` replaces an extent that the
/// phases cannot use (LoopExtentOverride::correlated).
bool requestFromConsumer(const Schedule& sch, const Stage& stage, const Operation& consumerOp,
                         const StorageScope& scope, const GraphContext& ctx,
                         const IterVarMap<Range>& rmap, BoundRules rules, LoopExtentOverride loops,
                         TensorDomMap& tmap, StageStepLog& log, RequestStepMap& requestSteps) {
    const Stage consumer = sch.stageOf(consumerOp);
    const AttachPath& attach = ctx.attachPath.at(stage->op);
    log.consumer = consumerOp;
    log.setSteps.clear();
    log.relaxSteps.clear();
    ConsumerVisit visit{ctx.attachPath.at(consumerOp)};
    log.add(StepPhase::Consumer, attach.empty() ? "at-root" : "attached",
            steptext::consumer(stage, consumerOp, visit, attach), visit);
    log.last().location = stepLine(consumer);
    IterVarMap<IntSet> upState;
    bool found = false;
    initLeafSets(consumer, attach, scope, ctx, rmap, loops, &upState, &found, log);
    VarMap<IntSet> relaxSet;
    collectRelaxSet(consumerOp, attach, scope, ctx, rmap, loops, &found, &relaxSet, log);
    relaxVirtualThreadsOutOfScope(consumer, attach, ctx, rmap, loops, &relaxSet, log);
    if (!found && !attach.empty())
        throwAttachNoPath(stage, consumerOp);
    if (loops.correlated())
        return false;
    passUpDomain(consumer, rmap, rules, &upState, log.sink(StepPhase::PassUp));

    Analyzer analyzer;
    bindVisibleRanges(consumer, stage, ctx, rmap, analyzer);
    VarMap<IntSet> domMap;
    std::vector<int> rootSetSteps;
    for (const IterVar& iv : consumerOp->rootIterVars()) {
        RootSetEntry entry{iv, std::nullopt, iv->dom, IntSet()};
        auto it = upState.find(iv);
        if (it != upState.end()) {
            entry.upState = it->second;
            entry.covered = it->second.coverRange(iv->dom);
        }
        const Range& r = entry.covered;
        if (!relaxSet.empty()) {
            entry.domain = IntSet::interval(analyzer.intSet(r.min, relaxSet).min(),
                                            analyzer.intSet(r.min + r.extent - 1, relaxSet).max());
        } else {
            entry.domain = IntSet::fromRange(r);
        }
        domMap[iv->var] = entry.domain;
        analyzer.bind(iv->var, r, /*allowOverride=*/true);
        rootSetSteps.push_back(
            log.add(StepPhase::RootSet, relaxSet.empty() ? "covered" : "relaxed",
                    steptext::rootSet(entry, !relaxSet.empty(), consumerOp->name), entry));
        BoundStep& step = log.last();
        step.iterVars = {iv};
        step.outputs.push_back(StepValue{iv->var.name(), iv, entry.domain, std::nullopt, Expr()});
        if (auto from = log.setSteps.find(iv); from != log.setSteps.end())
            step.from.push_back(from->second);
        step.from.insert(step.from.end(), log.relaxSteps.begin(), log.relaxSteps.end());
    }
    if (const auto* scan = consumerOp.as<ScanOpNode>()) {
        requestFromScan(scan, domMap, rmap, tmap, log, rootSetSteps, requestSteps);
    } else if (const auto* ext = consumerOp.as<ExternOpNode>()) {
        requestFromExtern(ext, tmap, log, requestSteps);
    } else if (const auto* tc = consumerOp.as<TensorComputeOpNode>()) {
        requestFromTensorCompute(tc, domMap, analyzer, tmap, log, rootSetSteps, requestSteps);
    } else {
        const auto* compute = consumerOp.as<ComputeOpNode>();
        BS_CHECK(compute) << "consumer " << consumerOp->name << " is not a compute operation";
        RequestCollector collector(analyzer, domMap, tmap, log, rootSetSteps, requestSteps, rules);
        for (const Expr& body : compute->body)
            collector.visitExpr(body);
    }
    log.consumer = Operation();
    return true;
}

/// One phase-4 step: the range of root `iv`.
void addRootBoundStep(StageStepLog& log, const RootBound& bound, std::vector<int> from,
                      const char* rule) {
    int id = log.add(StepPhase::Union, rule,
                     steptext::rootBound(bound, from.size(), log.stage->name), bound);
    BoundStep& step = log.last();
    step.iterVars = {bound.iv};
    step.axis = bound.outputAxis;
    step.from = std::move(from);
    step.location = bound.iv->location;
    if (bound.unionSet)
        step.inputs.push_back(StepValue{"union", bound.iv, *bound.unionSet, std::nullopt, Expr()});
    step.outputs.push_back(
        StepValue{bound.iv->var.name(), bound.iv, std::nullopt, bound.range, Expr()});
    log.steps.setRangeStep(bound.iv, id);
}

/// The request steps of axis `axis` of `t`.
std::vector<int> requestStepsOf(const RequestStepMap& requestSteps, const Tensor& t, int axis) {
    auto it = requestSteps.find({t.op.get(), t.valueIndex, axis});
    return it == requestSteps.end() ? std::vector<int>{} : it->second;
}

/// Phase 4 of a scan (TVM's ScanOpNode::GatherBound): the scan axis keeps its start and covers
/// every row requested of any output; a spatial axis covers the requests only where
/// ScanFixPointAnalysis proves that row t along it needs only the same index of earlier rows,
/// and is the whole axis otherwise.
void gatherScanBound(const Stage& stage, const ScanOpNode* scan, const TensorDomMap& tmap,
                     const RequestStepMap& requestSteps, IterVarMap<Range>* rmap,
                     StageStepLog& log) {
    std::vector<IntSet> rows;
    std::vector<int> rowSteps;
    for (int i = 0; i < scan->numOutputs(); ++i) {
        const Tensor out = stage->op.output(i);
        const auto& requests = tmap.at(out)[0];
        rows.insert(rows.end(), requests.begin(), requests.end());
        std::vector<int> steps = requestStepsOf(requestSteps, out, 0);
        rowSteps.insert(rowSteps.end(), steps.begin(), steps.end());
    }
    const Range& sdom = scan->scanAxis->dom;
    IntSet u = unionSets(rows);
    Range covered = u.coverRange(sdom);
    Analyzer analyzer;
    Range time(sdom.min, analyzer.simplify(covered.extent + covered.min - sdom.min));
    (*rmap)[scan->scanAxis] = time;
    addRootBoundStep(log,
                     RootBound{scan->scanAxis, 0, u, time,
                               "the scan starts at its first row and runs up to the last row "
                               "requested"},
                     std::move(rowSteps), "scan-axis");
    IterVarMap<bool> fixPoint = scanFixPointAnalysis(stage->op);
    for (int i = 0; i < scan->numOutputs(); ++i) {
        const Tensor out = stage->op.output(i);
        const std::vector<IterVar> axes = scan->spatialAxesOf(i);
        for (size_t k = 1; k <= axes.size(); ++k) {
            const IterVar& iv = axes[k - 1];
            std::vector<int> from = requestStepsOf(requestSteps, out, int(k));
            if (fixPoint.at(iv)) {
                IntSet uk = unionSets(tmap.at(out)[k]);
                Range r = uk.coverRange(iv->dom);
                (*rmap)[iv] = r;
                addRootBoundStep(log,
                                 RootBound{iv, int(k), uk, r,
                                           "a fix point: each row needs only this index of the "
                                           "rows before it, so the requests slice it"},
                                 std::move(from), "scan-fix-point");
            } else {
                (*rmap)[iv] = iv->dom;
                addRootBoundStep(log,
                                 RootBound{iv, int(k), std::nullopt, iv->dom,
                                           "not a fix point: a row may need other indices of the "
                                           "rows before it, so the whole axis is computed"},
                                 std::move(from), "scan-not-fix-point");
            }
        }
    }
}

/// Phase 4 (ComputeOp::GatherBound): data axes cover the union of the requests for output 0
/// (TVM's, which reads past the region of another output a consumer asks more of); under the
/// tight and compact rules, of every output. Reduce axes keep their dom.
void gatherBound(const Stage& stage, const TensorDomMap& tmap, const RequestStepMap& requestSteps,
                 BoundRules rules, IterVarMap<Range>* rmap, StageStepLog& log) {
    if (const auto* scan = stage->op.as<ScanOpNode>())
        return gatherScanBound(stage, scan, tmap, requestSteps, rmap, log);
    if (stage->op.as<ExternOpNode>())
        return; // TVM's ExternOpNode::GatherBound: no loops, nothing to bound
    ComputeAxes compute = computeAxesOf(stage->op);
    BS_CHECK(compute) << "stage " << stage->op->name << " is not a compute operation";
    const Tensor out = stage->op.output(0);
    // A tensor intrinsic computes its own axes whole, whatever the consumers ask of them.
    const auto* tc = stage->op.as<TensorComputeOpNode>();
    const size_t loops = tc ? size_t(tc->schedulableNdim) : compute.axis->size();
    for (size_t i = loops; i < compute.axis->size(); ++i) {
        const IterVar& iv = (*compute.axis)[i];
        (*rmap)[iv] = iv->dom;
        addRootBoundStep(log,
                         RootBound{iv, int(i), std::nullopt, iv->dom,
                                   "the tensor intrinsic's own axis: its dom"},
                         requestStepsOf(requestSteps, out, int(i)), "intrinsic-axis");
    }
    const int outputs = usesTightBounds(rules) ? stage->op->numOutputs() : 1;
    for (size_t i = 0; i < loops; ++i) {
        const IterVar& iv = (*compute.axis)[i];
        std::vector<IntSet> requests;
        std::vector<int> steps;
        for (int k = 0; k < outputs; ++k) {
            const Tensor t = stage->op.output(k);
            const std::vector<IntSet>& asked = tmap.at(t)[i];
            requests.insert(requests.end(), asked.begin(), asked.end());
            std::vector<int> from = requestStepsOf(requestSteps, t, int(i));
            steps.insert(steps.end(), from.begin(), from.end());
        }
        IntSet u = unionSets(requests);
        Range r = u.coverRange(iv->dom);
        (*rmap)[iv] = r;
        addRootBoundStep(log,
                         RootBound{iv, int(i), u, r,
                                   outputs > 1 ? "union of the consumers' requests of every output"
                                               : "union of the consumers' requests"},
                         std::move(steps), "union");
    }
    for (const IterVar& iv : *compute.reduceAxis) {
        (*rmap)[iv] = iv->dom;
        addRootBoundStep(log, RootBound{iv, -1, std::nullopt, iv->dom, "reduce axis: its dom"}, {},
                         "reduce-axis");
    }
}

/// Phases 1-4 of a computed stage: each consumer's requests, then their union into `out` (which
/// may be `rmap`). With `loopExtents` (the tight rules' replay) the loops in it run those
/// extents; false when the phases cannot use them (LoopExtentOverride::correlated).
bool requestAndGather(const Schedule& sch, const Stage& stage, const StorageScope& scope,
                      const GraphContext& ctx, const IterVarMap<Range>& rmap, BoundRules rules,
                      const IterVarMap<Expr>* loopExtents, IterVarMap<Range>* out,
                      StageStepLog& log) {
    TensorDomMap tmap;
    for (int i = 0; i < stage->op->numOutputs(); ++i) {
        Tensor t = stage->op.output(i);
        tmap[t].resize(t.ndim());
    }
    RequestStepMap requestSteps;
    for (const Operation& consumerOp : consumersOf(stage, ctx))
        if (!requestFromConsumer(sch, stage, consumerOp, scope, ctx, rmap, rules,
                                 LoopExtentOverride{loopExtents, {}, {}}, tmap, log, requestSteps))
            return false;
    gatherBound(stage, tmap, requestSteps, rules, out, log);
    return true;
}

/// InferRootBound (notes section 4): sets the range of every root IterVar of `stage`.
void inferRootBound(const Schedule& sch, const Stage& stage, const GraphContext& ctx,
                    BoundRules rules, IterVarMap<Range>* rmap, StageVisit visit,
                    StageStepLog& log) {
    if (stage->attachType == AttachType::Inline)
        throw UserError("stage '" + stage->op->name +
                        "' is marked compute_inline: call schedule.normalize() before InferBound");
    auto addVisit = [&](const char* rule) {
        log.add(StepPhase::Visit, rule, steptext::visit(stage, visit, steptext::attachedAt(stage)),
                visit);
    };
    if (stage->attachType == AttachType::InlinedAlready) {
        visit.kind = StageTrace::Kind::InlinedAlready;
        addVisit("inlined");
        return;
    }
    bool isPlaceholder = stage->op.as<PlaceholderOpNode>() != nullptr;
    if (stage->isOutput || isPlaceholder) {
        visit.kind = isPlaceholder ? StageTrace::Kind::Placeholder : StageTrace::Kind::Output;
        addVisit(isPlaceholder ? "placeholder" : "output");
        for (const IterVar& iv : stage->op->rootIterVars()) {
            BS_CHECK(iv->dom.defined()) << "root " << iv->var.name() << " has no dom";
            (*rmap)[iv] = iv->dom;
            addRootBoundStep(
                log,
                RootBound{iv, -1, std::nullopt, iv->dom,
                          isPlaceholder ? "placeholder: its shape" : "output stage: its dom"},
                {}, isPlaceholder ? "shape" : "dom");
        }
        return;
    }
    StorageScope scope = inferStorageScope(stage, ctx, &visit.scopeInferred);
    visit.scope = scope.toString();
    addVisit("computed");
    requestAndGather(sch, stage, scope, ctx, *rmap, rules, nullptr, rmap, log);
}

/// Phases 1-4 for computed `stage` once more, with the loops of `loopExtents` at the extents
/// they really run (TightRules' RootBoundReplay); the steps are not kept.
std::optional<std::vector<Range>> replayRootBound(const Schedule& sch, const Stage& stage,
                                                  const GraphContext& ctx, BoundRules rules,
                                                  const IterVarMap<Range>& rmap,
                                                  const IterVarMap<Expr>& loopExtents) {
    const auto* compute = stage->op.as<ComputeOpNode>();
    BS_CHECK(compute) << "replay of " << stage->op->name << ", which is not a compute operation";
    BoundSteps scratch;
    StageStepLog log{scratch, stage->op, Operation(), stepLine(stage), {}, {}};
    bool scopeInferred = false;
    StorageScope scope = inferStorageScope(stage, ctx, &scopeInferred);
    IterVarMap<Range> ranges;
    if (!requestAndGather(sch, stage, scope, ctx, rmap, rules, &loopExtents, &ranges, log))
        return std::nullopt;
    std::vector<Range> axes;
    for (const IterVar& axis : compute->axis)
        axes.push_back(ranges.at(axis));
    return axes;
}

/// The positions on `path` of the loops with a thread tag, memoised by path in `tagged`. A
/// path is its own segment followed by an outer path, so its positions are its segment's and
/// the outer path's, shifted: each loop is read once, not once per stage inside it.
const std::vector<size_t>&
taggedLoops(const AttachPath& path, const IterVarMap<IterVar>& bindMap,
            std::unordered_map<const void*, std::vector<size_t>>& tagged) {
    if (auto it = tagged.find(path.id()); it != tagged.end())
        return it->second;
    for (const AttachPath& p :
         pathsToBuild(path, [&](const void* id) { return tagged.count(id) != 0; })) {
        std::vector<size_t> own;
        for (size_t at = 0; at < p.segmentSize(); ++at) {
            if (isThreadTag(threadTagOf(p[at], bindMap)))
                own.push_back(at);
        }
        auto outer = tagged.find(p.outer().id());
        if (outer != tagged.end())
            for (size_t at : outer->second)
                own.push_back(at + p.segmentSize());
        tagged.emplace(p.id(), std::move(own));
    }
    return tagged.at(path.id());
}

GraphContext makeContext(const Schedule& sch) {
    GraphContext ctx;
    ctx.feedGraph = createFeedGraph(createReadGraph(sch));
    ctx.attachPath = createAttachPath(sch);
    ctx.bindMap = createBindMap(sch);
    for (size_t i = 0; i < sch->stages.size(); ++i)
        ctx.stageIndex[sch->stages[i]->op.get()] = int(i);
    std::unordered_map<const void*, std::vector<size_t>> byPath{{nullptr, {}}};
    for (const auto& [op, path] : ctx.attachPath)
        ctx.taggedOnPath.emplace(op.get(), taggedLoops(path, ctx.bindMap, byPath));
    for (const Stage& stage : sch.stages())
        for (const IterVar& iv : stage->allIterVars)
            ctx.loopOfVar.emplace(iv->var.get(), iv);
    for (const auto& [leaf, thread] : ctx.bindMap)
        ctx.loopOfVar.emplace(thread->var.get(), thread);
    return ctx;
}

} // namespace

InferBoundResult inferBound(const Schedule& sch, BoundRules rules, BoundSteps priorSteps) {
    // The tight rules run TVM's phases, then refine each stage (schedule/InferBoundTight.h).
    std::unique_ptr<TightRules> tight;
    if (usesTightBounds(rules))
        tight = std::make_unique<TightRules>(sch);
    GraphContext ctx = makeContext(sch);
    InferBoundResult result;
    result.steps = std::move(priorSteps);
    const size_t firstStep = result.steps.size();
    IterVarMap<Range>& rmap = result.bounds;
    Analyzer analyzer;
    int visitIndex = 0;
    for (size_t i = sch->stages.size(); i-- > 0;) {
        throwIfCancelled();
        const Stage& stage = sch->stages[i];
        StageStepLog log{result.steps, stage->op, Operation(), stepLine(stage), {}, {}};
        const size_t stageFirst = result.steps.size();
        StageVisit visit;
        visit.visitIndex = visitIndex++;
        visit.attachPath = ctx.attachPath.at(stage->op);
        inferRootBound(sch, stage, ctx, rules, &rmap, visit, log);
        if (tight) {
            BoundTrace stageTrace = traceOf(result.steps, rules, nullptr, nullptr, stageFirst);
            RootBoundReplay replay = [&](const IterVarMap<Expr>& loopExtents) {
                return replayRootBound(sch, stage, ctx, rules, rmap, loopExtents);
            };
            tight->refineRootBounds(stage, stageTrace.stages.front(), replay, result);
        }
        for (const IterVar& iv : stage->op->rootIterVars()) {
            auto it = rmap.find(iv);
            if (it != rmap.end())
                analyzer.bind(iv->var, it->second);
        }
        refuseRelationsOfInlined(stage);
        LoopExtents loops;
        passDownDomain(stage, &rmap, &analyzer, rules, /*allowMissing=*/false,
                       log.sink(StepPhase::PassDown), tight ? &loops : nullptr);
        if (tight)
            tight->refineLoops(stage, analyzer, loops, result);
    }
    for (auto& [iv, r] : rmap) {
        DataType t = iv->var.type();
        r = Range(analyzer.simplify(cast(t, r.min)), analyzer.simplify(cast(t, r.extent)));
    }
    result.trace = traceOf(result.steps, rules, &sch, &rmap, firstStep);
    return result;
}

} // namespace bs
