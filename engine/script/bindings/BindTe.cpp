/// The tensor-expression layer with TVM's names: `tvm.te.Tensor` (`A[i, j]`, `A[i][j]` via the
/// Python package), `tvm.te.PlaceholderOp` / `ComputeOp` (`C.op.axis`, `C.op.reduce_axis`,
/// `C.op.body`), and the builders the Python package wraps with TVM's signatures
/// (`_placeholder`, `_compute`, `_reduce_axis`, `_thread_axis`, `_reduce`, `_make_reduce`).

#include "ir/Op.h"
#include "ir/Printer.h"
#include "script/bindings/Bindings.h"
#include "script/bindings/CallGuard.h"
#include "script/bindings/Casters.h"
#include "te/Compute.h"
#include "te/Reduce.h"
#include "te/Scan.h"

namespace bs::script {

namespace {

py::object tensorOrTuple(const std::vector<Tensor>& tensors) {
    if (tensors.size() == 1)
        return py::cast(tensors[0]);
    py::tuple out(tensors.size());
    for (size_t i = 0; i < tensors.size(); ++i)
        out[i] = py::cast(tensors[i]);
    return out;
}

void bindTensor(py::module_& m) {
    py::class_<Tensor>(m, "Tensor")
        .def_property_readonly("op", [](const Tensor& t) { return wrapNode(t.op.get()); })
        .def_property_readonly("value_index", [](const Tensor& t) { return t.valueIndex; })
        .def_property_readonly("shape", [](const Tensor& t) { return t.shape(); })
        .def_property_readonly("dtype", [](const Tensor& t) { return t.dtype().toString(); })
        .def_property_readonly("name", [](const Tensor& t) { return t.name(); })
        .def_property_readonly("ndim", [](const Tensor& t) { return t.ndim(); })
        .def(
            "_load",
            [](const Tensor& t, const std::vector<Expr>& indices) {
                // TVM's Tensor.__call__ raises ValueError for a wrong number of indices.
                if (indices.size() != t.ndim())
                    throw py::value_error("tensor '" + t.name() + "' has " +
                                          std::to_string(t.ndim()) + " dimensions, indexed with " +
                                          std::to_string(indices.size()));
                return t(indices);
            },
            py::arg("indices"), Located())
        .def("same_as", [](const Tensor& a, const Tensor& b) { return a.same_as(b); })
        .def("__eq__",
             [](const Tensor& a, py::object b) {
                 return py::isinstance<Tensor>(b) && a.same_as(b.cast<Tensor>());
             })
        .def("__ne__",
             [](const Tensor& a, py::object b) {
                 return !(py::isinstance<Tensor>(b) && a.same_as(b.cast<Tensor>()));
             })
        .def("__hash__", [](const Tensor& t) { return TensorHash()(t); })
        .def("__repr__", [](const Tensor& t) {
            std::string shape;
            for (const Expr& e : t.shape())
                shape += (shape.empty() ? "" : ", ") + toString(e);
            return "Tensor(shape=[" + shape + "], op.name=" + t.name() + ")";
        });
}

void bindOperations(py::module_& m) {
    py::class_<OperationNode, Node, IntrusivePtr<OperationNode>>(m, "Operation")
        .def_property_readonly("name", [](const OperationNode& n) { return n.name; })
        .def_property_readonly("tag", [](const OperationNode& n) { return n.tag; })
        .def_property_readonly("num_outputs", [](const OperationNode& n) { return n.numOutputs(); })
        .def_property_readonly("input_tensors",
                               [](const OperationNode& n) { return n.inputTensors(); })
        .def("output",
             [](const OperationNode& n, int i) {
                 if (i < 0 || i >= n.numOutputs())
                     throw UserError("operation '" + n.name + "' has no output " +
                                     std::to_string(i));
                 return Operation(&n).output(i);
             })
        .def_property_readonly("source_location", [](const OperationNode& n) -> py::object {
            if (!n.location.known())
                return py::none();
            return py::make_tuple(n.location.file, n.location.line);
        });
    py::class_<PlaceholderOpNode, OperationNode, IntrusivePtr<PlaceholderOpNode>>(m,
                                                                                  "PlaceholderOp")
        .def_property_readonly("shape", [](const PlaceholderOpNode& n) { return n.shape; })
        .def_property_readonly("dtype",
                               [](const PlaceholderOpNode& n) { return n.dtype.toString(); });
    py::class_<ComputeOpNode, OperationNode, IntrusivePtr<ComputeOpNode>>(m, "ComputeOp")
        .def_property_readonly("axis", [](const ComputeOpNode& n) { return n.axis; })
        .def_property_readonly("reduce_axis", [](const ComputeOpNode& n) { return n.reduceAxis; })
        .def_property_readonly("body", [](const ComputeOpNode& n) { return n.body; });
    py::class_<ScanOpNode, OperationNode, IntrusivePtr<ScanOpNode>>(m, "ScanOp")
        .def_property_readonly("scan_axis", [](const ScanOpNode& n) { return n.scanAxis; })
        .def_property_readonly("spatial_axis_", [](const ScanOpNode& n) { return n.spatialAxis; })
        .def_property_readonly("init", [](const ScanOpNode& n) { return n.init; })
        .def_property_readonly("update", [](const ScanOpNode& n) { return n.update; })
        .def_property_readonly("state_placeholder",
                               [](const ScanOpNode& n) { return n.statePlaceholder; })
        .def_property_readonly("inputs", [](const ScanOpNode& n) { return n.inputs; });
}

Tensor makePlaceholder(const py::object& shape, const std::string& dtype, const std::string& name) {
    return placeholder(convertExprList(shape, "a shape"), parseDType(dtype), name);
}

/// `te.compute`: `fcompute` gets one Var per axis (named `axisNames`) and returns one expression
/// or a list of them (several outputs).
py::object makeCompute(const py::object& shape, const py::function& fcompute,
                       const std::string& name, const std::string& tag,
                       const std::vector<std::string>& axisNames) {
    FBatchCompute batch = [&fcompute](const std::vector<Var>& axes) {
        py::tuple args(axes.size());
        for (size_t i = 0; i < axes.size(); ++i)
            args[i] = py::cast(axes[i]);
        py::object result = fcompute(*args);
        return convertExprList(result, "the result of fcompute");
    };
    return tensorOrTuple(
        computeMulti(convertExprList(shape, "a shape"), batch, name, tag, axisNames));
}

Range makeDom(const py::object& dom) {
    if (py::isinstance<Range>(dom))
        return dom.cast<Range>();
    if (py::isinstance<py::tuple>(dom) || py::isinstance<py::list>(dom)) {
        auto pair = py::cast<py::sequence>(dom);
        if (py::len(pair) != 2)
            throw UserError("a domain is a Range or a (begin, end) pair");
        Expr begin = convertExpr(pair[0]);
        Expr end = convertExpr(pair[1]);
        return Range(begin, end - begin);
    }
    throw UserError("a domain is a Range or a (begin, end) pair");
}

std::vector<IterVar> axisList(const py::object& axis) {
    if (py::isinstance<IterVarNode>(axis))
        return {axis.cast<IterVar>()};
    std::vector<IterVar> out;
    for (py::handle item : axis) {
        if (!py::isinstance<IterVarNode>(item))
            throw UserError("reduction axes must be IterVars made by te.reduce_axis");
        out.push_back(item.cast<IterVar>());
    }
    return out;
}

Expr makeReduce(const std::string& kind, const Expr& source, const py::object& axis,
                const std::optional<Expr>& where, const std::optional<Expr>& init) {
    std::vector<IterVar> axes = axisList(axis);
    Expr cond = where ? *where : Expr();
    Expr start = init ? *init : Expr();
    if (kind == "sum")
        return sum(source, axes, cond, start);
    if (kind == "max")
        return max(source, axes, cond, start);
    if (kind == "min")
        return min(source, axes, cond, start);
    throw UserError("unknown reduction '" + kind + "'");
}

} // namespace

void bindTe(py::module_& m) {
    bindTensor(m);
    bindOperations(m);
    m.def("_placeholder", &makePlaceholder, py::arg("shape"), py::arg("dtype") = "float32",
          py::arg("name") = "placeholder", Located());
    m.def("_compute", &makeCompute, py::arg("shape"), py::arg("fcompute"), py::arg("name"),
          py::arg("tag"), py::arg("axis_names"), Located());
    m.def(
        "_scan",
        [](const py::object& init, const py::object& update, const py::object& state,
           const py::object& inputs, const std::string& name, const std::string& tag) {
            return scan(tensorList(init, "scan inits"), tensorList(update, "scan updates"),
                        tensorList(state, "scan state placeholders"),
                        tensorList(inputs, "scan inputs"), name, tag);
        },
        py::arg("init"), py::arg("update"), py::arg("state_placeholder"),
        py::arg("inputs") = py::none(), py::arg("name") = "scan", py::arg("tag") = "", Located());
    m.def(
        "_reduce_axis",
        [](const py::object& dom, const std::string& name) {
            return reduceAxis(makeDom(dom), name);
        },
        py::arg("dom"), py::arg("name") = "rv", Located());
    m.def(
        "_thread_axis",
        [](const py::object& dom, const std::string& tag, const std::string& name) {
            if (dom.is_none())
                return threadAxis(tag, name);
            return threadAxis(makeDom(dom), tag, name);
        },
        py::arg("dom"), py::arg("tag"), py::arg("name") = "", Located());
    m.def("_reduce", &makeReduce, py::arg("kind"), py::arg("source"), py::arg("axis"),
          py::arg("where") = py::none(), py::arg("init") = py::none(), Located());
    m.def(
        "_make_reduce",
        [](const CommReducer& combiner, const std::vector<Expr>& sources, const py::object& axis,
           const std::optional<Expr>& where, const std::vector<Expr>& init,
           const std::string& name) {
            std::vector<IterVar> axes = axisList(axis);
            Expr cond = where ? *where : Expr();
            checkReduceInit(name, sources, init);
            std::vector<Expr> out;
            for (size_t i = 0; i < sources.size(); ++i)
                out.push_back(ReduceNode::make(combiner, sources, axes, cond, int(i), init));
            return out;
        },
        py::arg("combiner"), py::arg("sources"), py::arg("axis"), py::arg("where") = py::none(),
        py::arg("init") = std::vector<Expr>{}, py::arg("name") = "reduce", Located());
}

} // namespace bs::script
