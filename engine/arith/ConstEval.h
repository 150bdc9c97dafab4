/// \file
/// Evaluates an integer or boolean expression for given values of its variables. The property
/// tests of the simplifier and of EvalSet use it to check that a rewrite keeps the value and that
/// an interval holds every value; other modules may use it the same way.
#pragma once

#include "ir/Expr.h"

#include <cstdint>
#include <optional>

namespace bs {

/// The value of `e`, or nullopt when it cannot be computed: a variable without a value, a
/// division or remainder by zero, a float, a call or a memory read. Arithmetic is done in
/// int64 and wrapped to the width of each node's type, as the hardware would; booleans are 0/1.
/// `/` and `%` truncate, floordiv/floormod round down (Python semantics).
std::optional<int64_t> evaluateInt(const Expr& e, const VarMap<int64_t>& values);

} // namespace bs
