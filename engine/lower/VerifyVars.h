/// \file
/// The check TVM's MakeAPI makes at the end of `tvm.lower` ("Not all Vars are passed in
/// api_args"): every variable the lowered body uses is defined where it is used, by a loop, a
/// let, an argument (symbolic shapes), or, inside a GPU kernel, by a thread index the kernel
/// binds (as CUDA's builtins, a thread index is defined throughout its kernel).
///
/// Some legal-looking schedules leave a variable free: a thread index that InferBound keeps
/// symbolic in a stage's region (notes section 4: a bound thread is not relaxed for a storage
/// scope below its rank) reaches the bounds of a producer computed outside that kernel, e.g. a
/// local stage attached at threadIdx.y whose region uses threadIdx.x, read by a root stage.
#pragma once

#include "ir/Stmt.h"

#include <vector>

namespace bs {

/// Throws UserError naming the first variable used where nothing defines it and the statement
/// that uses it. `params` are the function's scalar parameters.
void verifyDefinedVars(const Stmt& body, const std::vector<Var>& params);

} // namespace bs
