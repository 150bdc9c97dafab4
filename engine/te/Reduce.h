/// \file
/// Reductions with TVM's `te` API: `reduce_axis`, the built-in `sum`, `max` and `min`, and
/// user-defined commutative reducers (`te.comm_reducer`), including tuple reducers such as an
/// argmax over (index, value) pairs.
///
/// As in TVM's Python, a reducer builds a fresh CommReducer per call, typed like its sources:
/// `sum(A(i, k), {k})` is `Reduce(combiner: x + y, identity 0, source A(i, k), axis k)`.
#pragma once

#include "ir/Expr.h"

#include <functional>

namespace bs {

/// `te.reduce_axis(dom, name="rv")`: an IterVar of kind CommReduce over `dom` (min, extent).
/// Throws UserError for an undefined or non-integer dom.
IterVar reduceAxis(const Range& dom, const std::string& name = "rv");

/// A commutative reducer: `combine(lhs, rhs)` with an identity per value (TVM's
/// `te.comm_reducer(fcombine, fidentity, name)`).
class Reducer {
public:
    /// One result per value from the accumulated values `lhs` and the new values `rhs`.
    using FCombine =
        std::function<std::vector<Expr>(const std::vector<Var>& lhs, const std::vector<Var>& rhs)>;
    /// One identity element per value, given the values' types.
    using FIdentity = std::function<std::vector<Expr>(const std::vector<DataType>& types)>;

    /// `lhsName`/`rhsName` name the combiner's variables (Python passes the lambda's
    /// parameter names); a tuple reducer suffixes them `_0`, `_1`, ... as TVM does.
    Reducer(FCombine combine, FIdentity identity, std::string name, std::string lhsName = "x",
            std::string rhsName = "y");

    /// Reduces one value over `axes` (CommReduce IterVars) where `where` holds (default true),
    /// starting from `init` when given (else from the identity).
    Expr operator()(const Expr& source, const std::vector<IterVar>& axes,
                    const Expr& where = Expr(), const Expr& init = Expr()) const;
    /// Reduces a tuple of values; returns one Reduce per value, all sharing one combiner,
    /// source list, axis list, condition and init (so they can be the outputs of one compute).
    /// `init` is empty or one value per source (see checkReduceInit).
    std::vector<Expr> operator()(const std::vector<Expr>& sources, const std::vector<IterVar>& axes,
                                 const Expr& where = Expr(),
                                 const std::vector<Expr>& init = {}) const;

    const std::string& name() const { return m_name; }

private:
    CommReducer makeCombiner(const std::vector<DataType>& types) const;
    void checkOperands(const std::vector<Expr>& sources, const std::vector<IterVar>& axes,
                       const Expr& where) const;

    FCombine m_combine;
    FIdentity m_identity;
    std::string m_name;
    std::string m_lhsName;
    std::string m_rhsName;
};

/// `te.comm_reducer(fcombine, fidentity, name="reduce")`.
Reducer commReducer(Reducer::FCombine combine, Reducer::FIdentity identity,
                    const std::string& name = "reduce", const std::string& lhsName = "x",
                    const std::string& rhsName = "y");

/// Checks a reduction's init values as TVM does: none, or one per source, each an integer or
/// float constant or a tensor read, of its source's type. `reducer` names the reducer in the
/// message. Throws UserError.
void checkReduceInit(const std::string& reducer, const std::vector<Expr>& sources,
                     const std::vector<Expr>& init);

/// `te.sum(source, axis, where, init)`: combiner `x + y`, identity 0.
Expr sum(const Expr& source, const std::vector<IterVar>& axes, const Expr& where = Expr(),
         const Expr& init = Expr());
Expr sum(const Expr& source, const IterVar& axis, const Expr& where = Expr());
/// `te.max(source, axis, where)`: combiner `max(x, y)`, identity the lowest value of the type
/// (`-3.402823e+38f` for float32, as TVM's min_value).
Expr max(const Expr& source, const std::vector<IterVar>& axes, const Expr& where = Expr(),
         const Expr& init = Expr());
Expr max(const Expr& source, const IterVar& axis, const Expr& where = Expr());
/// `te.min(source, axis, where)`: combiner `min(x, y)`, identity the highest value of the type.
Expr min(const Expr& source, const std::vector<IterVar>& axes, const Expr& where = Expr(),
         const Expr& init = Expr());
Expr min(const Expr& source, const IterVar& axis, const Expr& where = Expr());

/// The lowest and highest finite value of a numeric type (TVM's min_value / max_value).
Expr lowestValue(DataType type);
Expr highestValue(DataType type);

} // namespace bs
