/// \file
/// The check every load and store makes of its index: an integer. A float index
/// (`A[i + 0.5]`) would otherwise be accepted and fail only when code is generated.
#pragma once

#include "ir/Expr.h"

#include <string>

namespace bs {

/// Throws UserError unless `index` is an integer (of any width or lanes); `what` names what is
/// indexed (`tensor 'A'`).
void requireIntegerIndex(const Expr& index, const std::string& what);

} // namespace bs
