/// The arithmetic layer with TVM's names (tvm/arith/analyzer.py): `tvm.arith.Analyzer` with
/// `simplify`, `rewrite_simplify`, `canonical_simplify`, `const_int_bound`, `modular_set`,
/// `can_prove`, `bind`/`update` and constraint scopes, the `ConstIntBound` and `ModularSet`
/// results, and `tvm.tir.stmt_functor.substitute` (of an expression or a statement). TVM's own
/// schedule tests compare bounds with `tvm.testing.assert_prim_expr_equal`, which simplifies
/// `lhs - rhs` with this Analyzer.

#include "arith/Analyzer.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "ir/Substitute.h"
#include "script/bindings/Bindings.h"
#include "script/bindings/CallGuard.h"
#include "script/bindings/Casters.h"

#include <memory>
#include <unordered_set>
#include <vector>

namespace bs::script {

namespace {

/// An Analyzer and the constraint scopes entered on it (`with analyzer.constraint_scope(c):`),
/// which must be left in reverse order: the Python context manager guarantees that.
struct PyAnalyzer {
    Analyzer analyzer;
    std::vector<std::unique_ptr<Analyzer::ConstraintScope>> scopes;
    /// Variables bound so far: the engine treats binding one again differently (without
    /// override) as a bug of its own and stops, so a script's second bind is refused here.
    std::unordered_set<const VarNode*> boundVars;

    ~PyAnalyzer() {
        while (!scopes.empty())
            scopes.pop_back();
    }
};

Var keyVar(py::handle key) {
    if (py::isinstance<IterVarNode>(key))
        return key.cast<IterVar>()->var;
    if (py::isinstance<VarNode>(key))
        return key.cast<Var>();
    throw py::type_error("substitute: a key must be a Var or an IterVar, got '" +
                         std::string(py::str(key.get_type().attr("__name__"))) + "'");
}

/// `{var or IterVar: value}` of `substitute` as the engine's map.
VarMap<Expr> substitutionMap(const py::dict& vmap) {
    VarMap<Expr> map;
    for (auto [key, value] : vmap)
        map[keyVar(key)] = convertExpr(value, "a substituted value");
    return map;
}

/// TVM's `Analyzer.bind(var, expr_or_range)` and `update(var, info, override)`. A finite
/// ConstIntBound [lo, hi] is bound as the range [lo, hi + 1): the analyses learn the same facts.
void bindInfo(PyAnalyzer& a, const py::handle& var, const py::handle& info, bool allowOverride) {
    Var v = keyVar(var);
    if (!allowOverride && a.boundVars.count(v.get()))
        throw UserError("variable '" + v.name() +
                        "' is already bound in this Analyzer; use "
                        "update(var, info, override=True) to change it");
    if (py::isinstance<ConstIntBound>(info)) {
        auto bound = info.cast<ConstIntBound>();
        if (bound.minValue == ConstIntBound::kNegInf || bound.maxValue == ConstIntBound::kPosInf ||
            bound.minValue > bound.maxValue)
            throw UserError("update of '" + v.name() +
                            "': only a finite, non-empty "
                            "ConstIntBound is supported");
        Expr lo = makeConst(v.type(), bound.minValue);
        a.analyzer.bind(v, Range(lo, makeConst(v.type(), bound.maxValue - bound.minValue + 1)),
                        allowOverride);
    } else if (py::isinstance<Range>(info))
        a.analyzer.bind(v, info.cast<Range>(), allowOverride);
    else
        a.analyzer.bind(v, convertExpr(info, "a value or a Range"), allowOverride);
    a.boundVars.insert(v.get());
}

void bindResults(py::module_& m) {
    py::class_<ConstIntBound> bound(m, "ConstIntBound");
    bound.def(py::init<int64_t, int64_t>(), py::arg("min_value"), py::arg("max_value"))
        .def_readonly("min_value", &ConstIntBound::minValue)
        .def_readonly("max_value", &ConstIntBound::maxValue)
        .def("__repr__", [](const ConstIntBound& b) {
            return "ConstIntBound[" + std::to_string(b.minValue) + ", " +
                   std::to_string(b.maxValue) + "]";
        });
    bound.attr("POS_INF") = ConstIntBound::kPosInf;
    bound.attr("NEG_INF") = ConstIntBound::kNegInf;

    py::class_<ModularSet>(m, "ModularSet")
        .def_readonly("coeff", &ModularSet::coeff)
        .def_readonly("base", &ModularSet::base)
        .def("__repr__", [](const ModularSet& s) { return s.toString(); });
}

void bindAnalyzer(py::module_& m) {
    py::class_<PyAnalyzer>(m, "Analyzer")
        .def(py::init<>())
        .def(
            "simplify", [](PyAnalyzer& a, const Expr& e, int) { return a.analyzer.simplify(e); },
            py::arg("expr"), py::arg("steps") = 2, Located())
        .def(
            "rewrite_simplify",
            [](PyAnalyzer& a, const Expr& e) { return a.analyzer.rewriteSimplify(e); },
            py::arg("expr"), Located())
        .def(
            "canonical_simplify",
            [](PyAnalyzer& a, const Expr& e) { return a.analyzer.canonicalSimplify(e); },
            py::arg("expr"), Located())
        .def(
            "const_int_bound",
            [](PyAnalyzer& a, const Expr& e) { return a.analyzer.constIntBound(e); },
            py::arg("expr"), Located())
        .def(
            "modular_set", [](PyAnalyzer& a, const Expr& e) { return a.analyzer.modularSet(e); },
            py::arg("expr"), Located())
        .def(
            "can_prove", [](PyAnalyzer& a, const Expr& e) { return a.analyzer.canProve(e); },
            py::arg("expr"), Located())
        .def(
            "can_prove_equal",
            [](PyAnalyzer& a, const Expr& x, const Expr& y) {
                return a.analyzer.canProveEqual(x, y);
            },
            py::arg("lhs"), py::arg("rhs"), Located())
        .def(
            "bind",
            [](PyAnalyzer& a, py::handle var, py::handle info) { bindInfo(a, var, info, false); },
            py::arg("var"), py::arg("expr"), Located())
        .def(
            "update",
            [](PyAnalyzer& a, py::handle var, py::handle info, bool allowOverride) {
                bindInfo(a, var, info, allowOverride);
            },
            py::arg("var"), py::arg("info"), py::arg("override") = false, Located())
        .def(
            "_enter_constraint",
            [](PyAnalyzer& a, const Expr& c) {
                if (!c.type().isBool())
                    throw UserError("a constraint must be a boolean expression, got " +
                                    c.type().toString() + " '" + toString(c) + "'");
                a.scopes.push_back(std::make_unique<Analyzer::ConstraintScope>(a.analyzer, c));
            },
            py::arg("constraint"), Located())
        .def("_exit_constraint", [](PyAnalyzer& a) {
            if (!a.scopes.empty())
                a.scopes.pop_back();
        });
}

} // namespace

void bindArith(py::module_& m) {
    bindResults(m);
    bindAnalyzer(m);
    m.def(
        "_substitute",
        [](const Expr& e, const py::dict& vmap) { return substitute(e, substitutionMap(vmap)); },
        py::arg("expr"), py::arg("vmap"), Located());
    m.def(
        "_substitute",
        [](const Stmt& s, const py::dict& vmap) { return substitute(s, substitutionMap(vmap)); },
        py::arg("stmt"), py::arg("vmap"), Located());
}

} // namespace bs::script
