/// \file
/// The object model under the IR: every node (expressions, statements, IterVars, operations)
/// is an immutable, reference-counted `Node` with a kind tag, held through cheap handles.
/// Downcast with `ref.as<AddNode>()`, which checks the tag (no RTTI).
#pragma once

#include "support/RefCounted.h"

#include <cstddef>
#include <functional>

namespace bs {

enum class NodeKind : uint8_t {
    // Expressions
    IntImm,
    FloatImm,
    StringImm,
    Var,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    FloorDiv,
    FloorMod,
    Min,
    Max,
    EQ,
    NE,
    LT,
    LE,
    GT,
    GE,
    And,
    Or,
    Not,
    Select,
    Cast,
    Call,
    ProducerLoad,
    Load,
    Ramp,
    Broadcast,
    Let,
    Reduce,
    // Statements
    LetStmt,
    AttrStmt,
    AssertStmt,
    For,
    ProducerRealize,
    ProducerStore,
    ProducerConsumer,
    Allocate,
    Store,
    Seq,
    IfThenElse,
    Evaluate,
    // Other objects
    IterVar,
    CommReducer,
    PlaceholderOp,
    ComputeOp,
    ScanOp,
    ExternOp,
    TensorComputeOp,
    BufferDecl,
    TensorIntrin,
};

constexpr bool isExprKind(NodeKind k) { return k <= NodeKind::Reduce; }
constexpr bool isStmtKind(NodeKind k) { return k >= NodeKind::LetStmt && k <= NodeKind::Evaluate; }

/// Base of all IR objects. Immutable once built and shared between trees.
class Node : public RefCounted {
public:
    explicit Node(NodeKind kind) : nodeKind(kind) {}
    const NodeKind nodeKind;
};

/// A nullable handle to any Node. Equality of handles (`same_as`) is identity.
class NodeRef {
public:
    NodeRef() = default;
    explicit NodeRef(const Node* node) : m_ptr(const_cast<Node*>(node)) {}
    explicit NodeRef(IntrusivePtr<Node> ptr) : m_ptr(std::move(ptr)) {}

    bool defined() const { return m_ptr.get() != nullptr; }
    const Node* get() const { return m_ptr.get(); }
    bool same_as(const NodeRef& other) const { return m_ptr.get() == other.m_ptr.get(); }
    NodeKind kind() const { return m_ptr->nodeKind; }

    /// The node as `T` when its kind is `T::kKind`, else nullptr (also for an undefined handle).
    template <typename T> const T* as() const {
        const Node* n = m_ptr.get();
        if (n && T::matches(n->nodeKind))
            return static_cast<const T*>(n);
        return nullptr;
    }

protected:
    IntrusivePtr<Node> m_ptr;
};

/// Hash and equality of handles by identity, for unordered containers keyed by nodes.
struct NodeHash {
    size_t operator()(const NodeRef& ref) const { return std::hash<const Node*>()(ref.get()); }
};
struct NodeEqual {
    bool operator()(const NodeRef& a, const NodeRef& b) const { return a.same_as(b); }
};

/// A node struct's one kind, as `as<T>()` reads it: `struct IterVarNode : Node, KindTag<...>`.
template <NodeKind K> struct KindTag {
    static constexpr NodeKind kKind = K;
    static constexpr bool matches(NodeKind k) { return k == K; }
};

} // namespace bs
