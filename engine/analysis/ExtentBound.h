/// \file
/// What a symbolic extent depends on and the largest value it takes (issue 13, "free scalars"):
/// an extent that varies with an outer loop (`floordiv(floormod(o*48, 64) + 47, 64) + 1` rows of
/// a fused segment) is at most some constant; one that names a free scalar (`f`, a te.var split
/// factor) has no maximum, and says so.
#pragma once

#include "ir/Expr.h"

#include <optional>
#include <string>
#include <vector>

namespace bs {

struct ExtentBound {
    /// The largest value over every value of the loops it depends on; none when it depends on a
    /// free scalar or the bound is not a constant.
    std::optional<int64_t> maximum;
    std::vector<Var> loopVars; ///< loop and thread variables it depends on
    std::vector<Var> scalars;  ///< other free variables (shape sizes, te.var factors)

    /// True for a constant or a lone scalar (`n`, `f`): nothing more to say about it.
    bool isPlain = true;

    bool isConstant() const { return loopVars.empty() && scalars.empty(); }
};

/// The bound of `extent` over the ranges of the loops in `bounds` (an InferBound result).
ExtentBound boundOfExtent(const Expr& extent, const IterVarMap<Range>& bounds);

/// `at most 2; depends on i.j.fused.outer`, `depends on f`; empty for a plain extent (a
/// constant or a lone scalar).
std::string describe(const ExtentBound& bound);

} // namespace bs
