/// What extern stages need from Python (tvm/te/operation.py's `extern`, tvm/tir/ir_builder.py,
/// tvm/tir/op.py's `call_packed`, tvm/_ffi/registry.py): statement and expression constructors
/// for the ir_builder, the ExternOp itself, and the packed-function registry that generated
/// code calls (`tvm.register_func`, `tvm.get_global_func`).

#include "runtime/PackedFunctions.h"
#include "script/bindings/Bindings.h"
#include "script/bindings/CallGuard.h"
#include "script/bindings/Casters.h"
#include "te/Operation.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstring>

namespace bs::script {

namespace {

/// Functions registered from scripts: removed when the script's run ends (ScriptExecution).
constexpr int kScriptOwner = 1;

CallKind callKind(const std::string& kind) {
    if (kind == "intrinsic")
        return CallKind::Intrinsic;
    if (kind == "pure_extern")
        return CallKind::PureExtern;
    if (kind == "extern")
        return CallKind::Extern;
    throw UserError("unknown call kind '" + kind + "' (intrinsic, pure_extern or extern)");
}

/// The expression constructors the ir_builder and buffers use (statements are built with their
/// classes, BindIrStmt.cpp).
void bindConstructors(py::module_& m) {
    m.def(
        "_make_load",
        [](const std::string& dtype, Var var, const py::object& index,
           const py::object& predicate) {
            return LoadNode::make(parseDType(dtype), var, convertExpr(index),
                                  optionalExpr(predicate));
        },
        py::arg("dtype"), py::arg("buffer_var"), py::arg("index"),
        py::arg("predicate") = py::none(), Located());
    m.def(
        "_make_call",
        [](const std::string& dtype, const std::string& name, const py::list& args,
           const std::string& kind) {
            std::vector<Expr> exprs;
            for (py::handle arg : args) {
                if (py::isinstance<py::str>(arg))
                    exprs.push_back(StringImmNode::make(arg.cast<std::string>()));
                else
                    exprs.push_back(convertExpr(arg, "a call argument"));
            }
            return CallNode::make(parseDType(dtype), name, std::move(exprs), callKind(kind));
        },
        py::arg("dtype"), py::arg("name"), py::arg("args"), py::arg("kind"), Located());
}

/// A buffer as tvm.tir.Buffer's Python object carries it (boundscope/buffer.py).
ExternBuffer externBuffer(const py::handle& buffer) {
    ExternBuffer b;
    b.name = buffer.attr("name").cast<std::string>();
    b.data = buffer.attr("data").cast<Var>();
    b.dtype = parseDType(buffer.attr("dtype").cast<std::string>());
    b.shape = convertExprList(buffer.attr("shape"), "a buffer shape");
    b.strides = convertExprList(buffer.attr("strides"), "buffer strides");
    b.elemOffset = convertExpr(buffer.attr("elem_offset"), "an element offset");
    b.scope = buffer.attr("_scope").cast<std::string>();
    return b;
}

std::vector<ExternBuffer> externBuffers(const py::handle& buffers) {
    std::vector<ExternBuffer> out;
    for (py::handle b : buffers)
        out.push_back(externBuffer(b));
    return out;
}

/// A packed argument as a Python value: an int, a float, a str, an address (a handle), or a
/// numpy array over the buffer's memory (no copy).
py::object pythonArg(const PackedArg& arg) {
    switch (arg.code) {
    case PackedCode::Int:
        return py::int_(arg.value);
    case PackedCode::Float:
        return py::float_(arg.asDouble());
    case PackedCode::String:
        return py::str(arg.asString());
    case PackedCode::Handle:
        return py::int_(uint64_t(arg.value));
    case PackedCode::Array: {
        const PackedArray& a = arg.asArray();
        DataType type = a.dtype();
        std::string format = type.isBool() ? "bool" : type.toString();
        py::dtype dtype(format);
        std::vector<py::ssize_t> shape(a.shape, a.shape + a.ndim);
        std::vector<py::ssize_t> strides(size_t(a.ndim));
        py::ssize_t stride = py::ssize_t(type.bytes());
        for (int32_t d = a.ndim; d-- > 0;) {
            strides[size_t(d)] = a.strides ? py::ssize_t(a.strides[d] * type.bytes()) : stride;
            stride *= shape[size_t(d)];
        }
        py::capsule keep(a.elements(), [](void*) {}); // the kernel owns the memory
        return py::array(dtype, shape, strides, a.elements(), keep);
    }
    }
    return py::none();
}

/// A Python function as a packed function: called with the GIL, its exception a UserError.
PackedFunction fromPython(py::function fn, const std::string& name) {
    // The last copy may die on a thread without the GIL (a registry entry replaced while a
    // kernel calls it): the deleter takes it.
    std::shared_ptr<py::function> shared(new py::function(std::move(fn)), [](py::function* f) {
        py::gil_scoped_acquire gil;
        delete f;
    });
    return [shared, name](const std::vector<PackedArg>& args) {
        py::gil_scoped_acquire gil;
        try {
            py::tuple values(args.size());
            for (size_t i = 0; i < args.size(); ++i)
                values[i] = pythonArg(args[i]);
            (*shared)(*values);
        } catch (py::error_already_set& error) {
            throw UserError("packed function '" + name + "' raised " + error.what());
        }
    };
}

/// Calls a registered function from Python: numpy arrays become arrays over their memory.
void callFromPython(const std::string& name, const py::args& args) {
    std::vector<PackedArg> packed;
    std::vector<std::unique_ptr<PackedArray>> arrays;
    std::vector<std::vector<int64_t>> shapes;
    std::vector<std::string> strings;
    shapes.reserve(args.size());
    strings.reserve(args.size());
    for (py::handle arg : args) {
        if (py::isinstance<py::bool_>(arg) || py::isinstance<py::int_>(arg)) {
            packed.push_back({PackedCode::Int, arg.cast<int64_t>()});
        } else if (py::isinstance<py::float_>(arg)) {
            double d = arg.cast<double>();
            int64_t bits;
            std::memcpy(&bits, &d, sizeof bits);
            packed.push_back({PackedCode::Float, bits});
        } else if (py::isinstance<py::str>(arg)) {
            strings.push_back(arg.cast<std::string>());
            packed.push_back(
                {PackedCode::String, int64_t(reinterpret_cast<intptr_t>(strings.back().c_str()))});
        } else if (py::isinstance<py::array>(arg)) {
            auto array = py::reinterpret_borrow<py::array>(arg);
            if (!(array.flags() & py::array::c_style))
                throw UserError("packed function '" + name + "': arrays must be C-contiguous");
            shapes.emplace_back(array.shape(), array.shape() + array.ndim());
            auto a = std::make_unique<PackedArray>();
            a->data = array.mutable_data();
            a->shape = shapes.back().data();
            a->strides = nullptr;
            a->ndim = int32_t(array.ndim());
            DataType type = parseDType(py::str(array.dtype()).cast<std::string>());
            a->typeCode = uint8_t(type.code());
            a->typeBits = uint8_t(type.bits());
            a->typeLanes = 1;
            a->elemOffset = 0;
            packed.push_back({PackedCode::Array, int64_t(reinterpret_cast<intptr_t>(a.get()))});
            arrays.push_back(std::move(a));
        } else {
            throw UserError("packed function '" + name + "': cannot pass a '" +
                            std::string(py::str(arg.get_type().attr("__name__"))) + "'");
        }
    }
    py::gil_scoped_release release;
    callPacked(name, packed);
}

void bindPacked(py::module_& m) {
    m.def(
        "_register_packed",
        [](const std::string& name, py::function fn, bool override) {
            registerPacked(name, fromPython(std::move(fn), name), override, kScriptOwner);
        },
        py::arg("name"), py::arg("f"), py::arg("override") = false, Located());
    m.def("_has_packed", &hasPacked, py::arg("name"));
    m.def("_packed_names", &packedNames);
    m.def("_call_packed", &callFromPython, py::arg("name"), Located());
    m.def(
        "_extern_op",
        [](const std::string& name, const std::string& tag, const py::object& inputs,
           const py::object& inBuffers, const py::object& outBuffers, Stmt body) {
            Operation op =
                ExternOpNode::make(name, tag, tensorList(inputs, "extern inputs"),
                                   externBuffers(inBuffers), externBuffers(outBuffers), body);
            return wrapNode(op.get());
        },
        py::arg("name"), py::arg("tag"), py::arg("inputs"), py::arg("input_placeholders"),
        py::arg("output_placeholders"), py::arg("body"), Located());
}

} // namespace

void removeScriptPackedFunctions() { removePackedOwnedBy(kScriptOwner); }

namespace {

/// A buffer's fields for boundscope/buffer.py to rebuild its tvm.tir.Buffer.
py::tuple bufferFields(const ExternBuffer& b) {
    return py::make_tuple(b.name, b.data, b.dtype.toString(), b.shape, b.strides,
                          b.elemOffset.defined() ? py::cast(b.elemOffset) : py::object(py::int_(0)),
                          b.scope);
}

std::vector<py::tuple> buffersFields(const std::vector<ExternBuffer>& buffers) {
    std::vector<py::tuple> out;
    for (const ExternBuffer& b : buffers)
        out.push_back(bufferFields(b));
    return out;
}

} // namespace

void bindExtern(py::module_& m) {
    py::class_<ExternOpNode, OperationNode, IntrusivePtr<ExternOpNode>>(m, "ExternOp")
        .def_property_readonly("inputs", [](const ExternOpNode& n) { return n.inputs; })
        .def_property_readonly("body", [](const ExternOpNode& n) { return n.body; })
        .def_property_readonly(
            "_input_buffers",
            [](const ExternOpNode& n) { return buffersFields(n.inputPlaceholders); })
        .def_property_readonly("_output_buffers", [](const ExternOpNode& n) {
            return buffersFields(n.outputPlaceholders);
        });
    bindConstructors(m);
    bindPacked(m);
}

} // namespace bs::script
