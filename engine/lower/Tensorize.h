/// \file
/// TVM's tensorize (src/te/operation/tensorize.cc), private to ScheduleOps: the loops of a
/// compute stage from its tensorized leaf inwards become the statements of a tensor intrinsic.
/// The region those loops cover is inferred (InferTensorizeRegion), the computation under
/// them is matched against the intrinsic's (MatchTensorizeBody), and each of the intrinsic's
/// buffers is bound to the region of its tensor (buffer_bind_scope; StorageFlatten binds it).
#pragma once

#include "lower/ScheduleOps.h"
#include "te/Operation.h"

namespace bs {

/// The region a tensorized scope covers.
struct TensorizeRegion {
    size_t leaf = 0;              ///< the position of the tensorized leaf
    IterVarMap<Range> outDom;     ///< the range of every root IterVar under the scope
    std::vector<Tensor> inputs;   ///< the stage's inputs, in its order
    std::vector<Region> inRegion; ///< the region of each input the scope reads
};

/// The position of the stage's tensorized leaf, or -1.
int tensorizedLeaf(const Stage& stage);

/// TVM's InferTensorizeRegion: the leaves inside the scope over their ranges, the leaves
/// outside at their loop variables, passed up to the roots; the inputs' regions from the
/// body's reads. Throws UserError for a thread inside the scope or two tensorized leaves.
TensorizeRegion inferTensorizeRegion(const ComputeOpNode* op, const Stage& stage,
                                     const IterVarMap<Range>& bounds);

/// TVM's MatchTensorizeBody: the stage's body rewritten onto the intrinsic's axes and input
/// placeholders (each root axis i in [min, min + extent) becomes the intrinsic's axis j + min;
/// leading axes of extent 1 become their min). Fills `iterSpace` with the ranges of the
/// variables the result uses. Throws UserError when the shapes cannot match.
std::vector<Expr> matchTensorizeBody(const ComputeOpNode* op, const Stage& stage,
                                     const IterVarMap<Range>& bounds, const TensorizeRegion& region,
                                     const TensorIntrin& intrin, VarMap<Range>* iterSpace);

/// TVM's MakeTensorize: the loops outside the scope around the intrinsic's statements, its
/// buffers bound to the regions; a reduction split across calls gets `reduce_init` (or the
/// body on the first iteration) and `reduce_update`. Throws UserError, naming the stage and
/// the intrinsic, when the computation is not the intrinsic's or a bound check of a split
/// depends on a loop inside the scope.
Stmt makeTensorize(const ComputeOpNode* op, const Stage& stage, const IterVarMap<Range>& bounds,
                   const ScheduleOpsOptions& options);

/// TVM's TensorComputeOpNode::BuildProvide: the stage's loops around the intrinsic's
/// statements, its buffers bound to the regions the stage calls it on.
Stmt makeTensorComputeStmt(const TensorComputeOpNode* op, const Stage& stage,
                           const IterVarMap<Range>& bounds, const ScheduleOpsOptions& options);

} // namespace bs
