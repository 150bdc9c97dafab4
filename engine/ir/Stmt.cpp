#include "ir/Stmt.h"

#include "ir/IndexCheck.h"
#include "support/Check.h"

namespace bs {

const char* forKindName(ForKind kind) {
    switch (kind) {
    case ForKind::Serial:
        return "for";
    case ForKind::Parallel:
        return "parallel";
    case ForKind::Vectorized:
        return "vectorized";
    case ForKind::Unrolled:
        return "unrolled";
    case ForKind::ThreadBinding:
        return "thread_binding";
    }
    return "for";
}

Stmt withStep(Stmt s, int32_t step) {
    if (s.defined())
        s.get()->m_stepId = step;
    return s;
}

Stmt carryStep(const Stmt& original, Stmt rebuilt) {
    if (!rebuilt.defined() || rebuilt.same_as(original) || !original.defined())
        return rebuilt;
    const int32_t step = original->stepId();
    if (step < 0 || rebuilt->stepId() >= 0 || rebuilt.kind() != original.kind() ||
        rebuilt->useCount() != 1)
        return rebuilt;
    return withStep(std::move(rebuilt), step);
}

Stmt LetStmtNode::make(Var var, Expr value, Stmt body) {
    BS_CHECK(var.defined() && value.defined() && body.defined()) << "incomplete let statement";
    BS_CHECK(var.type() == value.type())
        << "let " << var.name() << " binds a value of type " << value.type().toString();
    return Stmt(new LetStmtNode(std::move(var), std::move(value), std::move(body)));
}

Stmt AttrStmtNode::make(NodeRef node, std::string key, Expr value, Stmt body) {
    BS_CHECK(body.defined()) << "attr " << key << " without a body";
    return Stmt(
        new AttrStmtNode(std::move(node), std::move(key), std::move(value), std::move(body)));
}

Stmt AssertStmtNode::make(Expr condition, Expr message, Stmt body) {
    BS_CHECK(condition.defined() && condition.type().isBool()) << "assert needs a boolean";
    return Stmt(new AssertStmtNode(std::move(condition), std::move(message), std::move(body)));
}

Stmt ForNode::make(Var loopVar, Expr min, Expr extent, ForKind kind, Stmt body,
                   IterVar threadBinding) {
    BS_CHECK(loopVar.defined() && min.defined() && extent.defined() && body.defined())
        << "incomplete for loop";
    BS_CHECK(min.type().isIntegral() && extent.type().isIntegral())
        << "loop bounds must be integers";
    return Stmt(new ForNode(std::move(loopVar), std::move(min), std::move(extent), kind,
                            std::move(body), std::move(threadBinding)));
}

Stmt ProducerRealizeNode::make(Tensor tensor, Region bounds, Expr condition, Stmt body,
                               std::string storageScope) {
    BS_CHECK(tensor.defined() && body.defined()) << "incomplete realize";
    BS_CHECK(bounds.size() == tensor.ndim())
        << "realize of " << tensor.name() << " needs " << tensor.ndim() << " ranges";
    if (!condition.defined())
        condition = IntImmNode::make(DataType::boolean(), 1);
    return Stmt(new ProducerRealizeNode(std::move(tensor), std::move(bounds), std::move(condition),
                                        std::move(body), std::move(storageScope)));
}

Stmt ProducerStoreNode::make(Tensor tensor, Expr value, std::vector<Expr> indices) {
    BS_CHECK(tensor.defined() && value.defined()) << "incomplete tensor store";
    BS_CHECK(indices.size() == tensor.ndim())
        << "store to " << tensor.name() << " needs " << tensor.ndim() << " indices";
    for (const Expr& index : indices)
        requireIntegerIndex(index, "tensor '" + tensor.name() + "'");
    return Stmt(new ProducerStoreNode(std::move(tensor), std::move(value), std::move(indices)));
}

Stmt ProducerConsumerNode::make(Operation op, bool isProducer, Stmt body) {
    BS_CHECK(op.defined() && body.defined()) << "incomplete produce block";
    return Stmt(new ProducerConsumerNode(std::move(op), isProducer, std::move(body)));
}

Stmt AllocateNode::make(Var bufferVar, DataType type, std::vector<Expr> extents, Expr condition,
                        Stmt body) {
    BS_CHECK(bufferVar.defined() && body.defined()) << "incomplete allocate";
    if (!condition.defined())
        condition = IntImmNode::make(DataType::boolean(), 1);
    return Stmt(new AllocateNode(std::move(bufferVar), type, std::move(extents),
                                 std::move(condition), std::move(body)));
}

int64_t AllocateNode::constantSize() const {
    int64_t size = 1;
    for (const Expr& e : extents) {
        const auto* imm = e.as<IntImmNode>();
        if (!imm)
            return -1;
        size *= imm->value;
    }
    return size;
}

Stmt StoreNode::make(Var bufferVar, Expr value, Expr index, Expr predicate) {
    BS_CHECK(bufferVar.defined() && value.defined() && index.defined()) << "incomplete store";
    requireIntegerIndex(index, "buffer '" + bufferVar.name() + "'");
    return Stmt(new StoreNode(std::move(bufferVar), std::move(value), std::move(index),
                              std::move(predicate)));
}

Stmt SeqNode::make(std::vector<Stmt> seq) {
    std::vector<Stmt> flat;
    for (Stmt& s : seq) {
        if (!s.defined())
            continue;
        if (const auto* inner = s.as<SeqNode>()) {
            flat.insert(flat.end(), inner->seq.begin(), inner->seq.end());
            continue;
        }
        flat.push_back(std::move(s));
    }
    if (flat.empty())
        return Stmt();
    if (flat.size() == 1)
        return flat[0];
    return Stmt(new SeqNode(std::move(flat)));
}

Stmt IfThenElseNode::make(Expr condition, Stmt thenCase, Stmt elseCase) {
    BS_CHECK(condition.defined() && condition.type().isBool() && thenCase.defined())
        << "if needs a boolean condition and a then branch";
    return Stmt(new IfThenElseNode(std::move(condition), std::move(thenCase), std::move(elseCase)));
}

Stmt EvaluateNode::make(Expr value) {
    BS_CHECK(value.defined()) << "evaluate of an undefined expression";
    return Stmt(new EvaluateNode(std::move(value)));
}

} // namespace bs
