#include "ir/Equality.h"

#include "ir/Functor.h"
#include "ir/OperationNode.h"

#include <functional>

namespace bs {

namespace {

/// Compares two trees node by node. Each node kind compares its own fields and recurses.
class EqualityChecker {
public:
    explicit EqualityChecker(bool mapFreeVars) : m_mapFreeVars(mapFreeVars) {}

    bool equal(const Expr& a, const Expr& b) {
        if (a.same_as(b))
            return true;
        if (!a.defined() || !b.defined())
            return false;
        if (a.kind() != b.kind() || a.type() != b.type())
            return false;
        return equalExprNodes(a, b);
    }

    bool equal(const Stmt& a, const Stmt& b) {
        if (a.same_as(b))
            return true;
        if (!a.defined() || !b.defined() || a.kind() != b.kind())
            return false;
        return equalStmtNodes(a, b);
    }

private:
    bool equalVars(const Var& a, const Var& b) {
        if (a.same_as(b))
            return true;
        if (!a.defined() || !b.defined())
            return false;
        auto it = m_varMap.find(a);
        if (it != m_varMap.end())
            return it->second.same_as(b);
        if (!m_mapFreeVars || a.type() != b.type())
            return false;
        m_varMap[a] = b;
        return true;
    }

    /// Binding sites (let, for, reducer args) always map their variables.
    bool bindVars(const Var& a, const Var& b) {
        if (a.type() != b.type())
            return false;
        m_varMap[a] = b;
        return true;
    }

    bool equal(const std::vector<Expr>& a, const std::vector<Expr>& b) {
        if (a.size() != b.size())
            return false;
        for (size_t i = 0; i < a.size(); ++i)
            if (!equal(a[i], b[i]))
                return false;
        return true;
    }

    bool equal(const Range& a, const Range& b) {
        if (a.defined() != b.defined())
            return false;
        return !a.defined() || (equal(a.min, b.min) && equal(a.extent, b.extent));
    }

    bool equal(const IterVar& a, const IterVar& b) {
        if (a.same_as(b))
            return true;
        return a->iterType == b->iterType && a->threadTag == b->threadTag &&
               equal(a->dom, b->dom) && bindVars(a->var, b->var);
    }

    bool equalReducers(const CommReducer& a, const CommReducer& b) {
        if (a.same_as(b))
            return true;
        if (a->lhs.size() != b->lhs.size())
            return false;
        for (size_t i = 0; i < a->lhs.size(); ++i)
            if (!bindVars(a->lhs[i], b->lhs[i]) || !bindVars(a->rhs[i], b->rhs[i]))
                return false;
        return equal(a->result, b->result) && equal(a->identityElement, b->identityElement);
    }

    template <typename T> static const T* as(const NodeRef& r) {
        return static_cast<const T*>(r.get());
    }

    bool equalExprNodes(const Expr& ea, const Expr& eb) {
        switch (ea.kind()) {
        case NodeKind::IntImm:
            return as<IntImmNode>(ea)->value == as<IntImmNode>(eb)->value;
        case NodeKind::FloatImm:
            return as<FloatImmNode>(ea)->value == as<FloatImmNode>(eb)->value;
        case NodeKind::StringImm:
            return as<StringImmNode>(ea)->value == as<StringImmNode>(eb)->value;
        case NodeKind::Var:
            return equalVars(Var(as<VarNode>(ea)), Var(as<VarNode>(eb)));
#define BS_BINARY_CASE(N)                                                                          \
    case NodeKind::N:                                                                              \
        return equal(as<N##Node>(ea)->a, as<N##Node>(eb)->a) &&                                    \
               equal(as<N##Node>(ea)->b, as<N##Node>(eb)->b);
            BS_BINARY_CASE(Add)
            BS_BINARY_CASE(Sub)
            BS_BINARY_CASE(Mul)
            BS_BINARY_CASE(Div)
            BS_BINARY_CASE(Mod)
            BS_BINARY_CASE(FloorDiv)
            BS_BINARY_CASE(FloorMod)
            BS_BINARY_CASE(Min)
            BS_BINARY_CASE(Max)
            BS_BINARY_CASE(EQ)
            BS_BINARY_CASE(NE)
            BS_BINARY_CASE(LT)
            BS_BINARY_CASE(LE)
            BS_BINARY_CASE(GT)
            BS_BINARY_CASE(GE)
            BS_BINARY_CASE(And)
            BS_BINARY_CASE(Or)
#undef BS_BINARY_CASE
        case NodeKind::Not:
            return equal(as<NotNode>(ea)->a, as<NotNode>(eb)->a);
        case NodeKind::Select: {
            auto *a = as<SelectNode>(ea), *b = as<SelectNode>(eb);
            return equal(a->condition, b->condition) && equal(a->trueValue, b->trueValue) &&
                   equal(a->falseValue, b->falseValue);
        }
        case NodeKind::Cast:
            return equal(as<CastNode>(ea)->value, as<CastNode>(eb)->value);
        case NodeKind::Call: {
            auto *a = as<CallNode>(ea), *b = as<CallNode>(eb);
            return a->name == b->name && a->callKind == b->callKind && equal(a->args, b->args);
        }
        case NodeKind::ProducerLoad: {
            auto *a = as<ProducerLoadNode>(ea), *b = as<ProducerLoadNode>(eb);
            return a->tensor.same_as(b->tensor) && equal(a->indices, b->indices);
        }
        case NodeKind::Load: {
            auto *a = as<LoadNode>(ea), *b = as<LoadNode>(eb);
            return equalVars(a->bufferVar, b->bufferVar) && equal(a->index, b->index) &&
                   equal(a->predicate, b->predicate);
        }
        case NodeKind::Ramp: {
            auto *a = as<RampNode>(ea), *b = as<RampNode>(eb);
            return a->lanes == b->lanes && equal(a->base, b->base) && equal(a->stride, b->stride);
        }
        case NodeKind::Broadcast: {
            auto *a = as<BroadcastNode>(ea), *b = as<BroadcastNode>(eb);
            return a->lanes == b->lanes && equal(a->value, b->value);
        }
        case NodeKind::Let: {
            auto *a = as<LetNode>(ea), *b = as<LetNode>(eb);
            return equal(a->value, b->value) && bindVars(a->var, b->var) && equal(a->body, b->body);
        }
        case NodeKind::Reduce: {
            auto *a = as<ReduceNode>(ea), *b = as<ReduceNode>(eb);
            if (a->valueIndex != b->valueIndex || a->axis.size() != b->axis.size())
                return false;
            for (size_t i = 0; i < a->axis.size(); ++i)
                if (!equal(a->axis[i], b->axis[i]))
                    return false;
            return equalReducers(a->combiner, b->combiner) && equal(a->source, b->source) &&
                   equal(a->init, b->init) && equal(a->condition, b->condition);
        }
        default:
            return false;
        }
    }

    bool equalStmtNodes(const Stmt& sa, const Stmt& sb) {
        switch (sa.kind()) {
        case NodeKind::LetStmt: {
            auto *a = as<LetStmtNode>(sa), *b = as<LetStmtNode>(sb);
            return equal(a->value, b->value) && bindVars(a->var, b->var) && equal(a->body, b->body);
        }
        case NodeKind::AttrStmt: {
            auto *a = as<AttrStmtNode>(sa), *b = as<AttrStmtNode>(sb);
            bool nodesEqual = a->node.same_as(b->node);
            if (!nodesEqual && a->node.defined() && b->node.defined() &&
                isExprKind(a->node.kind()) && isExprKind(b->node.kind()))
                nodesEqual = equal(Expr(as<ExprNode>(a->node)), Expr(as<ExprNode>(b->node)));
            return nodesEqual && a->key == b->key && equal(a->value, b->value) &&
                   equal(a->body, b->body);
        }
        case NodeKind::AssertStmt: {
            auto *a = as<AssertStmtNode>(sa), *b = as<AssertStmtNode>(sb);
            return equal(a->condition, b->condition) && equal(a->message, b->message) &&
                   equal(a->body, b->body);
        }
        case NodeKind::For: {
            auto *a = as<ForNode>(sa), *b = as<ForNode>(sb);
            return a->kind == b->kind && equal(a->min, b->min) && equal(a->extent, b->extent) &&
                   a->threadBinding.same_as(b->threadBinding) && bindVars(a->loopVar, b->loopVar) &&
                   equal(a->body, b->body);
        }
        case NodeKind::ProducerRealize: {
            auto *a = as<ProducerRealizeNode>(sa), *b = as<ProducerRealizeNode>(sb);
            if (!a->tensor.same_as(b->tensor) || a->bounds.size() != b->bounds.size() ||
                a->storageScope != b->storageScope)
                return false;
            for (size_t i = 0; i < a->bounds.size(); ++i)
                if (!equal(a->bounds[i], b->bounds[i]))
                    return false;
            return equal(a->condition, b->condition) && equal(a->body, b->body);
        }
        case NodeKind::ProducerStore: {
            auto *a = as<ProducerStoreNode>(sa), *b = as<ProducerStoreNode>(sb);
            return a->tensor.same_as(b->tensor) && equal(a->value, b->value) &&
                   equal(a->indices, b->indices);
        }
        case NodeKind::ProducerConsumer: {
            auto *a = as<ProducerConsumerNode>(sa), *b = as<ProducerConsumerNode>(sb);
            return a->op.same_as(b->op) && a->isProducer == b->isProducer &&
                   equal(a->body, b->body);
        }
        case NodeKind::Allocate: {
            auto *a = as<AllocateNode>(sa), *b = as<AllocateNode>(sb);
            return a->type == b->type && equal(a->extents, b->extents) &&
                   equal(a->condition, b->condition) && bindVars(a->bufferVar, b->bufferVar) &&
                   equal(a->body, b->body);
        }
        case NodeKind::Store: {
            auto *a = as<StoreNode>(sa), *b = as<StoreNode>(sb);
            return equalVars(a->bufferVar, b->bufferVar) && equal(a->value, b->value) &&
                   equal(a->index, b->index) && equal(a->predicate, b->predicate);
        }
        case NodeKind::Seq: {
            auto *a = as<SeqNode>(sa), *b = as<SeqNode>(sb);
            if (a->seq.size() != b->seq.size())
                return false;
            for (size_t i = 0; i < a->seq.size(); ++i)
                if (!equal(a->seq[i], b->seq[i]))
                    return false;
            return true;
        }
        case NodeKind::IfThenElse: {
            auto *a = as<IfThenElseNode>(sa), *b = as<IfThenElseNode>(sb);
            return equal(a->condition, b->condition) && equal(a->thenCase, b->thenCase) &&
                   equal(a->elseCase, b->elseCase);
        }
        case NodeKind::Evaluate:
            return equal(as<EvaluateNode>(sa)->value, as<EvaluateNode>(sb)->value);
        default:
            return false;
        }
    }

    bool m_mapFreeVars;
    VarMap<Var> m_varMap;
};

inline void hashCombine(size_t& seed, size_t value) {
    seed ^= value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
}

/// Hashes kinds, types, constants, variable names and tensors, in tree order.
class Hasher : public IRVisitor {
public:
    size_t hash = 0;

    void visitExpr(const Expr& e) override {
        hashCombine(hash, size_t(e.kind()));
        hashCombine(hash, std::hash<std::string>()(e.type().toString()));
        IRVisitor::visitExpr(e);
    }
    void visitStmt(const Stmt& s) override {
        hashCombine(hash, size_t(s.kind()) + 1000);
        IRVisitor::visitStmt(s);
    }

protected:
    using IRVisitor::visit;
    void visit(const IntImmNode* op) override {
        hashCombine(hash, std::hash<int64_t>()(op->value));
    }
    void visit(const FloatImmNode* op) override {
        hashCombine(hash, std::hash<double>()(op->value));
    }
    void visit(const StringImmNode* op) override {
        hashCombine(hash, std::hash<std::string>()(op->value));
    }
    // Variables hash by name: identical trees hash equally, and so do trees that differ only in
    // let/loop-bound variables of the same name.
    void visit(const VarNode* op) override {
        hashCombine(hash, std::hash<std::string>()(op->name));
    }
    void visit(const CallNode* op) override {
        hashCombine(hash, std::hash<std::string>()(op->name));
        IRVisitor::visit(op);
    }
    void visit(const ProducerLoadNode* op) override {
        hashCombine(hash, TensorHash()(op->tensor));
        IRVisitor::visit(op);
    }
    void visit(const LoadNode* op) override {
        hashCombine(hash, std::hash<const void*>()(op->bufferVar.get()));
        IRVisitor::visit(op);
    }
    void visit(const StoreNode* op) override {
        hashCombine(hash, std::hash<const void*>()(op->bufferVar.get()));
        IRVisitor::visit(op);
    }
    void visit(const ProducerStoreNode* op) override {
        hashCombine(hash, TensorHash()(op->tensor));
        IRVisitor::visit(op);
    }
    void visit(const AttrStmtNode* op) override {
        hashCombine(hash, std::hash<std::string>()(op->key));
        IRVisitor::visit(op);
    }
};

} // namespace

bool structuralEqual(const Expr& a, const Expr& b, bool mapFreeVars) {
    return EqualityChecker(mapFreeVars).equal(a, b);
}

bool structuralEqual(const Stmt& a, const Stmt& b, bool mapFreeVars) {
    return EqualityChecker(mapFreeVars).equal(a, b);
}

size_t structuralHash(const Expr& e) {
    if (!e.defined())
        return 0;
    Hasher h;
    h.visitExpr(e);
    return h.hash;
}

size_t structuralHash(const Stmt& s) {
    if (!s.defined())
        return 0;
    Hasher h;
    h.visitStmt(s);
    return h.hash;
}

} // namespace bs
