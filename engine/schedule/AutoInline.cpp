#include "schedule/AutoInline.h"

#include "ir/Functor.h"
#include "schedule/Graph.h"

#include <functional>
#include <unordered_set>

namespace bs {

namespace {

/// TVM's ElemWiseDetector: every read indexes with the axes themselves.
class ElemWiseDetector : public IRVisitor {
public:
    explicit ElemWiseDetector(const std::vector<IterVar>& axis) : m_axis(axis) {}
    bool elemWise = true;

protected:
    using IRVisitor::visit;
    void visit(const ProducerLoadNode* node) override {
        IRVisitor::visit(node);
        if (node->indices.size() != m_axis.size()) {
            elemWise = false;
            return;
        }
        for (size_t i = 0; i < m_axis.size(); ++i)
            if (!node->indices[i].same_as(m_axis[i]->var))
                elemWise = false;
    }

private:
    const std::vector<IterVar>& m_axis;
};

const ComputeOpNode* injectiveCompute(const Operation& op) {
    const auto* compute = op.as<ComputeOpNode>();
    return compute && compute->reduceAxis.empty() ? compute : nullptr;
}

/// Inlines every unscheduled, non-output stage `inlinable` accepts. A compute of several
/// outputs is left alone: compute_inline takes one output only (TVM fails later, in normalize);
/// so is a scan's init, which the scan stores into its state (TVM would inline it and lower
/// broken code).
void autoInline(const Schedule& sch, const std::function<bool(const Operation&)>& inlinable) {
    const auto scanInits = scanOfInits(sch.stages());
    for (const Stage& stage : sch.stages()) {
        if (stage->isOutput || isScheduled(stage) || stage->op->numOutputs() != 1 ||
            scanInits.count(stage->op.get()) || !inlinable(stage->op))
            continue;
        stage.computeInline();
    }
}

} // namespace

bool isScheduled(const Stage& stage) {
    if (!stage->relations.empty() || stage->attachType != AttachType::GroupRoot)
        return true;
    // A reorder permutes the leaves: they are no longer the roots in order.
    std::vector<IterVar> roots;
    for (const IterVar& iv : stage->allIterVars)
        if (iv->iterType != IterVarType::Opaque)
            roots.push_back(iv);
    if (roots.size() != stage->leafIterVars.size())
        return true;
    for (size_t i = 0; i < roots.size(); ++i)
        if (!roots[i].same_as(stage->leafIterVars[i]))
            return true;
    return false;
}

bool isElemWise(const Operation& op) {
    const auto* compute = op.as<ComputeOpNode>();
    if (!compute)
        return false;
    ElemWiseDetector detector(compute->axis);
    for (const Expr& e : compute->body)
        detector.visitExpr(e);
    return detector.elemWise;
}

void autoInlineElemWise(const Schedule& sch) {
    // A reduction whose reads happen to use the axes only (`sum(B[i], axis=k)`) is left alone:
    // a reduction cannot be inlined.
    autoInline(sch, [](const Operation& op) { return injectiveCompute(op) && isElemWise(op); });
}

void autoInlineBroadcast(const Schedule& sch) {
    // TVM's IsBroadcast is a stub that accepts every compute without a reduction.
    autoInline(sch, [](const Operation& op) { return injectiveCompute(op) != nullptr; });
}

void autoInlineInjective(const Schedule& sch) {
    autoInline(sch, [](const Operation& op) { return injectiveCompute(op) != nullptr; });
}

} // namespace bs
