/// What tensor intrinsics need from Python (tvm/te/tensor_intrin.py, tvm/tir/buffer.py): the
/// buffer node a Python tvm.tir.Buffer stands for, TensorIntrin, and the two functions TVM's
/// tests reach through the global registry (`test.op.InferTensorizeRegion`,
/// `test.op.MatchTensorizeBody`). `Stage.tensorize` is bound with the other primitives.

#include "lower/Tensorize.h"
#include "script/bindings/Bindings.h"
#include "script/bindings/CallGuard.h"
#include "script/bindings/Casters.h"
#include "te/TensorIntrin.h"

#include <pybind11/stl.h>

namespace bs::script {

namespace {

py::object stmtOrNone(const Stmt& s) { return s.defined() ? wrapNode(s.get()) : py::none(); }

IterVarMap<Range> domMapOf(const py::dict& dom) {
    IterVarMap<Range> out;
    for (auto [key, value] : dom)
        out[IterVar(key.cast<IterVarNode*>())] = value.cast<Range>();
    return out;
}

const ComputeOpNode* computeOf(const Stage& stage) {
    const auto* op = stage->op.as<ComputeOpNode>();
    if (!op)
        throw UserError("stage '" + stage.name() + "' is not a compute stage");
    return op;
}

py::tuple inferRegion(const Stage& stage, const py::dict& dom) {
    TensorizeRegion region = inferTensorizeRegion(computeOf(stage), stage, domMapOf(dom));
    py::dict outDom, inRegion;
    for (const auto& [iv, range] : region.outDom)
        outDom[wrapNode(iv.get())] = py::cast(range);
    for (size_t i = 0; i < region.inputs.size(); ++i)
        inRegion[py::cast(region.inputs[i])] = py::cast(region.inRegion[i]);
    return py::make_tuple(outDom, inRegion);
}

std::vector<Expr> matchBody(const Stage& stage, const py::dict& outDom, const py::dict& inRegion,
                            const TensorIntrinNode& intrin) {
    const ComputeOpNode* op = computeOf(stage);
    TensorizeRegion region;
    region.outDom = domMapOf(outDom);
    region.inputs = op->inputTensors();
    for (const Tensor& t : region.inputs) {
        py::object key = py::cast(t);
        if (!inRegion.contains(key))
            throw UserError("MatchTensorizeBody: no region for input " + t.name());
        region.inRegion.push_back(inRegion[key].cast<Region>());
    }
    VarMap<Range> iterSpace;
    return matchTensorizeBody(op, stage, {}, region, TensorIntrin(&intrin), &iterSpace);
}

} // namespace

void bindTensorize(py::module_& m) {
    py::class_<BufferDeclNode, Node, IntrusivePtr<BufferDeclNode>>(m, "_BufferNode")
        .def_property_readonly("name", [](const BufferDeclNode& b) { return b.name; })
        .def_property_readonly("data", [](const BufferDeclNode& b) { return b.data; })
        .def_property_readonly("dtype", [](const BufferDeclNode& b) { return b.dtype.toString(); })
        .def_property_readonly("shape", [](const BufferDeclNode& b) { return b.shape; })
        .def_property_readonly("strides", [](const BufferDeclNode& b) { return b.strides; })
        .def_property_readonly("elem_offset", [](const BufferDeclNode& b) { return b.elemOffset; })
        .def_property_readonly("scope", [](const BufferDeclNode& b) { return b.scope; })
        .def_property_readonly("offset_factor",
                               [](const BufferDeclNode& b) { return b.offsetFactor; });
    m.def(
        "_make_buffer",
        [](std::string name, Var data, const std::string& dtype, const py::object& shape,
           const py::object& strides, const py::object& elemOffset, std::string scope,
           int offsetFactor) {
            BufferDecl b = BufferDecl::make(std::move(name), std::move(data), parseDType(dtype),
                                            convertExprList(shape, "a buffer shape"),
                                            convertExprList(strides, "buffer strides"),
                                            convertExpr(elemOffset, "an element offset"),
                                            std::move(scope), offsetFactor);
            return wrapNode(b.get());
        },
        py::arg("name"), py::arg("data"), py::arg("dtype"), py::arg("shape"), py::arg("strides"),
        py::arg("elem_offset"), py::arg("scope"), py::arg("offset_factor"), Located());
    py::class_<TensorIntrinNode, Node, IntrusivePtr<TensorIntrinNode>>(m, "TensorIntrin",
                                                                       py::dynamic_attr())
        .def_property_readonly("name", [](const TensorIntrinNode& n) { return n.name; })
        .def_property_readonly("op", [](const TensorIntrinNode& n) { return wrapNode(n.op.get()); })
        .def_property_readonly("inputs", [](const TensorIntrinNode& n) { return n.inputs; })
        .def_property_readonly("_buffer_nodes",
                               [](const TensorIntrinNode& n) {
                                   py::list out;
                                   for (const BufferDecl& b : n.buffers)
                                       out.append(wrapNode(b.get()));
                                   return out;
                               })
        .def_property_readonly("scalar_params",
                               [](const TensorIntrinNode& n) { return n.scalarParams; })
        .def_property_readonly("body", [](const TensorIntrinNode& n) { return stmtOrNone(n.body); })
        .def_property_readonly("reduce_init",
                               [](const TensorIntrinNode& n) { return stmtOrNone(n.reduceInit); })
        .def_property_readonly("reduce_update",
                               [](const TensorIntrinNode& n) { return stmtOrNone(n.reduceUpdate); })
        .def("__repr__", [](const TensorIntrinNode& n) { return "TensorIntrin(" + n.name + ")"; });
    m.def(
        "_tensor_intrin",
        [](std::string name, const py::object& op, const py::object& inputs,
           const std::vector<BufferDeclNode*>& buffers, std::vector<Var> scalarParams,
           const py::object& body, const py::object& reduceInit, const py::object& reduceUpdate) {
            std::vector<BufferDecl> bufs;
            for (BufferDeclNode* b : buffers)
                bufs.emplace_back(b);
            TensorIntrin intrin =
                TensorIntrin::make(std::move(name), Operation(op.cast<OperationNode*>()),
                                   tensorList(inputs, "tensor intrinsic inputs"), std::move(bufs),
                                   std::move(scalarParams), optionalStmt(body),
                                   optionalStmt(reduceInit), optionalStmt(reduceUpdate));
            return wrapNode(intrin.get());
        },
        py::arg("name"), py::arg("op"), py::arg("inputs"), py::arg("buffers"),
        py::arg("scalar_params"), py::arg("body"), py::arg("reduce_init"), py::arg("reduce_update"),
        Located());
    py::class_<TensorComputeOpNode, OperationNode, IntrusivePtr<TensorComputeOpNode>>(
        m, "TensorComputeOp")
        .def_property_readonly("axis", [](const TensorComputeOpNode& n) { return n.axis; })
        .def_property_readonly("reduce_axis",
                               [](const TensorComputeOpNode& n) { return n.reduceAxis; })
        .def_property_readonly("schedulable_ndim",
                               [](const TensorComputeOpNode& n) { return n.schedulableNdim; })
        .def_property_readonly(
            "intrin", [](const TensorComputeOpNode& n) { return wrapNode(n.intrin.get()); })
        .def_property_readonly("inputs", [](const TensorComputeOpNode& n) { return n.inputs; })
        .def_property_readonly("input_regions",
                               [](const TensorComputeOpNode& n) { return n.inputRegions; })
        .def_property_readonly("scalar_inputs",
                               [](const TensorComputeOpNode& n) { return n.scalarInputs; });
    m.def(
        "_tensor_compute_op",
        [](std::string name, std::string tag, std::vector<IterVar> axis,
           std::vector<IterVar> reduceAxis, int schedulableNdim, const TensorIntrinNode& intrin,
           const py::object& tensors, std::vector<Region> regions, const py::object& scalars) {
            Operation op = TensorComputeOpNode::make(
                std::move(name), std::move(tag), std::move(axis), std::move(reduceAxis),
                schedulableNdim, TensorIntrin(&intrin),
                tensorList(tensors, "tensor intrinsic call"), std::move(regions),
                convertExprList(scalars, "a scalar argument"));
            return wrapNode(op.get());
        },
        py::arg("name"), py::arg("tag"), py::arg("axis"), py::arg("reduce_axis"),
        py::arg("schedulable_ndim"), py::arg("intrin"), py::arg("tensors"), py::arg("regions"),
        py::arg("scalar_inputs"), Located());
    m.def("_infer_tensorize_region", &inferRegion, py::arg("stage"), py::arg("dom_map"), Located());
    m.def("_match_tensorize_body", &matchBody, py::arg("stage"), py::arg("out_dom"),
          py::arg("in_region"), py::arg("intrin"), Located());
}

} // namespace bs::script
