/// \file
/// RemoveNoOp (TVM 0.6's `remove_no_op.cc`): drops statements that do nothing, so the printed
/// IR and the generated code carry no empty loops or blocks after unrolling, vectorization and
/// simplification.
#pragma once

#include "ir/Stmt.h"

namespace bs {

/// True for the statements TVM considers no-ops: an `Evaluate` of a constant, or a sequence of
/// no-ops (an undefined statement counts as one).
bool isNoOp(const Stmt& stmt);

/// True when evaluating `e` may have an effect besides its value: an extern call, or an
/// intrinsic other than the pure ones (`likely`, `if_then_else`, bit operations, ...), e.g. a
/// barrier such as `tvm_storage_sync`.
bool hasSideEffect(const Expr& e);

/// Removes no-ops bottom-up:
/// - loops with extent 0, and loops, lets, attrs, allocations, realizes and produce blocks
///   whose body is a no-op;
/// - no-op parts of sequences (a sequence left empty is a no-op);
/// - `Evaluate` of an expression without side effects (it becomes the no-op `Evaluate(0)`);
/// - ifs with no-op branches (an empty then-branch with an else negates the condition).
/// Where a removed statement's own expressions have side effects they are kept, evaluated.
/// A statement that is entirely a no-op comes back as `Evaluate(0)`.
Stmt removeNoOp(const Stmt& stmt);

} // namespace bs
