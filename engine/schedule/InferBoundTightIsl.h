/// \file
/// The ISL side of the tight rules (private to engine/schedule, built only with ISL): an owned
/// isl_ctx, the parameter space of one producer (the loops around its realize, and the free
/// symbolic variables such as `te.var` shapes), and conversions between our integer expressions
/// and ISL's quasi-affine ones (floordiv/floormod by constants, min and max) in both directions.
#pragma once

#ifdef BOUNDSCOPE_WITH_ISL

#include "ir/Expr.h"

#include <isl/cpp.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace bs::tight {

/// One isl_ctx, freed with the object. ISL errors make calls return null, which the C++
/// bindings turn into isl::exception; callers catch it and fall back to the interval result.
class IslContext {
public:
    IslContext();
    ~IslContext();
    IslContext(const IslContext&) = delete;
    IslContext& operator=(const IslContext&) = delete;
    isl::ctx ctx() const { return isl::ctx(m_ctx); }

private:
    isl_ctx* m_ctx;
};

/// Names a variable for ISL text; nullopt when it has no name here.
using IslNamer = std::function<std::optional<std::string>(const Var&)>;

/// The parameters of one producer's sets. Attach parameters are the loops (and the threads
/// they are bound to) around the producer's realize: bounds are maximised over them. Every
/// other parameter is free (a symbolic shape): results stay symbolic in it.
class ParamSpace {
public:
    /// The ISL name of `v` (`p0`, `p1`, ...), registering it as free the first time; for an
    /// alias, the ISL text of its value.
    std::string name(const Var& v);
    /// Makes `v` stand for `islValue` (ISL text over other parameters) instead of being a
    /// parameter of its own: a loop of one iteration is its min. A nest of attached stages has
    /// an attach path as deep as the nest, mostly such loops; without aliases every one would
    /// be a dimension of every set (shared/repro: 100 nested stages took 12 s under `tight`).
    void alias(const Var& v, std::string islValue);
    bool isAlias(const Var& v) const;
    /// Registers `v` as an attach parameter (the loops around the realize).
    void markAttach(const Var& v);
    /// Asked once for each variable before it is first named, so that it can make the
    /// variable an alias or an attach parameter (a producer's attach path, resolved as the
    /// model names its loops): a variable it leaves alone becomes a free parameter. Unset
    /// with an empty function.
    using Resolver = std::function<void(const Var&)>;
    void setResolver(Resolver resolver);
    /// Marks a free parameter as a positive size (it appears in a shape).
    void markSize(const Var& v);
    bool isAttach(const std::string& name) const;
    /// `[p0, p1] -> ` for ISL text (`[] -> ` when there are none).
    std::string header() const;
    /// The constraints every free size parameter satisfies (`p0 >= 1 and ...`), or "".
    std::string sizeConstraints() const;
    /// The variable named `name`, or nullopt.
    std::optional<Var> varOf(const std::string& name) const;
    std::vector<std::string> attachNames() const;
    IslNamer namer() {
        return [this](const Var& v) { return std::optional<std::string>(name(v)); };
    }
    /// Each parameter's name, role and the name of the variable it stands for (`p0=y:attach,
    /// ...`): with the sets' text, what makes two models count and print the same.
    std::string signature() const;

private:
    struct Entry {
        Var var;
        std::string name;
        bool attach = false;
        bool size = false;
    };
    Entry* find(const Var& v);
    std::vector<Entry> m_entries;
    VarMap<std::string> m_aliases;
    Resolver m_resolver;
    VarSet m_resolved; ///< the variables the resolver was asked about
};

/// `parts` with `sep` between them: the dimensions and constraints of an ISL set's text.
std::string join(const std::vector<std::string>& parts, const char* sep);

/// `e` in ISL's syntax (`floor((x)/4)`, `((x) mod 4)`, `min(a, b)`), or nullopt when it is not
/// quasi-affine: a product of two non-constants, a division by a non-constant or by a negative
/// number, a truncating division, a select, a load, a call, a float.
std::optional<std::string> islAffine(const Expr& e, const IslNamer& nameOf);

/// `e` as a piecewise quasi-affine function of the parameters of `space`, or nullopt.
std::optional<isl::pw_aff> toPwAff(isl::ctx ctx, const Expr& e, ParamSpace& space);

/// `pa` as an expression over the variables of `space`, through ISL's AST generator with
/// `context` (a parameter set) as what is known; nullopt for an empty or unbounded function or
/// an operation we do not represent. `singlePieceOnly` refuses functions of several pieces.
std::optional<Expr> toExpr(const isl::pw_aff& pa, const isl::set& context, const ParamSpace& space,
                           bool singlePieceOnly);

/// The maximum of `pa` over its attach parameters, as a function of the free ones.
isl::pw_aff maxOverAttach(const isl::pw_aff& pa, const ParamSpace& space);

/// True when `e` equals `target` wherever `target` is defined.
bool equalsOn(isl::ctx ctx, const Expr& e, const isl::pw_aff& target, ParamSpace& space);

} // namespace bs::tight

#endif // BOUNDSCOPE_WITH_ISL
