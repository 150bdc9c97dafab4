/// \file
/// Private to engine/arith: the interval rule of each operator used by EvalSet (TVM's
/// `Combine<Op>` in int_set.cc). Each takes the sets of the two operands and the result type;
/// the Analyzer proves side conditions (sign of a divisor, equal floordiv quotients).
#pragma once

#include "arith/IntSet.h"
#include "ir/Node.h"

namespace bs {

class Analyzer;

IntSet combineAdd(Analyzer& analyzer, const IntSet& a, const IntSet& b, DataType type);
IntSet combineSub(Analyzer& analyzer, const IntSet& a, const IntSet& b, DataType type);
IntSet combineMul(Analyzer& analyzer, const IntSet& a, const IntSet& b, DataType type);
IntSet combineDiv(Analyzer& analyzer, const IntSet& a, const IntSet& b, DataType type);
IntSet combineMod(Analyzer& analyzer, const IntSet& a, const IntSet& b, DataType type);
IntSet combineFloorDiv(Analyzer& analyzer, const IntSet& a, const IntSet& b, DataType type);
IntSet combineFloorMod(Analyzer& analyzer, const IntSet& a, const IntSet& b, DataType type);
IntSet combineMin(Analyzer& analyzer, const IntSet& a, const IntSet& b, DataType type);
IntSet combineMax(Analyzer& analyzer, const IntSet& a, const IntSet& b, DataType type);
/// Comparisons and logic: the point `a op b` when both are points, else [0, 1].
IntSet combineLogical(NodeKind kind, const IntSet& a, const IntSet& b, DataType type);
/// The union of the two branches of a select (ends not simplified).
IntSet combineUnion(const IntSet& a, const IntSet& b);
IntSet combineCast(DataType type, const IntSet& value);
/// `base + stride * [0, lanes)` for a constant stride; everything otherwise.
IntSet combineRamp(Analyzer& analyzer, const IntSet& base, const Expr& stride, int lanes);

} // namespace bs
