/// \file
/// HoistIfThenElse (TVM's tir.transform.HoistIfThenElse, in its default lowering pipeline since
/// v0.9): an `if` whose condition does not change inside a loop moves outside that loop, so the
/// guard of an uneven split is tested once per row instead of once per element.
#pragma once

#include "ir/Stmt.h"

namespace bs {

/// Moves the condition of each `if` statement out of the loops it does not depend on, as TVM's
/// ExpressionHoister does with only `if` statements enabled:
/// - a condition goes just inside the innermost loop whose variable it uses (through let
///   bindings too), or around the outermost loop when it uses none;
/// - it never crosses a thread or virtual-thread binding (`thread_extent`, `virtual_thread`),
///   nor a loop whose body was found to hold a sequence, or an `if` with an else, before the
///   `if` was reached (TVM's collector stops only at sequences, which loses the else branch of
///   an enclosing `if` when the hoisted condition is false);
/// - a condition with side effects or memory reads, or that uses a let-bound variable, stays;
/// - `if (c) A` becomes `if (c) { loop with A }`; `if (c) A else B` becomes
///   `if (c) { loop with A } else { loop with B }`.
/// The moved `if` keeps the step of the guard it came from.
Stmt hoistIfThenElse(const Stmt& stmt);

} // namespace bs
