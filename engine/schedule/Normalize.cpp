// Schedule::normalize (TVM's schedule_dataflow_rewrite.cc; notes section 1): on a copy,
// InjectInline, then RebaseNonZeroMinLoop, then LegalizeInvalidAttach.

#include "schedule/Graph.h"
#include "schedule/ScheduleRewrite.h"

#include "ir/Functor.h"
#include "ir/Op.h"
#include "ir/Substitute.h"
#include "support/Check.h"

#include <unordered_set>

namespace bs {

namespace {

bool hasSideEffect(const Expr& e) {
    bool found = false;
    postOrderVisit(e, [&found](const NodeRef& n) {
        const auto* call = n.as<CallNode>();
        found = found || (call && call->callKind == CallKind::Extern);
    });
    return found;
}

/// TVM's Inline: every read of `op`'s output in an expression becomes `body` with `args`
/// replaced by the read's indices (cast to the argument types); indices with side effects are
/// bound by lets instead, so they are evaluated once.
class OperationInliner : public IRMutator {
public:
    OperationInliner(const Operation& op, const std::vector<Var>& args, const Expr& body)
        : m_op(op), m_args(args), m_body(body) {}

protected:
    using IRMutator::visit;
    Expr visit(const ProducerLoadNode* node) override {
        Expr e = IRMutator::visit(node);
        const auto* load = e.as<ProducerLoadNode>();
        if (!load->tensor.op.same_as(m_op))
            return e;
        BS_CHECK(load->tensor.valueIndex == 0 && load->indices.size() == m_args.size())
            << "inlining " << m_op->name << " with a mismatched read";
        bool sideEffect = false;
        for (const Expr& index : load->indices)
            sideEffect = sideEffect || hasSideEffect(index);
        if (sideEffect) {
            Expr result = m_body;
            for (size_t i = 0; i < m_args.size(); ++i)
                result = LetNode::make(m_args[i], cast(m_args[i].type(), load->indices[i]), result);
            return result;
        }
        VarMap<Expr> map;
        for (size_t i = 0; i < m_args.size(); ++i)
            map[m_args[i]] = cast(m_args[i].type(), load->indices[i]);
        return substitute(m_body, map);
    }

private:
    const Operation& m_op;
    const std::vector<Var>& m_args;
    const Expr& m_body;
};

/// Inlines `op` into one consumer body. A reduction is rewritten as a whole and its outputs
/// rebuilt from the one result (TVM: "specially handle reduction inline").
bool inlineInto(std::vector<Expr>& body, OperationInliner& inliner) {
    if (body[0].as<ReduceNode>()) {
        Expr value = inliner.visitExpr(body[0]);
        if (value.same_as(body[0]))
            return false;
        const auto* r = value.as<ReduceNode>();
        BS_CHECK(r && r->source.size() == body.size()) << "inlined reduction lost its shape";
        for (size_t k = 0; k < body.size(); ++k)
            body[k] =
                ReduceNode::make(r->combiner, r->source, r->axis, r->condition, int(k), r->init);
        return true;
    }
    bool changed = false;
    for (Expr& e : body) {
        Expr value = inliner.visitExpr(e);
        changed = changed || !value.same_as(e);
        e = value;
    }
    return changed;
}

/// Substitutes every compute_inline stage into all later stages, from the last inline stage
/// backwards so chains of inlined stages compose; returns the new bodies (empty: untouched).
std::vector<std::vector<Expr>> inlineBodies(ScheduleNode& sch, std::vector<bool>& changed) {
    const size_t n = sch.stages.size();
    std::vector<std::vector<Expr>> newBody(n);
    const auto scanOfInit = scanOfInits(sch.stages);
    for (size_t i = n; i-- > 0;) {
        const Stage& stage = sch.stages[i];
        if (stage->attachType != AttachType::Inline)
            continue;
        if (auto scan = scanOfInit.find(stage->op.get()); scan != scanOfInit.end())
            throw UserError(Diagnostic{"'" + stage->op->name + "' is the init of scan '" +
                                           scan->second->name +
                                           "', which stores its rows into the scan's state: it "
                                           "cannot be inlined",
                                       stage->attachLocation});
        stage.mutableNode()->attachType = AttachType::InlinedAlready;
        const auto* compute = stage->op.as<ComputeOpNode>();
        BS_CHECK(compute && compute->body.size() == 1) << "only single-output computes inline";
        std::vector<Var> args;
        for (const IterVar& iv : compute->axis)
            args.push_back(iv->var);
        OperationInliner inliner(stage->op, args, compute->body[0]);
        for (size_t j = i + 1; j < n; ++j) {
            const Operation& reader = sch.stages[j]->op;
            if (reader.as<ExternOpNode>() || reader.as<TensorComputeOpNode>()) {
                const std::string text =
                    reader.as<ExternOpNode>()
                        ? "extern stage '" + reader->name + "', whose body is opaque and reads it"
                        : "'" + reader->name + "', which passes it to a tensor intrinsic";
                for (const Tensor& t : reader->inputTensors())
                    if (t.op.same_as(stage->op))
                        throw UserError(Diagnostic{"'" + stage->op->name + "' is read by " + text +
                                                       " from a buffer: it cannot be inlined",
                                                   stage->attachLocation});
            }
            const auto* consumer = sch.stages[j]->op.as<ComputeOpNode>();
            if (!consumer)
                continue;
            if (newBody[j].empty())
                newBody[j] = consumer->body;
            if (inlineInto(newBody[j], inliner))
                changed[j] = true;
        }
    }
    return newBody;
}

/// TVM's InjectInline: inlines, then rewrites the dataflow so consumers read the rewritten
/// producers.
void injectInline(ScheduleNode& sch) {
    std::vector<bool> changed(sch.stages.size(), false);
    std::vector<std::vector<Expr>> newBody = inlineBodies(sch, changed);
    TensorMap repl;
    for (size_t i = 0; i < sch.stages.size(); ++i) {
        const Stage& s = sch.stages[i];
        if (s->attachType == AttachType::InlinedAlready)
            continue;
        Operation op = s->op;
        if (changed[i]) {
            const auto* compute = op.as<ComputeOpNode>();
            op = ComputeOpNode::make(compute->name, compute->tag, compute->axis, newBody[i]);
        }
        op = replaceInputs(op, repl);
        if (op.same_as(s->op))
            continue;
        for (int k = 0; k < s->op->numOutputs(); ++k)
            repl[s->op.output(k)] = op.output(k);
        s.mutableNode()->op = op;
    }
}

/// Moves every compute_at (of a stage or a group) whose attach IterVar `map` replaces.
void retargetAttachments(ScheduleNode& sch, const IterVarMap<IterVar>& map) {
    for (const std::vector<Stage>* list : {&sch.stages, &sch.groups}) {
        for (const Stage& s : *list) {
            if (s->attachType != AttachType::Scope)
                continue;
            if (auto it = map.find(s->attachIVar); it != map.end())
                s.mutableNode()->attachIVar = it->second;
        }
    }
}

/// TVM's RebaseNonZeroMinLoop: every root IterVar still a leaf and not thread-bound gets a
/// Rebase to a fresh IterVar of the same name (attributes copied), so loops start at 0.
/// Unlike TVM, the rebased IterVar is also added to allIterVars (TVM leaves it out; nothing
/// reads it there, and the GUI lists every IterVar).
void rebaseNonZeroMinLoop(ScheduleNode& sch) {
    IterVarMap<IterVar> rebaseMap;
    for (const Stage& s : sch.stages) {
        if (s->attachType == AttachType::InlinedAlready)
            continue;
        StageNode* node = s.mutableNode();
        for (const IterVar& iv : s->op->rootIterVars()) {
            const IterVarAttr* attr = s.attrOf(iv);
            if (attr && attr->bindThread.defined())
                continue;
            int index = s.leafIndex(iv);
            if (index < 0)
                continue;
            // Outside a script call (lowering, the Analysis) the rebase is attributed to the line
            // of the IterVar it rebases, so the GUI can still link it to the script (issue 5).
            const SourceLocation& current = currentSourceLocation();
            ScopedSourceLocation where(current.known() ? current : iv->location);
            IterVar rebased(Range(), copyWithSuffix(iv->var, ""), iv->iterType);
            node->relations.push_back(IterVarRelation::rebase(iv, rebased));
            node->allIterVars.push_back(rebased);
            if (attr)
                node->iterVarAttrs[rebased] = *attr;
            node->leafIterVars[size_t(index)] = rebased;
            rebaseMap[iv] = rebased;
        }
    }
    retargetAttachments(sch, rebaseMap);
}

/// Follows a stale attach IterVar through the attach stage's relations: a split parent moves
/// to the inner IterVar, a fused inner IterVar to the fused one, repeatedly.
IterVar retarget(const Stage& attachStage, IterVar iv) {
    for (bool updated = true; updated;) {
        updated = false;
        for (const IterVarRelation& rel : attachStage->relations) {
            if (const auto* f = rel.as<FuseNode>(); f && iv.same_as(f->inner)) {
                iv = f->fused;
                updated = true;
            } else if (const auto* s = rel.as<SplitNode>(); s && iv.same_as(s->parent)) {
                iv = s->inner;
                updated = true;
            }
        }
    }
    return iv;
}

/// TVM's LegalizeInvalidAttach: a compute_at target split or fused after compute_at is moved
/// to the split's inner / the fused IterVar. checkAttachments refuses attach cycles first.
void legalizeInvalidAttach(ScheduleNode& sch) {
    checkAttachments(sch.stages, sch.groups);
    IterVarMap<IterVar> replaceMap;
    // Each stage's attachment is legalized once: a walk ends at a stage an earlier walk passed.
    std::unordered_set<const StageNode*> legalized;
    for (const Stage& stage : sch.stages) {
        std::unordered_set<const StageNode*> visited;
        for (Stage s = stage; s.defined() && !legalized.count(s.get());) {
            BS_CHECK(visited.insert(s.get()).second)
                << "checkAttachments let the attach cycle of " << stage.name() << " through";
            legalized.insert(s.get());
            Stage spec = s.attachSpec();
            if (spec->attachType != AttachType::Scope)
                break;
            IterVar attachIVar = spec->attachIVar;
            s = spec->attachStage;
            if (!s.isLeaf(attachIVar))
                replaceMap[attachIVar] = retarget(s, attachIVar);
        }
    }
    retargetAttachments(sch, replaceMap);
}

} // namespace

Schedule Schedule::normalize() const {
    Schedule normalized = copy();
    std::vector<Stage> outputs = outputStages(normalized);
    ScheduleNode& node = *normalized.mutableNode();
    injectInline(node);
    rebaseNonZeroMinLoop(node);
    legalizeInvalidAttach(node);
    setOutputs(node, outputs);
    return normalized;
}

} // namespace bs
