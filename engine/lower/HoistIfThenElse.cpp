#include "lower/HoistIfThenElse.h"

#include "ir/Equality.h"
#include "ir/Functor.h"
#include "ir/Substitute.h"
#include "ir/ThreadBinding.h"
#include "lower/RemoveNoOp.h"

#include <unordered_map>
#include <unordered_set>

namespace bs {

namespace {

struct HoistedCondition {
    Expr condition;
    bool hasElse = false;
    int32_t step = -1;
};

/// A loop (a For, or a thread binding) and the conditions that move around it.
struct LoopInfo {
    const StmtNode* def = nullptr;
    const VarNode* var = nullptr;
    bool isThreadBinding = false;
    /// Once a sequence was seen directly in this loop, later conditions cannot leave it (they
    /// would guard the other statements of the sequence too).
    bool reachedSequence = false;
    std::vector<HoistedCondition> conditions;
};

bool readsMemory(const Expr& e) {
    bool reads = false;
    postOrderVisit(e, [&](const NodeRef& n) {
        if (n.as<LoadNode>() || n.as<ProducerLoadNode>())
            reads = true;
    });
    return reads;
}

/// TVM's HoistInfoCollector: finds, for each `if`, the loop it can move around.
class HoistCollector : public IRVisitor {
public:
    std::unordered_map<const StmtNode*, LoopInfo> loops;

protected:
    using IRVisitor::visit;

    void visit(const ForNode* op) override {
        visitLoop(op, op->loopVar.get(), false, [&] { IRVisitor::visit(op); });
    }

    void visit(const AttrStmtNode* op) override {
        const IterVarNode* iv = boundThread(*op);
        if (!iv)
            return IRVisitor::visit(op);
        visitLoop(op, iv->var.get(), true, [&] { IRVisitor::visit(op); });
    }

    void visit(const LetStmtNode* op) override {
        bindLet(op->var.get(), op->value);
        IRVisitor::visit(op);
        m_letLoopVars.erase(op->var.get());
    }

    void visit(const LetNode* op) override {
        bindLet(op->var.get(), op->value);
        IRVisitor::visit(op);
        m_letLoopVars.erase(op->var.get());
    }

    void visit(const SeqNode* op) override {
        if (!m_active.empty())
            m_active.back().reachedSequence = true;
        IRVisitor::visit(op);
    }

    void visit(const IfThenElseNode* op) override {
        tryHoist(op);
        // An `if` with an else does work on both sides: a condition inside one branch cannot
        // leave the loop, or the other branch would not run when it is false (as a sequence).
        if (op->elseCase.defined() && !m_active.empty())
            m_active.back().reachedSequence = true;
        IRVisitor::visit(op);
    }

private:
    template <typename F>
    void visitLoop(const StmtNode* def, const VarNode* var, bool thread, F&& body) {
        LoopInfo info;
        info.def = def;
        info.var = var;
        info.isThreadBinding = thread;
        m_active.push_back(std::move(info));
        m_activeLoopVars.insert(var);
        body();
        m_activeLoopVars.erase(var);
        loops[def] = std::move(m_active.back());
        m_active.pop_back();
    }

    void bindLet(const VarNode* var, const Expr& value) {
        std::unordered_set<const VarNode*> used;
        usesVar(value, [&](const VarNode* v) {
            if (m_activeLoopVars.count(v))
                used.insert(v);
            if (auto it = m_letLoopVars.find(v); it != m_letLoopVars.end())
                used.insert(it->second.begin(), it->second.end());
            return false;
        });
        m_letLoopVars[var] = std::move(used);
    }

    bool usesLoopVar(const Expr& e, const VarNode* loopVar) const {
        return usesVar(e, [&](const VarNode* v) {
            if (v == loopVar)
                return true;
            auto it = m_letLoopVars.find(v);
            return it != m_letLoopVars.end() && it->second.count(loopVar) != 0;
        });
    }

    void tryHoist(const IfThenElseNode* op) {
        const Expr& cond = op->condition;
        if (hasSideEffect(cond) || readsMemory(cond))
            return;
        // TVM hoists a condition over a let-bound variable only with its binding, which the
        // pipeline's configuration does not enable.
        if (usesVar(cond, [&](const VarNode* v) { return m_letLoopVars.count(v) != 0; }))
            return;
        LoopInfo* destination = findDestination(cond);
        if (!destination || destination->reachedSequence)
            return;
        destination->conditions.push_back({cond, op->elseCase.defined(), op->stepId()});
    }

    /// The loop the condition goes around: just inside the innermost loop it cannot leave.
    LoopInfo* findDestination(const Expr& cond) {
        if (m_active.empty())
            return nullptr;
        for (size_t i = m_active.size(); i-- > 0;) {
            const LoopInfo& loop = m_active[i];
            if (loop.reachedSequence || loop.isThreadBinding || usesLoopVar(cond, loop.var))
                return i + 1 == m_active.size() ? nullptr : &m_active[i + 1];
        }
        return &m_active.front();
    }

    std::vector<LoopInfo> m_active;
    std::unordered_set<const VarNode*> m_activeLoopVars;
    std::unordered_map<const VarNode*, std::unordered_set<const VarNode*>> m_letLoopVars;
};

/// Inside a moved condition's branch: every `if` on the same condition takes that branch.
class DecideCondition : public IRMutator {
public:
    DecideCondition(const Expr& condition, bool value) : m_condition(condition), m_value(value) {}

protected:
    using IRMutator::visit;

    Stmt visit(const IfThenElseNode* op) override {
        if (!structuralEqual(op->condition, m_condition))
            return IRMutator::visit(op);
        if (m_value)
            return visitStmt(op->thenCase);
        return op->elseCase.defined() ? visitStmt(op->elseCase) : EvaluateNode::make(0);
    }

private:
    Expr m_condition;
    bool m_value;
};

class Hoister : public IRMutator {
public:
    explicit Hoister(std::unordered_map<const StmtNode*, LoopInfo> loops)
        : m_loops(std::move(loops)) {}

protected:
    using IRMutator::visit;

    Stmt visit(const ForNode* op) override { return wrap(op, IRMutator::visit(op)); }
    Stmt visit(const AttrStmtNode* op) override { return wrap(op, IRMutator::visit(op)); }

private:
    Stmt wrap(const StmtNode* original, Stmt loop) {
        auto it = m_loops.find(original);
        if (it == m_loops.end())
            return loop;
        const std::vector<HoistedCondition>& conditions = it->second.conditions;
        for (auto c = conditions.rbegin(); c != conditions.rend(); ++c) {
            Stmt thenCase = DecideCondition(c->condition, true).visitStmt(loop);
            Stmt elseCase =
                c->hasElse ? DecideCondition(c->condition, false).visitStmt(loop) : Stmt();
            loop = withStep(IfThenElseNode::make(c->condition, thenCase, elseCase), c->step);
        }
        return loop;
    }

    std::unordered_map<const StmtNode*, LoopInfo> m_loops;
};

} // namespace

Stmt hoistIfThenElse(const Stmt& stmt) {
    HoistCollector collector;
    collector.visitStmt(stmt);
    bool any = false;
    for (const auto& [def, info] : collector.loops)
        any = any || !info.conditions.empty();
    if (!any)
        return stmt;
    return Hoister(std::move(collector.loops)).visitStmt(stmt);
}

} // namespace bs
