/// \file
/// Building tensor expressions with TVM's `te` API and defaults: `placeholder`, `compute`
/// (single and multi-output), `var`, `size_var` and `thread_axis`. Reductions
/// (`reduce_axis`, `sum`, `max`, `min`, `comm_reducer`) are in te/Reduce.h.
///
/// Every builder checks its input and throws UserError with a message that names the tensor
/// and the rule broken; each operation and IterVar records `currentSourceLocation()`.
#pragma once

#include "te/Operation.h"

#include <functional>

namespace bs {

/// `te.placeholder(shape, dtype="float32", name="placeholder")`. Dimensions may be symbolic
/// integer expressions (`var`/`size_var`); constants must not be negative.
Tensor placeholder(const std::vector<Expr>& shape, DataType dtype = DataType::float32(),
                   const std::string& name = "placeholder");

/// Maps the axis variables of a compute to its body.
using FCompute = std::function<Expr(const std::vector<Var>& axes)>;
/// Maps the axis variables of a multi-output compute to one expression per output.
using FBatchCompute = std::function<std::vector<Expr>(const std::vector<Var>& axes)>;

/// The default name of axis `index` when none is given: `i`, `j`, `k`, then `i3`, `i4`, ...
/// (the Python front end passes the lambda's parameter names instead).
std::string defaultAxisName(size_t index);

/// `te.compute(shape, fcompute, name="compute", tag="")`: one data-parallel IterVar per
/// dimension, dom [0, shape_i), named by `axisNames` (empty: the defaults above). A Reduce at
/// the top of the body makes it a reduction whose axes become `reduce_axis`. Throws UserError
/// for a bad shape, a wrong number of axis names or an invalid body.
Tensor compute(const std::vector<Expr>& shape, const FCompute& fcompute,
               const std::string& name = "compute", const std::string& tag = "",
               const std::vector<std::string>& axisNames = {});

/// The multi-output form of `compute` (TVM's FBatchCompute): every output has the same shape;
/// either all outputs are reductions of one Reduce (e.g. an argmax over a tuple reducer) or none.
std::vector<Tensor> computeMulti(const std::vector<Expr>& shape, const FBatchCompute& fcompute,
                                 const std::string& name = "compute", const std::string& tag = "",
                                 const std::vector<std::string>& axisNames = {});

/// `te.var(name="tindex", dtype="int32")`: a free scalar variable.
Var var(const std::string& name = "tindex", DataType dtype = DataType::int32());
/// `te.size_var(name="size", dtype="int32")`: a variable known to be non-negative (shapes).
Var sizeVar(const std::string& name = "size", DataType dtype = DataType::int32());

/// `te.thread_axis("threadIdx.x")`: a thread IterVar (kind ThreadIndex) without a dom, whose
/// variable is named after the tag unless `name` is given. Throws UserError for an empty tag.
IterVar threadAxis(const std::string& tag, const std::string& name = "");
/// `te.thread_axis((0, 32), "threadIdx.x")`: the same with an explicit dom.
IterVar threadAxis(const Range& dom, const std::string& tag, const std::string& name = "");

} // namespace bs
