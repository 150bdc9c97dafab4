/// \file
/// Statements of the IR, in TVM's classic (0.6) form: loop nests with `realize`/`produce`
/// before storage flattening, `allocate`/`store` after it.
#pragma once

#include "ir/Expr.h"

namespace bs {

class Stmt;

class StmtNode : public Node {
public:
    /// The bound-inference step that produced this statement's numbers (a loop's extent, a
    /// thread extent, a realize region, an allocate size, a guard): an id into the analysis'
    /// steps (schedule/BoundSteps.h), -1 for none. Like TVM's spans it is not part of the
    /// structure: equality, hashing and printing ignore it, and IRMutator carries it to the
    /// statement that replaces this one (carryStep).
    int32_t stepId() const { return m_stepId; }

protected:
    explicit StmtNode(NodeKind kind) : Node(kind) {}

private:
    friend Stmt withStep(Stmt s, int32_t step);
    mutable int32_t m_stepId = -1;
};

class Stmt : public NodeRef {
public:
    Stmt() = default;
    Stmt(const StmtNode* node) : NodeRef(node) {}
    const StmtNode* get() const { return static_cast<const StmtNode*>(NodeRef::get()); }
    const StmtNode* operator->() const { return get(); }
};

/// `s` marked as made by bound-inference step `step`. Only for a statement just built (one
/// owner): a node shared with another tree would carry the mark there too.
Stmt withStep(Stmt s, int32_t step);
/// `rebuilt`, which replaces `original` in a pass, with the original's step when it has none of
/// its own and is of the same kind and not shared (a node the pass just built).
Stmt carryStep(const Stmt& original, Stmt rebuilt);

/// `let var = value` over `body`.
struct LetStmtNode : StmtNode, KindTag<NodeKind::LetStmt> {
    Var var;
    Expr value;
    Stmt body;
    LetStmtNode(Var v, Expr val, Stmt b)
        : StmtNode(NodeKind::LetStmt), var(std::move(v)), value(std::move(val)),
          body(std::move(b)) {}
    static Stmt make(Var var, Expr value, Stmt body);
};

/// Well-known AttrStmt keys.
namespace attr {
inline constexpr const char* kThreadExtent = "thread_extent";
inline constexpr const char* kVirtualThread = "virtual_thread";
inline constexpr const char* kRealizeScope = "realize_scope";
inline constexpr const char* kStorageScope = "storage_scope";
inline constexpr const char* kLoopScope = "loop_scope";
/// Inside a loop with `prefetch`: the node is the prefetched tensor's operation, the value the
/// offset in iterations (InjectPrefetch turns it into `prefetch` calls).
inline constexpr const char* kPrefetchScope = "prefetch_scope";
/// Where a scan's init stages go (the node is the scan; ScheduleOps removes it).
inline constexpr const char* kScanInitScope = "scan_init_scope";
/// Where a scan's update stages go, inside its loop (the node is the scan; removed likewise).
inline constexpr const char* kScanUpdateScope = "scan_update_scope";
inline constexpr const char* kPragmaPrefix = "pragma_";
inline constexpr const char* kComputeScope = "compute_scope";
/// Over a `tvm_thread_allreduce`: the node is its CommReducer.
inline constexpr const char* kReduceScope = "reduce_scope";
/// Around an extern stage's body (TVM's extern_scope; value 0).
inline constexpr const char* kExternScope = "extern_scope";
/// Binds an extern stage's buffer to a tensor: the node is the buffer's data Var, the value
/// `tvm_tuple(T(0, ..., 0))` names the tensor; StorageFlatten puts the tensor's buffer in the
/// body instead of the Var and removes the attr.
inline constexpr const char* kBufferBindScope = "buffer_bind_scope";
/// A stage's double_buffer(): over its producer; the node is its op (ScheduleOps), then its
/// buffer's data Var (StorageFlatten); InjectDoubleBuffer removes it.
inline constexpr const char* kDoubleBufferScope = "double_buffer_scope";
/// Over the producer that fills the next iteration's half of a double buffer.
inline constexpr const char* kDoubleBufferWrite = "double_buffer_write";
/// A stage's storage_align: the node is its op, the value `tvm_tuple(dim, factor, offset)`.
inline constexpr const char* kBufferDimAlign = "buffer_dim_align";
} // namespace attr

/// `// attr [node] key = value` over `body`. `node` is an IterVar (thread_extent), an Operation
/// (realize_scope), a Var (a buffer's storage_scope) or a StringImm.
struct AttrStmtNode : StmtNode, KindTag<NodeKind::AttrStmt> {
    NodeRef node;
    std::string key;
    Expr value;
    Stmt body;
    AttrStmtNode(NodeRef n, std::string k, Expr v, Stmt b)
        : StmtNode(NodeKind::AttrStmt), node(std::move(n)), key(std::move(k)), value(std::move(v)),
          body(std::move(b)) {}
    static Stmt make(NodeRef node, std::string key, Expr value, Stmt body);
};

struct AssertStmtNode : StmtNode, KindTag<NodeKind::AssertStmt> {
    Expr condition;
    Expr message; ///< a StringImm
    Stmt body;
    AssertStmtNode(Expr c, Expr m, Stmt b)
        : StmtNode(NodeKind::AssertStmt), condition(std::move(c)), message(std::move(m)),
          body(std::move(b)) {}
    static Stmt make(Expr condition, Expr message, Stmt body);
};

enum class ForKind : uint8_t { Serial, Parallel, Vectorized, Unrolled, ThreadBinding };
/// `for`, `parallel`, `vectorized`, `unrolled`, `thread_binding` (the printer's keywords).
const char* forKindName(ForKind kind);

struct ForNode : StmtNode, KindTag<NodeKind::For> {
    Var loopVar;
    Expr min;
    Expr extent;
    ForKind kind;
    Stmt body;
    IterVar threadBinding; ///< only for ForKind::ThreadBinding
    ForNode(Var v, Expr mn, Expr ext, ForKind k, Stmt b, IterVar thread)
        : StmtNode(NodeKind::For), loopVar(std::move(v)), min(std::move(mn)),
          extent(std::move(ext)), kind(k), body(std::move(b)), threadBinding(std::move(thread)) {}
    static Stmt make(Var loopVar, Expr min, Expr extent, ForKind kind, Stmt body,
                     IterVar threadBinding = IterVar());
};

/// `realize T([min, extent], ...) { body }`: the region of a tensor that must exist in `body`.
struct ProducerRealizeNode : StmtNode, KindTag<NodeKind::ProducerRealize> {
    Tensor tensor;
    Region bounds;
    Expr condition;
    Stmt body;
    std::string storageScope;
    ProducerRealizeNode(Tensor t, Region r, Expr c, Stmt b, std::string scope)
        : StmtNode(NodeKind::ProducerRealize), tensor(std::move(t)), bounds(std::move(r)),
          condition(std::move(c)), body(std::move(b)), storageScope(std::move(scope)) {}
    static Stmt make(Tensor tensor, Region bounds, Expr condition, Stmt body,
                     std::string storageScope = "");
};

/// `T(i, j) =value`: a write of one tensor element, before storage flattening.
struct ProducerStoreNode : StmtNode, KindTag<NodeKind::ProducerStore> {
    Tensor tensor;
    Expr value;
    std::vector<Expr> indices;
    ProducerStoreNode(Tensor t, Expr v, std::vector<Expr> i)
        : StmtNode(NodeKind::ProducerStore), tensor(std::move(t)), value(std::move(v)),
          indices(std::move(i)) {}
    static Stmt make(Tensor tensor, Expr value, std::vector<Expr> indices);
};

/// `produce T { body }`.
struct ProducerConsumerNode : StmtNode, KindTag<NodeKind::ProducerConsumer> {
    Operation op;
    bool isProducer;
    Stmt body;
    ProducerConsumerNode(Operation o, bool p, Stmt b)
        : StmtNode(NodeKind::ProducerConsumer), op(std::move(o)), isProducer(p),
          body(std::move(b)) {}
    static Stmt make(Operation op, bool isProducer, Stmt body);
};

/// `allocate B[type * extent...]` over `body`.
struct AllocateNode : StmtNode, KindTag<NodeKind::Allocate> {
    Var bufferVar;
    DataType type;
    std::vector<Expr> extents;
    Expr condition;
    Stmt body;
    AllocateNode(Var v, DataType t, std::vector<Expr> e, Expr c, Stmt b)
        : StmtNode(NodeKind::Allocate), bufferVar(std::move(v)), type(t), extents(std::move(e)),
          condition(std::move(c)), body(std::move(b)) {}
    static Stmt make(Var bufferVar, DataType type, std::vector<Expr> extents, Expr condition,
                     Stmt body);
    /// The product of the extents when all are constants, else -1.
    int64_t constantSize() const;
};

/// `B[index] = value`: a write of a flat buffer.
struct StoreNode : StmtNode, KindTag<NodeKind::Store> {
    Var bufferVar;
    Expr value;
    Expr index;
    Expr predicate; ///< may be undefined
    StoreNode(Var b, Expr v, Expr i, Expr p)
        : StmtNode(NodeKind::Store), bufferVar(std::move(b)), value(std::move(v)),
          index(std::move(i)), predicate(std::move(p)) {}
    static Stmt make(Var bufferVar, Expr value, Expr index, Expr predicate = Expr());
};

struct SeqNode : StmtNode, KindTag<NodeKind::Seq> {
    std::vector<Stmt> seq;
    explicit SeqNode(std::vector<Stmt> s) : StmtNode(NodeKind::Seq), seq(std::move(s)) {}
    /// Flattens nested sequences and drops undefined parts; one part is returned as is.
    static Stmt make(std::vector<Stmt> seq);
};

struct IfThenElseNode : StmtNode, KindTag<NodeKind::IfThenElse> {
    Expr condition;
    Stmt thenCase;
    Stmt elseCase; ///< may be undefined
    IfThenElseNode(Expr c, Stmt t, Stmt e)
        : StmtNode(NodeKind::IfThenElse), condition(std::move(c)), thenCase(std::move(t)),
          elseCase(std::move(e)) {}
    static Stmt make(Expr condition, Stmt thenCase, Stmt elseCase = Stmt());
};

struct EvaluateNode : StmtNode, KindTag<NodeKind::Evaluate> {
    Expr value;
    explicit EvaluateNode(Expr v) : StmtNode(NodeKind::Evaluate), value(std::move(v)) {}
    static Stmt make(Expr value);
};

} // namespace bs
