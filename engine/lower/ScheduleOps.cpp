#include "lower/ScheduleOps.h"

#include "arith/Analyzer.h"
#include "ir/Functor.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "ir/Substitute.h"
#include "lower/ComputeStmt.h"
#include "lower/LoopNest.h"
#include "lower/StorageFlatten.h"
#include "lower/Tensorize.h"
#include "schedule/BoundStepText.h"
#include "schedule/Graph.h"
#include "schedule/MessagePassing.h"
#include "te/Operation.h"

#include <unordered_set>

namespace bs {

namespace {

class Lowering {
public:
    Lowering(const IterVarMap<Range>& bounds, const ScheduleOpsOptions& options)
        : m_bounds(bounds), m_options(options) {}

    /// MakePipeline: realize { produce { the stage } ; consumer } under a realize_scope attr.
    Stmt makePipeline(const Stage& stage, const Stmt& consumer) {
        if (const auto* scan = stage->op.as<ScanOpNode>())
            return makeScanPipeline(stage, scan, consumer);
        if (const auto* ext = stage->op.as<ExternOpNode>())
            return makeExternPipeline(stage, ext, consumer);
        const ComputeAxes compute = computeAxesOf(stage->op);
        if (!compute)
            throw UserError("stage '" + stage->op->name +
                            "' cannot be lowered: only compute, "
                            "tensor compute, scan and extern operations are supported");
        Region region;
        for (const IterVar& iv : *compute.axis)
            region.push_back(realizeRange(iv));
        std::vector<Region> regions(size_t(stage->op->numOutputs()), region);
        std::vector<std::vector<IterVar>> axes(regions.size(), *compute.axis);
        const auto* tc = stage->op.as<TensorComputeOpNode>();
        Stmt provide =
            tc ? makeTensorComputeStmt(tc, stage, m_bounds, m_options)
               : makeComputeStmt(stage->op.as<ComputeOpNode>(), stage, m_bounds, m_options);
        return realize(stage, provide, consumer, regions, axes);
    }

private:
    /// Realize { produce ; consume } of every output, region i for output i, its dimension d
    /// explained by the range of axes[i][d].
    Stmt realize(const Stage& stage, const Stmt& provide, const Stmt& consumer,
                 const std::vector<Region>& regions,
                 const std::vector<std::vector<IterVar>>& axes) {
        // TVM's MakePipeline: a double-buffered stage's producer under double_buffer_scope.
        Stmt producer = ProducerConsumerNode::make(
            stage->op, true,
            stage->doubleBuffer
                ? AttrStmtNode::make(stage->op, attr::kDoubleBufferScope, Expr(1), provide)
                : provide);
        Stmt pipeline = producer;
        if (consumer.defined() && !isNoOp(consumer))
            pipeline =
                SeqNode::make({producer, ProducerConsumerNode::make(stage->op, false, consumer)});
        for (int i = stage->op->numOutputs(); i-- > 0;)
            pipeline = withStep(ProducerRealizeNode::make(stage->op.output(i), regions[size_t(i)],
                                                          Expr(), pipeline, stage->scope),
                                realizeStep(stage, axes[size_t(i)], regions[size_t(i)], i));
        // TVM's ComputeOpNode::BuildRealize: each storage_align as a buffer_dim_align attr.
        std::vector<DimAlign> aligns = storageAligns(stage);
        for (size_t d = aligns.size(); d-- > 0;)
            if (aligns[d].factor != 0)
                pipeline = AttrStmtNode::make(
                    stage->op, attr::kBufferDimAlign,
                    CallNode::make(DataType::handle(), "tvm_tuple",
                                   {Expr(int(d)), Expr(aligns[d].factor), Expr(aligns[d].offset)},
                                   CallKind::Intrinsic),
                    pipeline);
        return AttrStmtNode::make(stage->op, attr::kRealizeScope, StringImmNode::make(stage->scope),
                                  pipeline);
    }

    /// A scan (TVM's ScanOpNode::BuildProvide and BuildRealize): the loop over the scan axis,
    /// with the init stages' place before it (after the leading thread loops) and the update
    /// stages' place inside it; each state is realized from row 0 to the scan's last row.
    Stmt makeScanPipeline(const Stage& stage, const ScanOpNode* scan, const Stmt& consumer) {
        size_t beginScan = 0;
        for (size_t i = 0; i < stage->leafIterVars.size(); ++i)
            if (stage->leafIterVars[i]->iterType == IterVarType::ThreadIndex)
                beginScan = i + 1;
        IterVarMap<Expr> values;
        LoopNest nest = makeLoopNest(stage, m_bounds, mainNestOptions(m_options), &values);
        nest[beginScan].push_back(
            AttrStmtNode::make(stage->op, attr::kScanInitScope, Expr(0), EvaluateNode::make(0)));
        static const IterVarSet kNone;
        nest.push_back(makeGuards(
            stage, makeBoundCheck(stage, m_bounds, values, false, kNone, m_options.iterVarOfVar),
            m_bounds, m_options.steps));
        Stmt update = AttrStmtNode::make(stage->op, attr::kScanUpdateScope,
                                         Expr(scan->scanAxis->var), EvaluateNode::make(0));
        Stmt provide = mergeNest(nest, update);
        Analyzer analyzer;
        const Range& time = m_bounds.at(scan->scanAxis);
        Range rows(makeZero(time.min.type()), analyzer.simplify(time.min + time.extent));
        std::vector<Region> regions;
        std::vector<std::vector<IterVar>> axes;
        for (int i = 0; i < scan->numOutputs(); ++i) {
            regions.push_back({rows});
            axes.push_back({scan->scanAxis});
            for (const IterVar& iv : scan->spatialAxesOf(i)) {
                regions.back().push_back(realizeRange(iv));
                axes.back().push_back(iv);
            }
        }
        return realize(stage, provide, consumer, regions, axes);
    }

    /// An extern stage (TVM's ExternOpNode::BuildProvide and BuildRealize): its body under an
    /// extern_scope attr, each buffer bound to its tensor by a buffer_bind_scope attr (inputs
    /// outermost), each output realized whole. A buffer's element offset and strides, when
    /// they are variables, become 0 and the row-major strides: the tensors are bound whole.
    Stmt makeExternPipeline(const Stage& stage, const ExternOpNode* ext, const Stmt& consumer) {
        VarMap<Expr> layout;
        auto bindLayout = [&](const ExternBuffer& buffer, const Tensor& t) {
            if (const auto* offset = buffer.elemOffset.as<VarNode>())
                layout[Var(offset)] = makeZero(buffer.elemOffset.type());
            Expr stride = Expr(1);
            for (size_t d = t.ndim(); d-- > 0;) {
                if (d < buffer.strides.size())
                    if (const auto* v = buffer.strides[d].as<VarNode>())
                        layout[Var(v)] = stride;
                stride = stride * t.shape()[d];
            }
        };
        for (size_t i = 0; i < ext->inputs.size(); ++i)
            bindLayout(ext->inputPlaceholders[i], ext->inputs[i]);
        for (int k = 0; k < ext->numOutputs(); ++k)
            bindLayout(ext->outputPlaceholders[size_t(k)], stage->op.output(k));
        Stmt provide =
            AttrStmtNode::make(Expr(0), attr::kExternScope, Expr(0),
                               layout.empty() ? ext->body : substitute(ext->body, layout));
        auto bind = [&](const ExternBuffer& buffer, const Tensor& t) {
            std::vector<Expr> zeros(t.ndim(), Expr(0));
            Expr tuple = CallNode::make(DataType::handle(), "tvm_tuple",
                                        {ProducerLoadNode::make(t, zeros)}, CallKind::Intrinsic);
            provide = AttrStmtNode::make(buffer.data, attr::kBufferBindScope, tuple, provide);
        };
        for (int k = ext->numOutputs(); k-- > 0;)
            bind(ext->outputPlaceholders[size_t(k)], stage->op.output(k));
        for (size_t i = ext->inputs.size(); i-- > 0;)
            bind(ext->inputPlaceholders[i], ext->inputs[i]);
        std::vector<Region> regions;
        for (int k = 0; k < ext->numOutputs(); ++k) {
            regions.emplace_back();
            for (const Expr& extent : stage->op.output(k).shape())
                regions.back().push_back(Range(makeZero(extent.type()), extent));
        }
        std::vector<std::vector<IterVar>> axes(regions.size());
        return realize(stage, provide, consumer, regions, axes);
    }

    /// The realize step of output `valueIndex`: the region is the root ranges.
    int realizeStep(const Stage& stage, const std::vector<IterVar>& axes, const Region& region,
                    int valueIndex) {
        BoundSteps* steps = m_options.steps;
        if (!steps)
            return -1;
        BoundStep step;
        step.phase = StepPhase::Realize;
        step.rule = m_options.realizeBounds ? "tight-region" : "root-ranges";
        step.stage = stage->op;
        step.tensor = stage->op.output(valueIndex);
        step.location = stepLine(stage);
        std::string text = "Realize " + step.tensor.name() + "(" + regionToString(region) +
                           "): each axis is the range InferBound gave its root IterVar (";
        if (stage->op.as<ScanOpNode>())
            text = "Realize " + step.tensor.name() + "(" + regionToString(region) +
                   "): rows 0 up to the scan's last row (the inits' rows and every step's), then "
                   "the ranges InferBound gave the spatial axes (";
        if (stage->op.as<ExternOpNode>())
            text = "Realize " + step.tensor.name() + "(" + regionToString(region) +
                   "): an extern stage's output is realized whole, its shape (the body is opaque: "
                   "it may write any element";
        for (size_t d = 0; d < axes.size(); ++d) {
            const IterVar& iv = axes[d];
            step.iterVars.push_back(iv);
            step.outputs.push_back(StepValue{iv->var.name(), iv, std::nullopt, region[d], Expr()});
            int from = steps->rangeStep(iv);
            if (from >= 0)
                step.from.push_back(from);
            text += (d ? ", " : "") + iv->var.name() +
                    (from >= 0 ? " from step " + std::to_string(from) : std::string());
        }
        step.text = text + ")" +
                    (stage.attachSpec()->attachType == AttachType::Scope
                         ? ", " + steptext::attachedAt(stage) +
                               ", once per iteration of the loops around it."
                         : ".");
        int id = steps->add(std::move(step));
        steps->setRealizeStep(stage->op, valueIndex, id);
        return id;
    }

    Range realizeRange(const IterVar& iv) const {
        if (m_options.realizeBounds) {
            auto it = m_options.realizeBounds->find(iv);
            if (it != m_options.realizeBounds->end())
                return it->second;
        }
        return m_bounds.at(iv);
    }

    static bool isNoOp(const Stmt& s) {
        const auto* e = s.as<EvaluateNode>();
        return e && isConst(e->value);
    }

    const IterVarMap<Range>& m_bounds;
    const ScheduleOpsOptions& m_options;
};

/// Replaces the body of the `loop_scope` attr of the attach IterVar by the stage's pipeline
/// (TVM's InjectAttach); the attach point must appear exactly once.
class InjectAttach : public IRMutator {
public:
    /// `spec` is where the stage is attached: itself, or the group it is at the root of.
    InjectAttach(const Stage& stage, const Stage& spec, Lowering& lowering)
        : m_stage(stage), m_spec(spec), m_lowering(lowering) {}
    bool found = false;

    Stmt visitStmt(const Stmt& s) override {
        Stmt out = IRMutator::visitStmt(s);
        const auto* op = out.as<AttrStmtNode>();
        if (!op || op->key != attr::kLoopScope || !op->node.same_as(m_spec->attachIVar))
            return out;
        if (found)
            throw UserError("the attach point '" + m_spec->attachIVar->var.name() + "' of stage '" +
                            m_stage->op->name + "' appears in several places");
        found = true;
        return AttrStmtNode::make(op->node, op->key, op->value,
                                  m_lowering.makePipeline(m_stage, op->body));
    }

private:
    const Stage& m_stage;
    const Stage& m_spec;
    Lowering& m_lowering;
};

/// The attr around a part of the nest InjectAttached has finished, so that it is not walked
/// again; PostProc removes it.
constexpr const char* kInjectedMark = "bs_injected";

/// Puts every attached stage at its attach point in one walk of the nest: InjectAttach's result
/// for all of them, in linear time (InjectAttach walks the whole nest once per stage, which a
/// chain of nested compute_at stages makes quadratic). At a `loop_scope` attr, what is below it
/// is finished first; then the stages attached there, in the order InjectAttach would have
/// injected them, each wrap it in their pipeline, whose own loop nest is walked for the stages
/// attached to it. What is finished is marked, so no part of the nest is walked twice.
class InjectAttached : public IRMutator {
public:
    explicit InjectAttached(Lowering& lowering) : m_lowering(lowering) {}

    /// Stage `stage` goes where `spec` is attached (after the stages added before it there).
    void add(const Stage& stage, const Stage& spec) {
        m_points[spec->attachIVar.get()].stages.push_back(stage);
        m_added.push_back({stage, spec});
    }
    bool empty() const { return m_added.empty(); }

    Stmt run(const Stmt& body) {
        Stmt out = visitStmt(body);
        for (const auto& [stage, spec] : m_added)
            if (!m_points[spec->attachIVar.get()].found)
                throw UserError("did not find the attach point '" + spec->attachIVar->var.name() +
                                "' of stage '" + stage->op->name + "' in the loop nest of '" +
                                spec->attachStage.name() + "'");
        return out;
    }

    Stmt visitStmt(const Stmt& s) override {
        if (const auto* mark = s.as<AttrStmtNode>(); mark && mark->key == kInjectedMark)
            return s;
        Stmt out = IRMutator::visitStmt(s);
        const auto* op = out.as<AttrStmtNode>();
        if (!op || op->key != attr::kLoopScope)
            return out;
        auto point = m_points.find(op->node.get());
        if (point == m_points.end())
            return out;
        if (point->second.found)
            throw UserError("the attach point '" + nodeToString(op->node) + "' of stage '" +
                            point->second.stages.front()->op->name + "' appears in several places");
        point->second.found = true;
        Stmt inner = marked(op->node, op->body);
        for (const Stage& stage : point->second.stages)
            inner = marked(op->node, visitStmt(m_lowering.makePipeline(stage, inner)));
        return AttrStmtNode::make(op->node, op->key, op->value, inner);
    }

    /// Attach points are statements: expressions are left as they are.
    Expr visitExpr(const Expr& e) override { return e; }

private:
    static Stmt marked(const NodeRef& node, const Stmt& body) {
        return AttrStmtNode::make(node, kInjectedMark, Expr(0), body);
    }

    struct Point {
        std::vector<Stage> stages;
        bool found = false;
    };
    Lowering& m_lowering;
    std::unordered_map<const Node*, Point> m_points;
    std::vector<std::pair<Stage, Stage>> m_added; ///< (stage, spec), in the order added
};

/// Puts a scan's init or update stage where the scan's loop nest left its place (TVM's
/// InjectScanStep): the body of the scan's `scan_init_scope` or `scan_update_scope` attr.
class InjectScanStep : public IRMutator {
public:
    InjectScanStep(const Stage& stage, const Operation& scan, const char* key, Lowering& lowering)
        : m_stage(stage), m_scan(scan), m_key(key), m_lowering(lowering) {}
    bool found = false;

    Stmt visitStmt(const Stmt& s) override {
        Stmt out = IRMutator::visitStmt(s);
        const auto* op = out.as<AttrStmtNode>();
        if (!op || op->key != m_key || !op->node.same_as(m_scan))
            return out;
        found = true;
        return AttrStmtNode::make(op->node, op->key, op->value,
                                  m_lowering.makePipeline(m_stage, op->body));
    }

private:
    const Stage& m_stage;
    const Operation& m_scan;
    const char* m_key;
    Lowering& m_lowering;
};

/// TVM's SchedulePostProc: loop_scope markers go, nested duplicate thread_extent attrs go,
/// bound loop variables become their thread variables, ops rewritten by cache_write/rfactor are
/// mapped back to the original tensors, and pure lets are substituted away.
class PostProc : public IRMutator {
public:
    explicit PostProc(const Schedule& sch) {
        for (const Stage& s : sch->stages) {
            for (const auto& [iv, attr] : s->iterVarAttrs)
                if (attr.bindThread.defined())
                    m_varValue[iv->var] = attr.bindThread->var;
            if (!s->op.same_as(s->originOp)) {
                for (int i = 0; i < s->op->numOutputs(); ++i)
                    m_replaceTensor[s->op.output(i)] = s->originOp.output(i);
                m_replaceOp[s->op.get()] = s->originOp;
            }
            // A scan's inits and updates write its state, which its body reads: all three
            // are the scan's output, realized once by the scan.
            if (const auto* scan = s->op.as<ScanOpNode>()) {
                for (size_t i = 0; i < scan->update.size(); ++i) {
                    const Tensor out = s->originOp.output(int(i));
                    for (const Tensor& t :
                         {scan->init[i], scan->update[i], scan->statePlaceholder[i]}) {
                        m_replaceTensor[t] = out;
                        m_dropRealize.insert(t);
                        m_dropRealizeScope.insert(t.op.get());
                    }
                }
            }
        }
    }

protected:
    using IRMutator::visit;
    Stmt visit(const AttrStmtNode* op) override {
        if (op->key == attr::kLoopScope || op->key == attr::kScanInitScope ||
            op->key == attr::kScanUpdateScope || op->key == kInjectedMark)
            return visitStmt(op->body);
        if (op->key == attr::kRealizeScope && m_dropRealizeScope.count(op->node.get()))
            return visitStmt(op->body);
        if (op->key == attr::kThreadExtent) {
            const Node* thread = op->node.get();
            auto it = m_threadExtent.find(thread);
            if (it != m_threadExtent.end()) {
                if (!m_analyzer.canProveEqual(it->second, op->value))
                    throw UserError("thread " + nodeToString(op->node) +
                                    " is launched with two extents: " + toString(it->second) +
                                    " and " + toString(op->value));
                return visitStmt(op->body);
            }
            m_threadExtent[thread] = op->value;
            Stmt out = IRMutator::visit(op);
            m_threadExtent.erase(thread);
            return out;
        }
        // The attrs whose node is the stage's op follow it to the op its realize now names
        // (TVM's SchedulePostProc replaces the op of realize_scope and double_buffer_scope).
        if (op->key == attr::kRealizeScope || op->key == attr::kDoubleBufferScope ||
            op->key == attr::kBufferDimAlign) {
            auto it = m_replaceOp.find(op->node.get());
            if (it != m_replaceOp.end())
                return visitStmt(AttrStmtNode::make(it->second, op->key, op->value, op->body));
        }
        return IRMutator::visit(op);
    }
    Stmt visit(const LetStmtNode* op) override {
        m_varValue[op->var] = visitExpr(op->value);
        return visitStmt(op->body);
    }
    Stmt visit(const ProducerRealizeNode* op) override {
        if (m_dropRealize.count(op->tensor))
            return visitStmt(op->body);
        auto it = m_replaceTensor.find(op->tensor);
        if (it == m_replaceTensor.end())
            return IRMutator::visit(op);
        return visitStmt(ProducerRealizeNode::make(it->second, op->bounds, op->condition, op->body,
                                                   op->storageScope));
    }
    Stmt visit(const ProducerStoreNode* op) override {
        Stmt s = IRMutator::visit(op);
        const auto* store = s.as<ProducerStoreNode>();
        auto it = m_replaceTensor.find(store->tensor);
        if (it == m_replaceTensor.end())
            return s;
        return ProducerStoreNode::make(it->second, store->value, store->indices);
    }
    Stmt visit(const ProducerConsumerNode* op) override {
        Stmt s = IRMutator::visit(op);
        const auto* pc = s.as<ProducerConsumerNode>();
        auto it = m_replaceOp.find(pc->op.get());
        if (it == m_replaceOp.end())
            return s;
        return ProducerConsumerNode::make(it->second, pc->isProducer, pc->body);
    }
    Expr visit(const ProducerLoadNode* op) override {
        Expr e = IRMutator::visit(op);
        const auto* load = e.as<ProducerLoadNode>();
        auto it = m_replaceTensor.find(load->tensor);
        if (it == m_replaceTensor.end())
            return e;
        return ProducerLoadNode::make(it->second, load->indices);
    }
    Expr visit(const VarNode* op) override {
        auto it = m_varValue.find(Var(op));
        return it == m_varValue.end() ? Expr(op) : it->second;
    }

private:
    VarMap<Expr> m_varValue;
    std::unordered_map<Tensor, Tensor, TensorHash, TensorEqual> m_replaceTensor;
    std::unordered_map<const Node*, Operation> m_replaceOp;
    std::unordered_set<Tensor, TensorHash, TensorEqual> m_dropRealize;
    std::unordered_set<const Node*> m_dropRealizeScope;
    std::unordered_map<const Node*, Expr> m_threadExtent;
    Analyzer m_analyzer;
};

} // namespace

Stmt scheduleOps(const Schedule& sch, const IterVarMap<Range>& bounds,
                 const ScheduleOpsOptions& given) {
    ScheduleOpsOptions options = given;
    VarMap<IterVar> index;
    if (!options.iterVarOfVar) {
        index = iterVarsByVar(bounds);
        options.iterVarOfVar = &index;
    }
    Lowering lowering(bounds, options);
    const std::unordered_map<const Node*, Operation> scanOfInit = scanOfInits(sch->stages);
    Stmt body;
    auto injectScanStep = [&](const Stage& stage, const Operation& scan, const char* key,
                              const char* what) {
        InjectScanStep inject(stage, scan, key, lowering);
        body = inject.visitStmt(body);
        if (!inject.found)
            throw UserError("did not find the place of " + std::string(what) + " '" +
                            stage->op->name + "' in the loop of scan '" + scan->name + "'");
    };
    // Stages attached at loops are injected in one walk at the end (InjectAttached); a program
    // with scan steps, whose places are in the scan's nest, injects each as it comes.
    bool scanSteps = !scanOfInit.empty();
    for (const Stage& stage : sch->stages)
        scanSteps |= stage->attachType == AttachType::ScanUpdate;
    InjectAttached attached(lowering);
    for (size_t i = sch->stages.size(); i-- > 0;) {
        const Stage& stage = sch->stages[i];
        if (stage->attachType == AttachType::Inline)
            throw UserError(
                "stage '" + stage->op->name +
                "' is marked compute_inline: call schedule.normalize() before lowering");
        if (stage->op.as<PlaceholderOpNode>() || stage->attachType == AttachType::InlinedAlready)
            continue;
        // A stage at the root of its group goes where the group goes (TVM's GetAttachSpec);
        // a group never attached is at the root.
        const Stage spec = stage.attachSpec();
        if (auto init = scanOfInit.find(stage->op.get()); init != scanOfInit.end()) {
            injectScanStep(stage, init->second, attr::kScanInitScope, "the init");
            continue;
        }
        if (spec->attachType == AttachType::ScanUpdate) {
            injectScanStep(stage, spec->attachStage->op, attr::kScanUpdateScope, "the update");
            continue;
        }
        if (spec->attachType == AttachType::Scope) {
            if (!body.defined())
                throw UserError("stage '" + stage->op->name + "' is attached to '" +
                                spec->attachStage.name() + "', which produces no loop nest");
            if (!scanSteps) {
                attached.add(stage, spec);
                continue;
            }
            InjectAttach inject(stage, spec, lowering);
            body = inject.visitStmt(body);
            if (!inject.found)
                throw UserError("did not find the attach point '" + spec->attachIVar->var.name() +
                                "' of stage '" + stage->op->name + "' in the loop nest of '" +
                                spec->attachStage.name() + "'");
            continue;
        }
        body = lowering.makePipeline(stage, body);
    }
    if (!attached.empty())
        body = attached.run(body);
    if (!body.defined())
        return EvaluateNode::make(0);
    PostProc post(sch);
    return post.visitStmt(body);
}

} // namespace bs
