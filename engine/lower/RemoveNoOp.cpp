#include "lower/RemoveNoOp.h"

#include "ir/Functor.h"
#include "ir/Op.h"

#include <array>
#include <string_view>

namespace bs {

namespace {

/// Intrinsics whose only effect is their value.
bool isPureIntrinsic(const std::string& name) {
    static constexpr std::array<std::string_view, 13> kPure = {
        "likely",     "if_then_else", "shift_left",  "shift_right", "bitwise_and",
        "bitwise_or", "bitwise_xor",  "bitwise_not", "popcount",    "reinterpret",
        "isnan",      "isinf",        "isfinite"};
    for (std::string_view pure : kPure) {
        if (name == pure)
            return true;
    }
    return false;
}

Stmt noOp() { return EvaluateNode::make(Expr(0)); }

/// TVM's MakeEvaluate: keep the expressions of a removed statement only when they matter.
Stmt evaluateEffects(const std::vector<Expr>& exprs) {
    std::vector<Stmt> kept;
    for (const Expr& e : exprs) {
        if (e.defined() && hasSideEffect(e))
            kept.push_back(EvaluateNode::make(e));
    }
    Stmt seq = SeqNode::make(std::move(kept));
    return seq.defined() ? seq : noOp();
}

class NoOpRemover : public IRMutator {
protected:
    using IRMutator::visit;

    Stmt visit(const LetStmtNode* op) override {
        Stmt s = IRMutator::visit(op);
        const auto* let = s.as<LetStmtNode>();
        return isNoOp(let->body) ? evaluateEffects({let->value}) : s;
    }
    Stmt visit(const AttrStmtNode* op) override {
        Stmt s = IRMutator::visit(op);
        const auto* attrStmt = s.as<AttrStmtNode>();
        return isNoOp(attrStmt->body) ? evaluateEffects({attrStmt->value}) : s;
    }
    Stmt visit(const ForNode* op) override {
        Stmt s = IRMutator::visit(op);
        const auto* loop = s.as<ForNode>();
        if (isZero(loop->extent))
            return noOp();
        return isNoOp(loop->body) ? evaluateEffects({loop->min, loop->extent}) : s;
    }
    Stmt visit(const AllocateNode* op) override {
        Stmt s = IRMutator::visit(op);
        const auto* alloc = s.as<AllocateNode>();
        return isNoOp(alloc->body) ? evaluateEffects(alloc->extents) : s;
    }
    Stmt visit(const ProducerRealizeNode* op) override {
        Stmt s = IRMutator::visit(op);
        const auto* realize = s.as<ProducerRealizeNode>();
        if (!isNoOp(realize->body))
            return s;
        std::vector<Expr> bounds;
        for (const Range& r : realize->bounds) {
            bounds.push_back(r.min);
            bounds.push_back(r.extent);
        }
        return evaluateEffects(bounds);
    }
    Stmt visit(const ProducerConsumerNode* op) override {
        Stmt s = IRMutator::visit(op);
        return isNoOp(s.as<ProducerConsumerNode>()->body) ? noOp() : s;
    }
    Stmt visit(const SeqNode* op) override {
        std::vector<Stmt> kept;
        bool changed = false;
        for (const Stmt& part : op->seq) {
            Stmt visited = visitStmt(part);
            changed = changed || !visited.same_as(part);
            if (isNoOp(visited))
                changed = true;
            else
                kept.push_back(visited);
        }
        if (!changed)
            return Stmt(op);
        Stmt seq = SeqNode::make(std::move(kept));
        return seq.defined() ? seq : noOp();
    }
    Stmt visit(const IfThenElseNode* op) override {
        Stmt s = IRMutator::visit(op);
        const auto* branch = s.as<IfThenElseNode>();
        bool emptyThen = isNoOp(branch->thenCase);
        bool emptyElse = !branch->elseCase.defined() || isNoOp(branch->elseCase);
        if (emptyThen && emptyElse)
            return evaluateEffects({branch->condition});
        if (emptyElse && branch->elseCase.defined())
            return IfThenElseNode::make(branch->condition, branch->thenCase);
        if (emptyThen)
            return IfThenElseNode::make(!branch->condition, branch->elseCase);
        return s;
    }
    Stmt visit(const EvaluateNode* op) override {
        if (hasSideEffect(op->value) || isConstInt(op->value, 0))
            return Stmt(op);
        return noOp();
    }
};

} // namespace

bool isNoOp(const Stmt& stmt) {
    if (!stmt.defined())
        return true;
    if (const auto* eval = stmt.as<EvaluateNode>())
        return isConst(eval->value);
    if (const auto* seq = stmt.as<SeqNode>()) {
        for (const Stmt& part : seq->seq) {
            if (!isNoOp(part))
                return false;
        }
        return true;
    }
    return false;
}

bool hasSideEffect(const Expr& e) {
    bool found = false;
    postOrderVisit(e, [&found](const NodeRef& n) {
        const auto* call = n.as<CallNode>();
        if (!call || found)
            return;
        found = call->callKind == CallKind::Extern ||
                (call->callKind == CallKind::Intrinsic && !isPureIntrinsic(call->name));
    });
    return found;
}

Stmt removeNoOp(const Stmt& stmt) {
    BS_CHECK(stmt.defined()) << "removeNoOp of an undefined statement";
    NoOpRemover remover;
    return remover.visitStmt(stmt);
}

} // namespace bs
