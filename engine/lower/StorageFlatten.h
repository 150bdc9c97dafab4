/// \file
/// StorageFlatten (TVM 0.6's `storage_flatten.cc`): turns the multi-dimensional tensor IR that
/// ScheduleOps builds (`realize`, `T(i, j) = v`, reads `T(i, j)`) into flat buffers
/// (`allocate`, `T[flat] = v`, reads `T[flat]`), the form the code generators and the
/// interpreter execute. Index simplification is left to a separate Simplify pass.
#pragma once

#include "ir/Stmt.h"
#include "schedule/BoundSteps.h"
#include "schedule/Stage.h"

#include <utility>
#include <vector>

namespace bs {

/// What storageFlatten returns: the flat IR and the buffer variable of each tensor.
struct FlattenResult {
    Stmt body;
    /// One handle-typed buffer Var per argument tensor, in the order the arguments were given
    /// (the kernel's parameters, as in TVM's `tvm.lower(s, [A, C])`).
    std::vector<std::pair<Tensor, Var>> buffers;
    /// The buffer Var of each `allocate` made from a `realize`, in the order they appear (a
    /// tensor realized at two places has two entries).
    std::vector<std::pair<Tensor, Var>> allocations;

    /// The argument buffer of `tensor`; undefined when it is not an argument.
    Var bufferOf(const Tensor& tensor) const;
};

/// Flattens `stmt`:
/// - `// attr [compute(T)] realize_scope = "s"` is removed; its scope goes to T's realize.
/// - `realize T(region) { body }` becomes
///   `// attr [T] storage_scope = "<scope>"` over `allocate T[dtype * prod(extents)]`, with
///   one flat extent (the product of the region's extents). An empty scope is inferred as TVM
///   does: "global" outside thread scopes, "shared" directly under a blockIdx `thread_extent`,
///   "local" under a threadIdx or vthread one (seed 002, Ex. 8 prints `__shared__`).
///   A multi-output op's buffers are named `name.v0`, `name.v1`, ...
/// - `T(i, j) = v` and reads `T(i, j)` become `T[flat]`, flat being row-major over the realize
///   region with its mins subtracted: `(i - min0)*ext1 + (j - min1)` (TVM's buffer vstore/vload).
/// - A realize whose region uses the variable of a virtual thread running inside it (a "local"
///   stage computed outside its consumer's vthread loop, region `[vthread, 1]`) holds one region
///   per virtual thread: it gets one leading dimension per such thread, `[0, extent)` indexed
///   by the thread variable, so that the threads, which run one after the other, do not share
///   one copy (what TVM's InjectVirtualThread does for buffers allocated inside the thread).
/// - `// attr [op] buffer_dim_align = tvm_tuple(d, factor, offset)` (a stage's storage_align)
///   pads the stride of dimension d of the op's buffers (alignedStrides), which then index by
///   their strides, and is removed.
/// - Argument tensors (placeholders and outputs) are never allocated: a realize of one only
///   keeps its body, and accesses use the argument's buffer Var, row-major over its shape.
/// `produce` blocks are kept. Throws UserError when a tensor is accessed that is neither
/// realized around the access nor an argument.
/// With `steps`, each allocate is marked with an allocate step that explains its size from the
/// realize region.
FlattenResult storageFlatten(const Stmt& stmt, const std::vector<Tensor>& args = {},
                             BoundSteps* steps = nullptr);

/// `storage_align` of one buffer dimension (factor 0: none).
struct DimAlign {
    int factor = 0;
    int offset = 0;
};

/// The strides of a buffer with `extents` whose dimension d is aligned by `aligns[d]` (TVM's
/// StorageFlatten): from the innermost dimension out, a stride is padded up to
/// `factor * k + offset` where its dimension is aligned. `*elements` (when given) receives the
/// allocation's size, the outermost stride times the outermost extent. Empty `aligns`, or none
/// set, gives row-major strides.
std::vector<Expr> alignedStrides(const std::vector<Expr>& extents,
                                 const std::vector<DimAlign>& aligns, Expr* elements = nullptr);

/// The `storage_align` of each data axis of the stage's compute op (empty when none is set).
std::vector<DimAlign> storageAligns(const Stage& stage);

/// The name TVM gives a tensor's buffer: the op's name, plus `.v<i>` for a multi-output op.
std::string bufferName(const Tensor& tensor);

} // namespace bs
