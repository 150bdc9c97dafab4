/// The IR's non-expression objects: `tvm.ir.Range`, `tvm.tir.IterVar` (an expression operand
/// like TVM's, through its variable) and `tvm.tir.CommReducer`.

#include "ir/Op.h"
#include "ir/Printer.h"
#include "script/bindings/Bindings.h"
#include "script/bindings/CallGuard.h"
#include "script/bindings/Casters.h"
#include "script/bindings/ExprOperators.h"

namespace bs::script {

namespace {

/// TVM's `Range(begin, end)`: `[begin, end)`, or `[0, begin)` when `end` is left out.
Range makeRange(const Expr& begin, const std::optional<Expr>& end) {
    if (!end)
        return Range(makeZero(begin.type()), begin);
    return Range(begin, isZero(begin) ? *end : *end - begin);
}

/// TVM's IterVar constructor: `dom` is a Range, a `(begin, end)` pair or None; `var` a Var, a
/// name or None (named `iter`).
IterVar makeIterVar(const py::object& dom, const py::object& var, int iterType,
                    std::string threadTag) {
    Range range;
    if (py::isinstance<py::tuple>(dom) || py::isinstance<py::list>(dom)) {
        auto pair = py::cast<py::sequence>(dom);
        if (py::len(pair) != 2)
            throw py::type_error("need to be list of ranges");
        range = makeRange(convertExpr(pair[0]), convertExpr(pair[1]));
    } else if (py::isinstance<Range>(dom)) {
        range = dom.cast<Range>();
    } else if (!dom.is_none()) {
        throw py::type_error("dom need to be Range");
    }
    if (iterType < int(IterVarType::DataPar) || iterType > int(IterVarType::Tensorized))
        throw UserError("iter_type must be an IterVar type between 0 and 8, got " +
                        std::to_string(iterType));
    Var v;
    if (py::isinstance<VarNode>(var)) {
        v = var.cast<Var>();
    } else {
        std::string name = var.is_none() ? "iter" : py::str(var).cast<std::string>();
        v = Var(name, range.defined() ? range.extent.type() : DataType::int32());
    }
    return IterVar(range, v, IterVarType(iterType), std::move(threadTag));
}

void bindRange(py::module_& m) {
    py::class_<Range>(m, "Range")
        .def(py::init([](Expr begin, std::optional<Expr> end) { return makeRange(begin, end); }),
             py::arg("begin"), py::arg("end") = py::none(), Located())
        .def_static(
            "from_min_extent", [](Expr min, Expr extent) { return Range(min, extent); },
            py::arg("min_value"), py::arg("extent"), Located())
        .def_property_readonly("min", [](const Range& r) { return r.min; })
        .def_property_readonly("extent", [](const Range& r) { return r.extent; })
        .def("__str__", [](const Range& r) { return toString(r); })
        .def("__repr__", [](const Range& r) { return toString(r); });
}

void bindIterVar(py::module_& m) {
    py::class_<IterVarNode, Node, IntrusivePtr<IterVarNode>> iterVar(m, "IterVar");
    iterVar
        .def(py::init([](py::object dom, py::object var, int iterType, std::string threadTag) {
                 IterVar iv = makeIterVar(dom, var, iterType, std::move(threadTag));
                 return IntrusivePtr<IterVarNode>(const_cast<IterVarNode*>(iv.get()));
             }),
             py::arg("dom"), py::arg("var"), py::arg("iter_type"), py::arg("thread_tag") = "",
             Located())
        .def_property_readonly("dom",
                               [](const IterVarNode& n) -> py::object {
                                   if (!n.dom.defined())
                                       return py::none();
                                   return py::cast(n.dom);
                               })
        .def_property_readonly("var", [](const IterVarNode& n) { return n.var; })
        .def_property_readonly("iter_type", [](const IterVarNode& n) { return int(n.iterType); })
        .def_property_readonly("thread_tag", [](const IterVarNode& n) { return n.threadTag; })
        // Boundscope's own: the script line that created the IterVar, as (file, line), or None.
        .def_property_readonly("source_location", [](const IterVarNode& n) -> py::object {
            if (!n.location.known())
                return py::none();
            return py::make_tuple(n.location.file, n.location.line);
        });
    const std::pair<const char*, IterVarType> kinds[] = {
        {"DataPar", IterVarType::DataPar},       {"ThreadIndex", IterVarType::ThreadIndex},
        {"CommReduce", IterVarType::CommReduce}, {"Ordered", IterVarType::Ordered},
        {"DimInfo", IterVarType::Opaque},        {"Unrolled", IterVarType::Unrolled},
        {"Vectorized", IterVarType::Vectorized}, {"Parallelized", IterVarType::Parallelized},
        {"Tensorized", IterVarType::Tensorized}};
    for (const auto& [name, type] : kinds)
        iterVar.attr(name) = int(type);
    addExprOperators(iterVar);
}

void bindCommReducer(py::module_& m) {
    py::class_<CommReducerNode, Node, IntrusivePtr<CommReducerNode>>(m, "CommReducer")
        .def(py::init([](std::vector<Var> lhs, std::vector<Var> rhs, std::vector<Expr> result,
                         std::vector<Expr> identity) {
                 if (lhs.size() != rhs.size() || lhs.size() != result.size() ||
                     lhs.size() != identity.size())
                     throw UserError("a reducer needs as many lhs, rhs, results and identity "
                                     "elements as it has values");
                 CommReducer r(std::move(lhs), std::move(rhs), std::move(result),
                               std::move(identity));
                 return IntrusivePtr<CommReducerNode>(const_cast<CommReducerNode*>(r.get()));
             }),
             py::arg("lhs"), py::arg("rhs"), py::arg("result"), py::arg("identity_element"),
             Located())
        .def_property_readonly("lhs", [](const CommReducerNode& n) { return n.lhs; })
        .def_property_readonly("rhs", [](const CommReducerNode& n) { return n.rhs; })
        .def_property_readonly("result", [](const CommReducerNode& n) { return n.result; })
        .def_property_readonly("identity_element",
                               [](const CommReducerNode& n) { return n.identityElement; });
}

} // namespace

void bindIrAxes(py::module_& m) {
    bindRange(m);
    bindIterVar(m);
    bindCommReducer(m);
}

} // namespace bs::script
