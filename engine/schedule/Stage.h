/// \file
/// A Stage: the schedule of one operation (TVM's StageNode), edited in place by the schedule
/// primitives `split`, `fuse`, `reorder`, `tile`, `compute_at`, `compute_root`,
/// `compute_inline`, `bind`, `set_scope`, `vectorize`, `unroll`, `parallel`, `pragma`, ..., with
/// TVM's names, defaults and semantics (TVM_INFERBOUND_NOTES.md section 0).
///
/// Every illegal use throws one UserError naming the primitive, the stage, the IterVar and the
/// rule broken, e.g. `split of 'i' in stage 'C': factor must be a positive integer, got 0`,
/// and leaves the stage unchanged (primitives check everything before they mutate).
#pragma once

#include "schedule/IterVarRelation.h"
#include "te/Operation.h"
#include "te/TensorIntrin.h"

#include <memory>
#include <utility>

namespace bs {

/// Where a stage is computed, with TVM's numbering.
enum class AttachType : uint8_t {
    GroupRoot = 1,      ///< at the root of its group (the default: its own loop nest)
    Inline = 2,         ///< compute_inline, not yet applied (normalize() applies it)
    InlinedAlready = 3, ///< inlined into its consumers by normalize()
    Scope = 4,          ///< compute_at: inside `attachIVar` of `attachStage`
    ScanUpdate = 5,     ///< the update of a scan (or its body group), computed in its loop
};
/// `kGroupRoot`, `kInline`, ... as TVM names them.
const char* attachTypeName(AttachType type);

/// Per-IterVar scheduling attributes (TVM's IterVarAttr).
struct IterVarAttr {
    /// The loop kind set by vectorize/unroll/parallel; DataPar means none.
    IterVarType iterType = IterVarType::DataPar;
    /// The thread IterVar this leaf is bound to (undefined when not bound).
    IterVar bindThread;
    /// `pragma(iv, key, value)` in call order; the value may be undefined.
    std::vector<std::pair<std::string, Expr>> pragmas;
    /// `storage_align(axis, factor, offset)` on a data axis of a compute stage: the stride of
    /// that dimension of its buffer is padded to `factor * k + offset` (0: no alignment).
    int dimAlignFactor = 0;
    int dimAlignOffset = 0;
    /// `tensorize(iv, intrin)`: the loops from this leaf inwards are the intrinsic's.
    TensorIntrin tensorIntrin;
    /// `prefetch(tensor, iv, offset)` in call order (TVM's prefetch_data and prefetch_offset).
    std::vector<std::pair<Tensor, Expr>> prefetches;
    /// The script line of the last primitive that changed this attribute.
    SourceLocation location;
};

struct StageNode;
struct ScheduleRecordLog;

/// Results of `tile`, in TVM's order (x outer, y outer, x inner, y inner).
struct TileResult {
    IterVar xOuter;
    IterVar yOuter;
    IterVar xInner;
    IterVar yInner;
};

/// A mutable, reference-counted handle to a StageNode. Copies share the stage: a primitive
/// called through any copy edits the one stage (as TVM's `s[C]`).
class Stage {
public:
    Stage() = default;
    /// A fresh stage for `op`: its root IterVars (axes, then reduce axes) are its leaves, except
    /// Opaque ones; attached at the root. Records `currentSourceLocation()`.
    explicit Stage(const Operation& op);

    bool defined() const { return m_ptr.get() != nullptr; }
    const StageNode* get() const { return m_ptr.get(); }
    const StageNode* operator->() const { return m_ptr.get(); }
    /// Write access for schedule rewrites (normalize, cache_read, ...); users call primitives.
    StageNode* mutableNode() const { return m_ptr.get(); }
    bool same_as(const Stage& other) const { return get() == other.get(); }

    /// The name of the operation the stage was created for (a rewritten op keeps the stage's
    /// name: after rfactor, stage `B` computes `B.repl`).
    const std::string& name() const;
    /// The position of `iv` among the leaves, or -1.
    int leafIndex(const IterVar& iv) const;
    bool isLeaf(const IterVar& iv) const { return leafIndex(iv) >= 0; }
    /// True when `iv` is one of the stage's IterVars (a root, a leaf or one in between).
    bool hasIterVar(const IterVar& iv) const;
    /// The attributes of `iv`, or nullptr.
    const IterVarAttr* attrOf(const IterVar& iv) const;

    /// `split(parent, factor)`: replaces the leaf `parent` by (`parent.outer`, `parent.inner`),
    /// inner extent `factor`; the new IterVars have no dom. Returns (outer, inner). With
    /// `disablePredication`, lowering adds no bound check for the split's extra iterations.
    std::pair<IterVar, IterVar> split(const IterVar& parent, const Expr& factor,
                                      bool disablePredication = false) const;
    /// `split(parent, nparts=n)`: the same with outer extent `nparts`.
    std::pair<IterVar, IterVar> splitByNParts(const IterVar& parent, const Expr& nparts,
                                              bool disablePredication = false) const;
    /// Fuses two adjacent leaves (either order) into `outer.inner.fused`, named in argument
    /// order, kind the larger of the two.
    IterVar fuse(const IterVar& outer, const IterVar& inner) const;
    /// Fuses a run of adjacent leaves left to right; with no IterVars, inserts a new outermost
    /// leaf `singleton` of extent 1 (a Singleton relation).
    IterVar fuse(const std::vector<IterVar>& axes) const;
    /// Puts the listed leaves, in the listed order, into the positions they occupy; other
    /// leaves stay where they are.
    void reorder(const std::vector<IterVar>& order) const;
    /// split(x, xFactor), split(y, yFactor), reorder(xo, yo, xi, yi).
    TileResult tile(const IterVar& x, const IterVar& y, const Expr& xFactor,
                    const Expr& yFactor) const;

    /// A group stage (TVM's `s.create_group`): no operation and no loops. Its members (the
    /// stages whose `group` it is) that are at the root of the group are computed wherever the
    /// group is: at the root, or inside the leaf a `compute_at` of the group names.
    static Stage makeGroup(std::string name);
    bool isGroup() const;
    /// Where the stage is really attached (TVM's GetAttachSpec): the stage itself, or, while it
    /// is at the root of its group, the group (and so on up the nested groups).
    Stage attachSpec() const;
    /// True when `group` is this stage's group or encloses it.
    bool isInGroup(const Stage& group) const;

    /// Computes this stage inside leaf `scope` of `parent`. `parent` need not read this stage
    /// (its consumers may be nested inside it; InferBound checks that later). A stage in a
    /// group may only be attached to a stage of the same group (or of a group inside it).
    void computeAt(const Stage& parent, const IterVar& scope) const;
    void computeRoot() const;
    /// Marks the stage to be inlined into its consumers by normalize().
    void computeInline() const;
    /// Folds this stage into its only producer in `schedule` (schedule/ReverseComputeInline.h).
    void reverseComputeInline(const class Schedule& schedule) const;
    /// Binds leaf `iv` to the thread axis `thread` (records `bindThread`; the kind stays).
    void bind(const IterVar& iv, const IterVar& thread) const;
    /// Sets the storage scope (`global`, `shared`, `local`, `warp`, ...).
    void setScope(const std::string& scope) const;
    void vectorize(const IterVar& iv) const;
    void unroll(const IterVar& iv) const;
    void parallel(const IterVar& iv) const;
    /// `pragma(iv, "unroll")` and `pragma(iv, "vectorize")` are unroll and vectorize, as in
    /// TVM; any other key is recorded with its value.
    void pragma(const IterVar& iv, const std::string& key, const Expr& value = Expr()) const;
    /// TVM's storage_align: pads the stride of the buffer dimension of data axis `axis` (a
    /// root axis of this compute stage, leaf or not) to a multiple of `factor` plus `offset`,
    /// e.g. to avoid shared-memory bank conflicts. StorageFlatten applies it.
    void storageAlign(const IterVar& axis, int factor, int offset) const;
    /// TVM's double_buffer: the stage's buffer gets two halves, so the producer fills the next
    /// iteration's half while the consumers read this one's (InjectDoubleBuffer). Refused for
    /// an output and a group.
    void doubleBuffer() const;
    /// TVM's tensorize: the loops of this compute stage from leaf `iv` inwards are replaced by
    /// `intrin`'s statements when lowered (lower/Tensorize.cpp checks that they compute what
    /// the intrinsic computes). Marks the leaf Tensorized.
    void tensorize(const IterVar& iv, const TensorIntrin& intrin) const;
    /// TVM's prefetch: each iteration of leaf `iv` first asks the CPU to fetch the part of
    /// `tensor` that iteration `iv + offset` reads (lower/InjectPrefetch.h). A hint: it changes
    /// no value. Refused for a tensor of a stage with several outputs.
    void prefetch(const Tensor& tensor, const IterVar& iv, const Expr& offset) const;
    /// Only the iterations where `predicate` holds store the stage's result (TVM's
    /// set_store_predicate; the tutorial's `tx.var.equal(0)` after a cross-thread reduction).
    void setStorePredicate(const Expr& predicate) const;

private:
    IntrusivePtr<StageNode> m_ptr;
};

struct StageHash {
    size_t operator()(const Stage& s) const { return std::hash<const StageNode*>()(s.get()); }
};
struct StageEqual {
    bool operator()(const Stage& a, const Stage& b) const { return a.same_as(b); }
};

/// The state of one stage. Fields are public for the analyses (InferBound, ScheduleOps, the
/// GUI); only the primitives and the schedule rewrites change them.
struct StageNode : RefCounted {
    Operation op;                           ///< the current operation (rewrites replace it)
    Operation originOp;                     ///< the operation the stage was created for
    std::vector<IterVar> allIterVars;       ///< roots first, then every IterVar created since
    std::vector<IterVar> leafIterVars;      ///< the loop nest, outermost first
    std::vector<IterVarRelation> relations; ///< in creation order
    IterVarMap<IterVarAttr> iterVarAttrs;
    AttachType attachType = AttachType::GroupRoot;
    IterVar attachIVar;        ///< compute_at: the leaf of attachStage
    Stage attachStage;         ///< compute_at: the stage computed around this one
    std::string scope;         ///< storage scope; empty means inferred
    Expr storePredicate;       ///< set_store_predicate; undefined when none
    bool doubleBuffer = false; ///< double_buffer()
    bool isOutput = false;
    Stage group;                   ///< the group the stage belongs to (undefined: none)
    int numChildStages = 0;        ///< a group: its direct members (stages and groups)
    std::string groupName;         ///< a group: its name (it has no operation to take one from)
    SourceLocation location;       ///< the script line that created the stage
    SourceLocation attachLocation; ///< the script line of the last compute_* call
    /// While the stage's schedule keeps a record of its primitives (schedule/Schedule.h,
    /// TVM's te.keep_schedule_record): where each primitive called on the stage is recorded.
    std::shared_ptr<ScheduleRecordLog> recordLog;
};

} // namespace bs
