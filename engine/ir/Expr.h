/// \file
/// Expressions of the IR: immutable, typed, reference-counted nodes with public fields, built
/// by each node's static `make()` (which checks its invariants) or by the operators in Op.h
/// (which also match types and fold constants as TVM does). Also the small handle types that
/// expressions refer to: Var, Range, IterVar, CommReducer, Operation and Tensor.
#pragma once

#include "ir/Node.h"
#include "ir/Type.h"
#include "support/Diagnostic.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace bs {

class ExprNode : public Node {
public:
    DataType type;

protected:
    ExprNode(NodeKind kind, DataType t) : Node(kind), type(t) {}
};

/// A handle to an expression node (may be undefined).
class Expr : public NodeRef {
public:
    Expr() = default;
    Expr(const ExprNode* node) : NodeRef(node) {}
    /// An int32 constant.
    Expr(int value);
    /// A float32 constant (TVM turns Python floats into float32 constants).
    Expr(float value);
    Expr(double value);

    const ExprNode* get() const { return static_cast<const ExprNode*>(NodeRef::get()); }
    const ExprNode* operator->() const { return get(); }
    DataType type() const { return get()->type; }
};

struct VarNode;

/// A variable; identity is the node, not the name (two Vars named `i` are different).
class Var : public Expr {
public:
    Var() = default;
    explicit Var(std::string name, DataType type = DataType::int32());
    explicit Var(const VarNode* node);

    const VarNode* get() const;
    const VarNode* operator->() const { return get(); }
    const std::string& name() const;

    /// TVM's `size_var`: a variable known to be non-negative (shapes).
    static Var sizeVar(std::string name, DataType type = DataType::int32());
};

/// [min, min + extent). Undefined when `min` is undefined (e.g. the dom of a split child).
struct Range {
    Expr min;
    Expr extent;

    Range() = default;
    Range(Expr min, Expr extent) : min(std::move(min)), extent(std::move(extent)) {}
    static Range fromMinExtent(Expr min, Expr extent) {
        return Range(std::move(min), std::move(extent));
    }
    bool defined() const { return min.defined(); }
};
using Region = std::vector<Range>;

/// TVM's IterVarType, with TVM's numbering.
enum class IterVarType : uint8_t {
    DataPar = 0,
    ThreadIndex = 1,
    CommReduce = 2,
    Ordered = 3,
    Opaque = 4,
    Unrolled = 5,
    Vectorized = 6,
    Parallelized = 7,
    Tensorized = 8,
};
/// `kDataPar`, `kThreadIndex`, ... as TVM and TEDD print them.
const char* iterVarTypeName(IterVarType type);

/// An iteration variable: a loop axis, a reduction axis or a thread index.
struct IterVarNode : Node, KindTag<NodeKind::IterVar> {
    Range dom; ///< may be undefined (split children, thread axes without extent)
    Var var;
    IterVarType iterType = IterVarType::DataPar;
    std::string threadTag;   ///< e.g. `threadIdx.x`; empty for ordinary loops
    SourceLocation location; ///< the script line that created it

    IterVarNode() : Node(NodeKind::IterVar) {}
};

class IterVar : public NodeRef {
public:
    IterVar() = default;
    explicit IterVar(const IterVarNode* node) : NodeRef(node) {}
    /// Records `currentSourceLocation()` as the creating line.
    IterVar(Range dom, Var var, IterVarType type, std::string threadTag = "");

    const IterVarNode* get() const { return static_cast<const IterVarNode*>(NodeRef::get()); }
    const IterVarNode* operator->() const { return get(); }
    /// The loop variable as an expression.
    operator Expr() const { return get()->var; }
};

/// A commutative reducer: `result(lhs, rhs)` with an identity element, for each of its values.
struct CommReducerNode : Node, KindTag<NodeKind::CommReducer> {
    std::vector<Var> lhs;
    std::vector<Var> rhs;
    std::vector<Expr> result;
    std::vector<Expr> identityElement;

    CommReducerNode() : Node(NodeKind::CommReducer) {}
};

class CommReducer : public NodeRef {
public:
    CommReducer() = default;
    explicit CommReducer(const CommReducerNode* node) : NodeRef(node) {}
    CommReducer(std::vector<Var> lhs, std::vector<Var> rhs, std::vector<Expr> result,
                std::vector<Expr> identityElement);

    const CommReducerNode* get() const {
        return static_cast<const CommReducerNode*>(NodeRef::get());
    }
    const CommReducerNode* operator->() const { return get(); }
    /// Combines `a` and `b` (one value each) by substituting them for lhs and rhs.
    std::vector<Expr> combine(const std::vector<Expr>& a, const std::vector<Expr>& b) const;
};

class OperationNode;
struct Tensor;

/// A handle to an operation (placeholder, compute, ...); the node types live in engine/te.
class Operation : public NodeRef {
public:
    Operation() = default;
    explicit Operation(const OperationNode* node);

    const OperationNode* get() const;
    const OperationNode* operator->() const { return get(); }
    /// Output `i` of this operation.
    Tensor output(int i) const;
};

/// Output `valueIndex` of an operation: what stages produce and consume.
struct Tensor {
    Operation op;
    int valueIndex = 0;

    Tensor() = default;
    Tensor(Operation op, int valueIndex) : op(std::move(op)), valueIndex(valueIndex) {}

    bool defined() const { return op.defined(); }
    bool same_as(const Tensor& o) const { return op.same_as(o.op) && valueIndex == o.valueIndex; }
    const std::vector<Expr>& shape() const;
    size_t ndim() const { return shape().size(); }
    DataType dtype() const;
    /// The operation's name (TVM names a tensor after its op).
    const std::string& name() const;
    /// Reads this tensor at `indices` (a ProducerLoad).
    Expr operator()(std::vector<Expr> indices) const;
};

struct TensorHash {
    size_t operator()(const Tensor& t) const {
        return NodeHash()(t.op) * 31 + size_t(t.valueIndex);
    }
};
struct TensorEqual {
    bool operator()(const Tensor& a, const Tensor& b) const { return a.same_as(b); }
};

// ---------------------------------------------------------------------------------------------
// Expression nodes

struct IntImmNode : ExprNode, KindTag<NodeKind::IntImm> {
    int64_t value;
    IntImmNode(DataType t, int64_t v) : ExprNode(NodeKind::IntImm, t), value(v) {}
    static Expr make(DataType type, int64_t value);
};

struct FloatImmNode : ExprNode, KindTag<NodeKind::FloatImm> {
    double value;
    FloatImmNode(DataType t, double v) : ExprNode(NodeKind::FloatImm, t), value(v) {}
    static Expr make(DataType type, double value);
};

struct StringImmNode : ExprNode, KindTag<NodeKind::StringImm> {
    std::string value;
    explicit StringImmNode(std::string v)
        : ExprNode(NodeKind::StringImm, DataType::handle()), value(std::move(v)) {}
    static Expr make(std::string value);
};

struct VarNode : ExprNode, KindTag<NodeKind::Var> {
    std::string name;
    bool isSizeVar = false; ///< known to be non-negative
    VarNode(DataType t, std::string n) : ExprNode(NodeKind::Var, t), name(std::move(n)) {}
};

/// Binary arithmetic, min/max and comparisons share one layout.
template <NodeKind K> struct BinaryNode : ExprNode, KindTag<K> {
    Expr a;
    Expr b;
    BinaryNode(DataType t, Expr a, Expr b) : ExprNode(K, t), a(std::move(a)), b(std::move(b)) {}
    /// Builds the node without folding; operands must have the same type.
    static Expr make(Expr a, Expr b);
};

using AddNode = BinaryNode<NodeKind::Add>;
using SubNode = BinaryNode<NodeKind::Sub>;
using MulNode = BinaryNode<NodeKind::Mul>;
using DivNode = BinaryNode<NodeKind::Div>; ///< truncating division (C semantics)
using ModNode = BinaryNode<NodeKind::Mod>; ///< truncating remainder
using FloorDivNode = BinaryNode<NodeKind::FloorDiv>;
using FloorModNode = BinaryNode<NodeKind::FloorMod>;
using MinNode = BinaryNode<NodeKind::Min>;
using MaxNode = BinaryNode<NodeKind::Max>;
using EQNode = BinaryNode<NodeKind::EQ>;
using NENode = BinaryNode<NodeKind::NE>;
using LTNode = BinaryNode<NodeKind::LT>;
using LENode = BinaryNode<NodeKind::LE>;
using GTNode = BinaryNode<NodeKind::GT>;
using GENode = BinaryNode<NodeKind::GE>;
using AndNode = BinaryNode<NodeKind::And>;
using OrNode = BinaryNode<NodeKind::Or>;

constexpr bool isComparisonKind(NodeKind k) { return k >= NodeKind::EQ && k <= NodeKind::GE; }
constexpr bool isBinaryKind(NodeKind k) { return k >= NodeKind::Add && k <= NodeKind::Or; }

struct NotNode : ExprNode, KindTag<NodeKind::Not> {
    Expr a;
    explicit NotNode(Expr a) : ExprNode(NodeKind::Not, a.type()), a(std::move(a)) {}
    static Expr make(Expr a);
};

struct SelectNode : ExprNode, KindTag<NodeKind::Select> {
    Expr condition;
    Expr trueValue;
    Expr falseValue;
    SelectNode(Expr c, Expr t, Expr f)
        : ExprNode(NodeKind::Select, t.type()), condition(std::move(c)), trueValue(std::move(t)),
          falseValue(std::move(f)) {}
    static Expr make(Expr condition, Expr trueValue, Expr falseValue);
};

struct CastNode : ExprNode, KindTag<NodeKind::Cast> {
    Expr value;
    CastNode(DataType t, Expr v) : ExprNode(NodeKind::Cast, t), value(std::move(v)) {}
    static Expr make(DataType type, Expr value);
};

enum class CallKind : uint8_t {
    Intrinsic,  ///< built-in: likely, if_then_else, shift, ...
    PureExtern, ///< side-effect-free math function: exp, log, sqrt, ...
    Extern,     ///< anything else
};

struct CallNode : ExprNode, KindTag<NodeKind::Call> {
    std::string name;
    std::vector<Expr> args;
    CallKind callKind;
    CallNode(DataType t, std::string n, std::vector<Expr> a, CallKind k)
        : ExprNode(NodeKind::Call, t), name(std::move(n)), args(std::move(a)), callKind(k) {}
    static Expr make(DataType type, std::string name, std::vector<Expr> args, CallKind kind);
    bool isIntrinsic(const char* intrinsic) const {
        return callKind == CallKind::Intrinsic && name == intrinsic;
    }
};

/// A read of a tensor element, `A(i, j)`, before storage flattening.
struct ProducerLoadNode : ExprNode, KindTag<NodeKind::ProducerLoad> {
    Tensor tensor;
    std::vector<Expr> indices;
    ProducerLoadNode(DataType t, Tensor tensor, std::vector<Expr> indices)
        : ExprNode(NodeKind::ProducerLoad, t), tensor(std::move(tensor)),
          indices(std::move(indices)) {}
    static Expr make(Tensor tensor, std::vector<Expr> indices);
};

/// A read of a flat buffer, `B[index]`, after storage flattening.
struct LoadNode : ExprNode, KindTag<NodeKind::Load> {
    Var bufferVar;
    Expr index;
    Expr predicate; ///< may be undefined (always true)
    LoadNode(DataType t, Var buffer, Expr index, Expr predicate)
        : ExprNode(NodeKind::Load, t), bufferVar(std::move(buffer)), index(std::move(index)),
          predicate(std::move(predicate)) {}
    static Expr make(DataType type, Var buffer, Expr index, Expr predicate = Expr());
};

/// `base + stride * [0, 1, ..., lanes-1]`.
struct RampNode : ExprNode, KindTag<NodeKind::Ramp> {
    Expr base;
    Expr stride;
    int lanes;
    RampNode(Expr base, Expr stride, int lanes)
        : ExprNode(NodeKind::Ramp, base.type().withLanes(lanes)), base(std::move(base)),
          stride(std::move(stride)), lanes(lanes) {}
    static Expr make(Expr base, Expr stride, int lanes);
};

struct BroadcastNode : ExprNode, KindTag<NodeKind::Broadcast> {
    Expr value;
    int lanes;
    BroadcastNode(Expr value, int lanes)
        : ExprNode(NodeKind::Broadcast, value.type().withLanes(lanes)), value(std::move(value)),
          lanes(lanes) {}
    static Expr make(Expr value, int lanes);
};

/// `(let var = value in body)`.
struct LetNode : ExprNode, KindTag<NodeKind::Let> {
    Var var;
    Expr value;
    Expr body;
    LetNode(Var var, Expr value, Expr body)
        : ExprNode(NodeKind::Let, body.type()), var(std::move(var)), value(std::move(value)),
          body(std::move(body)) {}
    static Expr make(Var var, Expr value, Expr body);
};

/// A commutative reduction of `source` over `axis`, where `condition` holds; value
/// `valueIndex` of a multi-value reducer. `init` (empty, or one value per source) is the
/// reduction's start value in place of the reducer's identity (TVM's `te.sum(..., init=...)`).
struct ReduceNode : ExprNode, KindTag<NodeKind::Reduce> {
    CommReducer combiner;
    std::vector<Expr> source;
    std::vector<IterVar> axis;
    Expr condition;
    int valueIndex;
    std::vector<Expr> init;
    ReduceNode(DataType t, CommReducer combiner, std::vector<Expr> source,
               std::vector<IterVar> axis, Expr condition, int valueIndex, std::vector<Expr> init)
        : ExprNode(NodeKind::Reduce, t), combiner(std::move(combiner)), source(std::move(source)),
          axis(std::move(axis)), condition(std::move(condition)), valueIndex(valueIndex),
          init(std::move(init)) {}
    /// Checks `init` as TVM does (one per source, each an integer or float constant or a tensor
    /// read, of its source's type); throws UserError.
    static Expr make(CommReducer combiner, std::vector<Expr> source, std::vector<IterVar> axis,
                     Expr condition, int valueIndex, std::vector<Expr> init = {});
};

/// Maps keyed by variable identity.
template <typename V> using VarMap = std::unordered_map<Var, V, NodeHash, NodeEqual>;
using VarSet = std::unordered_set<Var, NodeHash, NodeEqual>;
template <typename V> using IterVarMap = std::unordered_map<IterVar, V, NodeHash, NodeEqual>;

} // namespace bs

namespace std {
template <> struct hash<bs::Var> {
    size_t operator()(const bs::Var& v) const { return bs::NodeHash()(v); }
};
template <> struct hash<bs::IterVar> {
    size_t operator()(const bs::IterVar& v) const { return bs::NodeHash()(v); }
};
} // namespace std
