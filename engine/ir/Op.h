/// \file
/// Building expressions the way TVM's operators do: operand types are matched (an int constant
/// takes the other side's type, ints widen, int meets float as float) and constants are folded
/// (TVM's TryConstFold: `0 + x` is `x`, `x * 1` is `x`, `2 * 3` is `6`). ScheduleOps relies on
/// this folding to print `C(dj, dk)` rather than `C((0 + dj), (0 + dk))`.
///
/// `/` and `%` are C-style truncating division and remainder, as in TVM's C++; index arithmetic
/// uses `floordiv`/`floormod` (TVM's `indexdiv`/`indexmod`, Python's `//` and `%`).
#pragma once

#include "ir/Expr.h"

#include <optional>

namespace bs {

Expr makeConst(DataType type, int64_t value);
Expr makeConst(DataType type, double value);
Expr makeZero(DataType type);
Expr makeOne(DataType type);
Expr makeBool(bool value);

/// The value of an integer (or bool) constant, if `e` is one.
std::optional<int64_t> asConstInt(const Expr& e);
bool isConstInt(const Expr& e, int64_t value);
bool isZero(const Expr& e);
bool isOne(const Expr& e);
/// True for any IntImm or FloatImm.
bool isConst(const Expr& e);

/// A cast that folds constants and drops casts to the same type.
Expr cast(DataType type, Expr value);

Expr operator+(Expr a, Expr b);
Expr operator-(Expr a, Expr b);
Expr operator-(Expr a);
Expr operator*(Expr a, Expr b);
/// Truncating division (C semantics).
Expr operator/(Expr a, Expr b);
/// Truncating remainder (C semantics).
Expr operator%(Expr a, Expr b);
Expr truncdiv(Expr a, Expr b);
Expr truncmod(Expr a, Expr b);
Expr floordiv(Expr a, Expr b);
Expr floormod(Expr a, Expr b);
Expr min(Expr a, Expr b);
Expr max(Expr a, Expr b);

Expr operator<(Expr a, Expr b);
Expr operator<=(Expr a, Expr b);
Expr operator>(Expr a, Expr b);
Expr operator>=(Expr a, Expr b);
/// `a == b` as an expression (operator== on handles is not overloaded: identity is same_as).
Expr eq(Expr a, Expr b);
Expr ne(Expr a, Expr b);
Expr operator&&(Expr a, Expr b);
Expr operator||(Expr a, Expr b);
Expr operator!(Expr a);

Expr select(Expr condition, Expr trueValue, Expr falseValue);
/// `likely(cond)`: a branch hint TVM wraps bound checks in.
Expr likely(Expr condition);
/// `vscale()`: the number of 128-bit blocks in a scalable vector (TVM's `tir.vscale`, for
/// SVE-style targets), an int32 known only when the kernel runs. No target here compiles it.
Expr vscale();
/// A side-effect-free math call (`exp`, `log`, `sqrt`, `tanh`, `pow`, ...) typed like its first
/// argument.
Expr mathCall(const std::string& name, std::vector<Expr> args);

/// The one home of integer division on values (constant folding, ConstEval, the interpreter),
/// b != 0. C's truncating division and remainder, where INT64_MIN / -1 wraps to INT64_MIN with
/// remainder 0, as the hardware's other arithmetic wraps, instead of trapping (a SIGFPE that
/// would kill the process on a script's constants).
inline int64_t truncDivInt(int64_t a, int64_t b) {
    return b == -1 ? int64_t(uint64_t(0) - uint64_t(a)) : a / b;
}
inline int64_t truncModInt(int64_t a, int64_t b) { return b == -1 ? 0 : a % b; }
/// Floor division and modulo (TVM's floordiv/floormod, Python's // and %), b != 0.
inline int64_t floorDivInt(int64_t a, int64_t b) {
    const int64_t q = truncDivInt(a, b);
    return truncModInt(a, b) != 0 && ((a < 0) != (b < 0)) ? q - 1 : q;
}
inline int64_t floorModInt(int64_t a, int64_t b) {
    const int64_t r = truncModInt(a, b);
    return r != 0 && ((r < 0) != (b < 0)) ? r + b : r;
}
/// `v` wrapped to the width of integer type `t` (two's complement; bool: non-zero is 1), as the
/// hardware computes it: what constant folding and ConstEval use.
int64_t wrapToType(DataType t, int64_t v);

/// The smallest and largest value of an integer type.
Expr minValue(DataType type);
Expr maxValue(DataType type);

} // namespace bs
