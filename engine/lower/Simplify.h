/// \file
/// The simplification pass: every expression of a statement simplified with the ranges of the
/// loops, lets and thread extents around it known to the analyzer (TVM's tir.Simplify).
#pragma once

#include "ir/Stmt.h"

namespace bs {

Stmt simplifyStmt(const Stmt& s);

} // namespace bs
