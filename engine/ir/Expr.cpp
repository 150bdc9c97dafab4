#include "ir/Expr.h"

#include "ir/IndexCheck.h"
#include "ir/OperationNode.h"
#include "ir/Printer.h"
#include "ir/Substitute.h"
#include "support/Check.h"
#include "support/Diagnostic.h"

namespace bs {

Expr::Expr(int value) : Expr(IntImmNode::make(DataType::int32(), value)) {}
Expr::Expr(float value) : Expr(FloatImmNode::make(DataType::float32(), value)) {}
Expr::Expr(double value) : Expr(FloatImmNode::make(DataType::float32(), value)) {}

Var::Var(std::string name, DataType type) : Expr(new VarNode(type, std::move(name))) {}
Var::Var(const VarNode* node) : Expr(node) {}
const VarNode* Var::get() const { return static_cast<const VarNode*>(Expr::get()); }
const std::string& Var::name() const { return get()->name; }

Var Var::sizeVar(std::string name, DataType type) {
    auto* node = new VarNode(type, std::move(name));
    node->isSizeVar = true;
    return Var(node);
}

const char* iterVarTypeName(IterVarType type) {
    switch (type) {
    case IterVarType::DataPar:
        return "kDataPar";
    case IterVarType::ThreadIndex:
        return "kThreadIndex";
    case IterVarType::CommReduce:
        return "kCommReduce";
    case IterVarType::Ordered:
        return "kOrdered";
    case IterVarType::Opaque:
        return "kOpaque";
    case IterVarType::Unrolled:
        return "kUnrolled";
    case IterVarType::Vectorized:
        return "kVectorized";
    case IterVarType::Parallelized:
        return "kParallelized";
    case IterVarType::Tensorized:
        return "kTensorized";
    }
    return "kUnknown";
}

IterVar::IterVar(Range dom, Var var, IterVarType type, std::string threadTag) {
    BS_CHECK(var.defined()) << "an IterVar needs a variable";
    auto* node = new IterVarNode();
    node->dom = std::move(dom);
    node->var = std::move(var);
    node->iterType = type;
    node->threadTag = std::move(threadTag);
    node->location = currentSourceLocation();
    m_ptr = IntrusivePtr<Node>(node);
}

CommReducer::CommReducer(std::vector<Var> lhs, std::vector<Var> rhs, std::vector<Expr> result,
                         std::vector<Expr> identityElement) {
    BS_CHECK(lhs.size() == rhs.size() && lhs.size() == result.size() &&
             lhs.size() == identityElement.size())
        << "a reducer needs one lhs, rhs, result and identity per value";
    auto* node = new CommReducerNode();
    node->lhs = std::move(lhs);
    node->rhs = std::move(rhs);
    node->result = std::move(result);
    node->identityElement = std::move(identityElement);
    m_ptr = IntrusivePtr<Node>(node);
}

std::vector<Expr> CommReducer::combine(const std::vector<Expr>& a,
                                       const std::vector<Expr>& b) const {
    const CommReducerNode* n = get();
    BS_CHECK(a.size() == n->lhs.size() && b.size() == n->rhs.size()) << "reducer arity mismatch";
    VarMap<Expr> map;
    for (size_t i = 0; i < a.size(); ++i) {
        map[n->lhs[i]] = a[i];
        map[n->rhs[i]] = b[i];
    }
    std::vector<Expr> out;
    out.reserve(n->result.size());
    for (const Expr& r : n->result)
        out.push_back(substitute(r, map));
    return out;
}

Operation::Operation(const OperationNode* node) : NodeRef(node) {}
const OperationNode* Operation::get() const {
    return static_cast<const OperationNode*>(NodeRef::get());
}
Tensor Operation::output(int i) const {
    BS_CHECK(i >= 0 && i < get()->numOutputs()) << "output " << i << " of " << get()->name;
    return Tensor(*this, i);
}

const std::vector<Expr>& Tensor::shape() const { return op->outputShape(valueIndex); }
DataType Tensor::dtype() const { return op->outputDType(valueIndex); }
const std::string& Tensor::name() const { return op->name; }
void requireIntegerIndex(const Expr& index, const std::string& what) {
    if (!index.type().isIntegral())
        throw UserError(what + " is indexed with '" + toString(index) + "', a " +
                        index.type().toString() +
                        ": an index must be an integer (convert it with .astype(\"int32\"))");
}

Expr Tensor::operator()(std::vector<Expr> indices) const {
    return ProducerLoadNode::make(*this, std::move(indices));
}

// ---------------------------------------------------------------------------------------------

Expr IntImmNode::make(DataType type, int64_t value) {
    BS_CHECK(type.isScalar() && (type.isIntegral() || type.isBool()))
        << "IntImm of type " << type.toString();
    return Expr(new IntImmNode(type, value));
}

Expr FloatImmNode::make(DataType type, double value) {
    BS_CHECK(type.isScalar() && type.isFloat()) << "FloatImm of type " << type.toString();
    return Expr(new FloatImmNode(type, value));
}

Expr StringImmNode::make(std::string value) { return Expr(new StringImmNode(std::move(value))); }

template <NodeKind K> Expr BinaryNode<K>::make(Expr a, Expr b) {
    BS_CHECK(a.defined() && b.defined()) << "binary operator with an undefined operand";
    BS_CHECK(a.type() == b.type()) << "binary operator on mismatched types " << a.type().toString()
                                   << " and " << b.type().toString();
    DataType t = a.type();
    if constexpr (isComparisonKind(K))
        t = DataType::boolean().withLanes(a.type().lanes());
    if constexpr (K == NodeKind::And || K == NodeKind::Or)
        BS_CHECK(a.type().isBool()) << "logical operator on " << a.type().toString();
    return Expr(new BinaryNode<K>(t, std::move(a), std::move(b)));
}

template struct BinaryNode<NodeKind::Add>;
template struct BinaryNode<NodeKind::Sub>;
template struct BinaryNode<NodeKind::Mul>;
template struct BinaryNode<NodeKind::Div>;
template struct BinaryNode<NodeKind::Mod>;
template struct BinaryNode<NodeKind::FloorDiv>;
template struct BinaryNode<NodeKind::FloorMod>;
template struct BinaryNode<NodeKind::Min>;
template struct BinaryNode<NodeKind::Max>;
template struct BinaryNode<NodeKind::EQ>;
template struct BinaryNode<NodeKind::NE>;
template struct BinaryNode<NodeKind::LT>;
template struct BinaryNode<NodeKind::LE>;
template struct BinaryNode<NodeKind::GT>;
template struct BinaryNode<NodeKind::GE>;
template struct BinaryNode<NodeKind::And>;
template struct BinaryNode<NodeKind::Or>;

Expr NotNode::make(Expr a) {
    BS_CHECK(a.defined() && a.type().isBool()) << "logical not of a non-boolean";
    return Expr(new NotNode(std::move(a)));
}

Expr SelectNode::make(Expr condition, Expr trueValue, Expr falseValue) {
    BS_CHECK(condition.defined() && condition.type().isBool()) << "select condition must be bool";
    BS_CHECK(trueValue.type() == falseValue.type()) << "select branches of different types";
    return Expr(new SelectNode(std::move(condition), std::move(trueValue), std::move(falseValue)));
}

Expr CastNode::make(DataType type, Expr value) {
    BS_CHECK(value.defined()) << "cast of an undefined value";
    BS_CHECK(type.lanes() == value.type().lanes()) << "cast cannot change the lane count";
    return Expr(new CastNode(type, std::move(value)));
}

Expr CallNode::make(DataType type, std::string name, std::vector<Expr> args, CallKind kind) {
    for (const Expr& a : args)
        BS_CHECK(a.defined()) << "call to " << name << " with an undefined argument";
    return Expr(new CallNode(type, std::move(name), std::move(args), kind));
}

Expr ProducerLoadNode::make(Tensor tensor, std::vector<Expr> indices) {
    BS_CHECK(tensor.defined()) << "read of an undefined tensor";
    BS_CHECK(indices.size() == tensor.ndim())
        << "read of " << tensor.name() << " with " << indices.size() << " indices, tensor has "
        << tensor.ndim() << " dimensions";
    for (const Expr& index : indices)
        requireIntegerIndex(index, "tensor '" + tensor.name() + "'");
    DataType t = tensor.dtype();
    return Expr(new ProducerLoadNode(t, std::move(tensor), std::move(indices)));
}

Expr LoadNode::make(DataType type, Var buffer, Expr index, Expr predicate) {
    BS_CHECK(buffer.defined() && index.defined()) << "load needs a buffer and an index";
    requireIntegerIndex(index, "buffer '" + buffer.name() + "'");
    return Expr(new LoadNode(type, std::move(buffer), std::move(index), std::move(predicate)));
}

Expr RampNode::make(Expr base, Expr stride, int lanes) {
    BS_CHECK(lanes > 1 && base.type().isScalar() && base.type() == stride.type())
        << "ramp needs scalar base and stride of one type and lanes > 1";
    return Expr(new RampNode(std::move(base), std::move(stride), lanes));
}

Expr BroadcastNode::make(Expr value, int lanes) {
    BS_CHECK(lanes > 1 && value.type().isScalar()) << "broadcast of a vector or to lanes <= 1";
    return Expr(new BroadcastNode(std::move(value), lanes));
}

Expr LetNode::make(Var var, Expr value, Expr body) {
    BS_CHECK(var.defined() && value.defined() && body.defined()) << "incomplete let";
    BS_CHECK(var.type() == value.type())
        << "let binds " << var.name() << " of type " << var.type().toString() << " to "
        << value.type().toString();
    return Expr(new LetNode(std::move(var), std::move(value), std::move(body)));
}

Expr ReduceNode::make(CommReducer combiner, std::vector<Expr> source, std::vector<IterVar> axis,
                      Expr condition, int valueIndex, std::vector<Expr> init) {
    BS_CHECK(combiner.defined()) << "reduce without a combiner";
    BS_CHECK(valueIndex >= 0 && size_t(valueIndex) < source.size()) << "reduce value index";
    BS_CHECK(init.empty() || init.size() == source.size()) << "reduce: one init per source";
    if (!condition.defined())
        condition = IntImmNode::make(DataType::boolean(), 1);
    DataType t = source[size_t(valueIndex)].type();
    return Expr(new ReduceNode(t, std::move(combiner), std::move(source), std::move(axis),
                               std::move(condition), valueIndex, std::move(init)));
}

} // namespace bs
