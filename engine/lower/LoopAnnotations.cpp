#include "lower/LoopAnnotations.h"

#include "ir/Functor.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "ir/Substitute.h"

namespace bs {

namespace {

/// TVM's UnrollLoop with explicit unrolling only: each copy is the (already unrolled) body
/// with the loop variable replaced by `min + k`, so `for (k, 0, 3) unrolled { A[k] = k }`
/// becomes `A[0] = 0; A[1] = 1; A[2] = 2`.
class LoopUnroller : public IRMutator {
protected:
    using IRMutator::visit;

    Stmt visit(const ForNode* op) override {
        Stmt visited = IRMutator::visit(op);
        if (op->kind != ForKind::Unrolled)
            return visited;
        const auto* loop = visited.as<ForNode>();
        auto extent = asConstInt(loop->extent);
        if (!extent)
            throw UserError("unroll of loop '" + loop->loopVar.name() +
                            "': extent must be a constant, got " + toString(loop->extent));
        if (*extent <= 0)
            return EvaluateNode::make(Expr(0));
        std::vector<Stmt> copies;
        copies.reserve(size_t(*extent));
        for (int64_t k = 0; k < *extent; ++k) {
            Expr value = loop->min + makeConst(loop->loopVar.type(), k);
            copies.push_back(substitute(loop->body, VarMap<Expr>{{loop->loopVar, value}}));
        }
        return SeqNode::make(std::move(copies));
    }
};

} // namespace

Stmt unrollLoops(const Stmt& stmt) {
    BS_CHECK(stmt.defined()) << "unroll of an undefined statement";
    LoopUnroller unroller;
    return unroller.visitStmt(stmt);
}

} // namespace bs
