/// \file
/// The relations between a stage's IterVars (TVM's IterVarRelation): Split, Fuse, Rebase and
/// Singleton. A stage's relations, in order, form the hyper-graph from its root IterVars to its
/// leaves that InferBound's PassUp/PassDown walk (seed 000, "IterVar Hyper-graph").
///
/// Relations are immutable and reference-counted like IR nodes; downcast with
/// `rel.as<SplitNode>()`. Each records the script line that created it.
#pragma once

#include "ir/Expr.h"

#include <string>
#include <vector>

namespace bs {

enum class RelationKind : uint8_t { Split, Fuse, Rebase, Singleton };

struct IterVarRelationNode : RefCounted {
    const RelationKind relationKind;
    SourceLocation location; ///< the script line that created the relation

protected:
    explicit IterVarRelationNode(RelationKind kind)
        : relationKind(kind), location(currentSourceLocation()) {}
};

/// `parent` -> (`outer`, `inner`); exactly one of `factor` (inner extent) and `nparts` (outer
/// extent) is defined.
struct SplitNode : IterVarRelationNode {
    static constexpr RelationKind kKind = RelationKind::Split;
    IterVar parent;
    IterVar outer;
    IterVar inner;
    Expr factor;
    Expr nparts;
    /// `split(..., disable_predication=True)`: no bound check for the iterations past the
    /// parent's extent (the program's buffers must be large enough for them).
    bool disablePredication = false;
    SplitNode() : IterVarRelationNode(kKind) {}
};

/// (`outer`, `inner`) -> `fused`, with fused = outer * extent(inner) + inner.
struct FuseNode : IterVarRelationNode {
    static constexpr RelationKind kKind = RelationKind::Fuse;
    IterVar outer;
    IterVar inner;
    IterVar fused;
    FuseNode() : IterVarRelationNode(kKind) {}
};

/// `parent` -> `rebased`, a copy starting at 0 (normalize's RebaseNonZeroMinLoop).
struct RebaseNode : IterVarRelationNode {
    static constexpr RelationKind kKind = RelationKind::Rebase;
    IterVar parent;
    IterVar rebased;
    RebaseNode() : IterVarRelationNode(kKind) {}
};

/// A new loop `iter` of extent 1 (`fuse()` with no arguments).
struct SingletonNode : IterVarRelationNode {
    static constexpr RelationKind kKind = RelationKind::Singleton;
    IterVar iter;
    SingletonNode() : IterVarRelationNode(kKind) {}
};

/// A handle to a relation.
class IterVarRelation {
public:
    IterVarRelation() = default;
    explicit IterVarRelation(const IterVarRelationNode* node) : m_ptr(node) {}

    static IterVarRelation split(IterVar parent, IterVar outer, IterVar inner, Expr factor,
                                 Expr nparts, bool disablePredication = false);
    static IterVarRelation fuse(IterVar outer, IterVar inner, IterVar fused);
    static IterVarRelation rebase(IterVar parent, IterVar rebased);
    static IterVarRelation singleton(IterVar iter);

    bool defined() const { return m_ptr.get() != nullptr; }
    const IterVarRelationNode* get() const { return m_ptr.get(); }
    const IterVarRelationNode* operator->() const { return m_ptr.get(); }
    RelationKind kind() const { return m_ptr->relationKind; }
    bool same_as(const IterVarRelation& other) const { return get() == other.get(); }

    /// The relation as `T` when it is one, else nullptr.
    template <typename T> const T* as() const {
        const IterVarRelationNode* n = m_ptr.get();
        return n && n->relationKind == T::kKind ? static_cast<const T*>(n) : nullptr;
    }

private:
    IntrusivePtr<const IterVarRelationNode> m_ptr;
};

/// Calls the overload of `visitor` for the relation's node: `visitor(const SplitNode*)`,
/// `visitor(const FuseNode*)`, `visitor(const RebaseNode*)`, `visitor(const SingletonNode*)`.
/// This is the one dispatch over relation kinds: its `switch` names every kind (the engine builds
/// with -Werror=switch), so a new kind is a compile error here, and once added here, at every
/// visitor that lacks an overload for it. Every overload returns the same type.
template <typename Visitor>
decltype(auto) visitRelation(const IterVarRelation& rel, Visitor&& visitor) {
    switch (rel.kind()) {
    case RelationKind::Split:
        return visitor(static_cast<const SplitNode*>(rel.get()));
    case RelationKind::Fuse:
        return visitor(static_cast<const FuseNode*>(rel.get()));
    case RelationKind::Rebase:
        return visitor(static_cast<const RebaseNode*>(rel.get()));
    case RelationKind::Singleton:
        return visitor(static_cast<const SingletonNode*>(rel.get()));
    }
    __builtin_unreachable(); // every kind returned above; a kind outside the enum is a bug
}

/// A visitor made of lambdas, one per relation kind:
/// `visitRelation(rel, Overloaded{[](const SplitNode* s) {...}, [](const FuseNode* f) {...},
/// ...})`.
template <typename... Fs> struct Overloaded : Fs... { using Fs::operator()...; };
template <typename... Fs> Overloaded(Fs...) -> Overloaded<Fs...>;

/// The IterVars a relation derives others from (split: parent; fuse: outer, inner; rebase:
/// parent; singleton: none) and the IterVars it derives (split: outer, inner; fuse: fused;
/// rebase: rebased; singleton: iter).
std::vector<IterVar> relationInputs(const IterVarRelation& rel);
std::vector<IterVar> relationOutputs(const IterVarRelation& rel);

/// `split`, `fuse`, `rebase`, `singleton`.
const char* relationKindName(RelationKind kind);

/// TVM-like text naming the IterVars by name: `split(parent=i, outer=i.outer,
/// inner=i.inner, factor=4)`, `fuse(outer=i, inner=j, fused=i.j.fused)`,
/// `rebase(parent=i, rebased=i)`, `singleton(iter=singleton)`.
std::string toString(const IterVarRelation& rel);

} // namespace bs
