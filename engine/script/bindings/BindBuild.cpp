/// \file
/// `tvm.build` on the CPU (issue 6, item 2): `_build(schedule, args, name, rules)` lowers the
/// schedule, compiles the lowered function with the LLVM backend (codegen/llvm, ORC JIT) and
/// returns a `_BuiltFunction`, which the Python package (tvm/driver.py) wraps as TVM's module:
/// `f(a, b, c)` on `tvm.nd.array`s or numpy arrays, `f.time_evaluator(...)`.
///
/// Arguments are checked before the kernel runs, each failure a TVMError naming the argument:
/// their number, each array's element type, rank and extents (symbolic extents such as
/// `te.var("n")` are bound from the first array that has them and must agree in the others, as
/// TVM's ArgBinder does), C-contiguity, writability of outputs, and that an output shares no
/// memory with another argument (the generated code assumes `noalias` buffers). Arrays reach
/// C++ through Python's buffer protocol, so no numpy header is needed here. The kernel runs
/// with the GIL released.
///
/// Built without LLVM, `_build` raises a TVMError saying so.

#include "analysis/Program.h"
#include "arith/ConstEval.h"
#include "ir/Printer.h"
#include "lower/Lower.h"
#include "script/bindings/Bindings.h"
#include "script/bindings/CallGuard.h"
#include "script/bindings/Casters.h"
#include "te/Operation.h"

#ifdef BOUNDSCOPE_WITH_LLVM
#include "codegen/llvm/LlvmJit.h"
#endif

#include <algorithm>
#include <chrono>
#include <limits>
#include <memory>

namespace bs::script {

namespace {

#ifdef BOUNDSCOPE_WITH_LLVM

/// One parameter of a built function: an array (a tensor argument) or a scalar (a Var given in
/// `args`).
struct Param {
    Tensor tensor;
    Var scalar;
    bool isOutput = false; ///< a computed tensor: the kernel writes it
    std::string name() const { return tensor.defined() ? tensor.name() : scalar.name(); }
};

/// The element type of a buffer-protocol format (`f`, `<d`, `?`, ...) with `itemsize` bytes;
/// nullopt for formats no kernel element type has.
std::optional<DataType> dtypeOfFormat(std::string format, py::ssize_t itemsize) {
    if (!format.empty() && std::string("@=<>!").find(format[0]) != std::string::npos)
        format.erase(0, 1);
    if (format.size() != 1)
        return std::nullopt;
    int bits = int(itemsize) * 8;
    char c = format[0];
    if (c == '?')
        return DataType::boolean();
    if (c == 'e' || c == 'f' || c == 'd')
        return DataType(DataType::Code::Float, bits);
    if (std::string("bhilq").find(c) != std::string::npos)
        return DataType(DataType::Code::Int, bits);
    if (std::string("BHILQ").find(c) != std::string::npos)
        return DataType(DataType::Code::UInt, bits);
    return std::nullopt;
}

std::string shapeText(const std::vector<py::ssize_t>& shape) {
    std::string text = "(";
    for (size_t i = 0; i < shape.size(); ++i)
        text += (i ? ", " : "") + std::to_string(shape[i]) + (shape.size() == 1 ? "," : "");
    return text + ")";
}

/// The arguments of one call, checked and converted for the kernel.
struct BoundCall {
    std::vector<py::buffer_info> arrays; ///< keeps each buffer's view alive
    std::vector<void*> buffers;
    std::vector<int64_t> scalars;
};

/// Checks one call's arguments against the parameters and binds the symbolic sizes (TVM's
/// ArgBinder): explicit scalar arguments first, then each array's extents in order.
class ArgumentBinder {
public:
    ArgumentBinder(const std::string& function, const std::vector<Param>& params)
        : m_function(function), m_params(params) {}

    BoundCall bind(const py::tuple& args, const std::vector<Var>& kernelScalars) {
        if (args.size() != m_params.size())
            fail("takes " + std::to_string(m_params.size()) + " arguments (" + paramList() +
                 "), got " + std::to_string(args.size()));
        BoundCall call;
        for (size_t i = 0; i < m_params.size(); ++i)
            if (m_params[i].scalar.defined())
                bindScalar(i, args[i]);
        for (size_t i = 0; i < m_params.size(); ++i)
            if (m_params[i].tensor.defined())
                call.arrays.push_back(requestArray(i, args[i]));
        size_t array = 0;
        for (size_t i = 0; i < m_params.size(); ++i)
            if (m_params[i].tensor.defined())
                checkShape(i, call.arrays[array++]);
        checkNoAliasing(call.arrays);
        for (const py::buffer_info& info : call.arrays)
            call.buffers.push_back(info.ptr);
        for (const Var& v : kernelScalars)
            call.scalars.push_back(scalarValue(v));
        return call;
    }

private:
    [[noreturn]] void fail(const std::string& message) const {
        throw UserError(m_function + " " + message);
    }

    std::string paramList() const {
        std::string names;
        for (const Param& p : m_params)
            names += (names.empty() ? "" : ", ") + p.name();
        return names;
    }

    std::string argName(size_t i) const {
        return "argument " + std::to_string(i) + " ('" + m_params[i].name() + "')";
    }

    void bindScalar(size_t i, py::handle value) {
        const Var& v = m_params[i].scalar;
        if (v.type().isFloat() && (py::isinstance<py::float_>(value) || py::isinstance<py::int_>(value))) {
            m_floats[v] = value.cast<double>();
            return;
        }
        if (!py::isinstance<py::int_>(value) || !(v.type().isIntegral() || v.type().isBool()))
            fail(argName(i) + " expects a " + v.type().toString() + " scalar, got " +
                 std::string(py::str(value.get_type().attr("__name__"))));
        bindInt(v, value.cast<int64_t>(), argName(i));
    }

    void bindInt(const Var& v, int64_t value, const std::string& source) {
        auto [it, inserted] = m_ints.emplace(v, value);
        if (!inserted && it->second != value)
            fail(source + ": '" + v.name() + "' is " + std::to_string(value) + " here but " +
                 std::to_string(it->second) + " in " + m_sources[v]);
        if (inserted)
            m_sources[v] = source;
        if (v.type().bits() == 32 && (value > std::numeric_limits<int32_t>::max() ||
                                      value < std::numeric_limits<int32_t>::min()))
            fail(source + ": '" + v.name() + "' = " + std::to_string(value) +
                 " does not fit its type int32");
    }

    py::buffer_info requestArray(size_t i, py::handle value) {
        if (!PyObject_CheckBuffer(value.ptr()))
            fail(argName(i) + " expects a tvm.nd.array or a numpy array, got " +
                 std::string(py::str(value.get_type().attr("__name__"))));
        const Param& p = m_params[i];
        py::buffer_info info;
        try {
            info = py::reinterpret_borrow<py::buffer>(value).request(p.isOutput);
        } catch (const py::error_already_set&) {
            fail(argName(i) + " is an output: it must be a writable array");
        }
        std::optional<DataType> type = dtypeOfFormat(info.format, info.itemsize);
        if (!type || *type != p.tensor.dtype())
            fail(argName(i) + " expects dtype " + p.tensor.dtype().toString() + ", got " +
                 (type ? type->toString() : "format '" + info.format + "'"));
        py::ssize_t stride = info.itemsize;
        for (size_t d = info.shape.size(); d-- > 0; stride *= info.shape[d])
            if (info.shape[d] > 1 && info.strides[d] != stride)
                fail(argName(i) + " must be C-contiguous (use numpy.ascontiguousarray)");
        return info;
    }

    void checkShape(size_t i, const py::buffer_info& info) {
        const std::vector<Expr>& shape = m_params[i].tensor.shape();
        if (info.shape.size() != shape.size())
            fail(argName(i) + " expects " + std::to_string(shape.size()) +
                 " dimensions, got an array of shape " + shapeText(info.shape));
        std::string source = argName(i);
        for (size_t d = 0; d < shape.size(); ++d)
            if (const auto* v = shape[d].as<VarNode>())
                bindInt(Var(v), int64_t(info.shape[d]), source + " dimension " + std::to_string(d));
        for (size_t d = 0; d < shape.size(); ++d) {
            std::optional<int64_t> expected = evaluateInt(shape[d], m_ints);
            if (!expected)
                fail(source + " dimension " + std::to_string(d) + " has extent " +
                     toString(shape[d]) + ", which its variables' values do not determine");
            if (*expected != int64_t(info.shape[d]))
                fail(source + " expects shape " + expectedShape(i) + ", got " +
                     shapeText(info.shape) + " (dimension " + std::to_string(d) + " should be " +
                     std::to_string(*expected) + ")");
        }
    }

    std::string expectedShape(size_t i) const {
        std::string text = "(";
        const std::vector<Expr>& shape = m_params[i].tensor.shape();
        for (size_t d = 0; d < shape.size(); ++d)
            text += (d ? ", " : "") + toString(shape[d]);
        return text + (shape.size() == 1 ? ",)" : ")");
    }

    /// The kernel marks buffers `noalias`: an output overlapping another argument would be
    /// miscompiled rather than fail, so it is refused.
    void checkNoAliasing(const std::vector<py::buffer_info>& arrays) const {
        std::vector<size_t> tensorParams;
        for (size_t i = 0; i < m_params.size(); ++i)
            if (m_params[i].tensor.defined())
                tensorParams.push_back(i);
        for (size_t a = 0; a < arrays.size(); ++a)
            for (size_t b = a + 1; b < arrays.size(); ++b) {
                if (!m_params[tensorParams[a]].isOutput && !m_params[tensorParams[b]].isOutput)
                    continue;
                auto begin = [](const py::buffer_info& x) { return static_cast<char*>(x.ptr); };
                auto end = [&](const py::buffer_info& x) { return begin(x) + x.size * x.itemsize; };
                if (begin(arrays[a]) < end(arrays[b]) && begin(arrays[b]) < end(arrays[a]))
                    fail(argName(tensorParams[a]) + " and " + argName(tensorParams[b]) +
                         " share memory; an output must not overlap another argument");
            }
    }

    int64_t scalarValue(const Var& v) const {
        if (auto it = m_floats.find(v); it != m_floats.end())
            return packFloatScalar(it->second);
        if (auto it = m_ints.find(v); it != m_ints.end())
            return it->second;
        fail("cannot determine '" + v.name() +
             "' from its arguments: no array has it as an extent; pass it as an argument");
    }

    std::string m_function;
    const std::vector<Param>& m_params;
    VarMap<int64_t> m_ints;
    VarMap<double> m_floats;
    VarMap<std::string> m_sources;
};

/// The JIT every built function compiles into; each kernel keeps its own resource tracker, so
/// destroying a built function frees its code.
LlvmJit& sharedJit() {
    static LlvmJit jit;
    return jit;
}

/// A compiled function and its parameters.
class BuiltFunction {
public:
    BuiltFunction(const Schedule& s, const py::list& args, const std::string& name,
                  BoundRules rules, const std::vector<std::string>& disabledPasses,
                  const py::list& userPasses) {
        std::vector<Tensor> tensors;
        for (py::handle a : args) {
            if (py::isinstance<Tensor>(a)) {
                Tensor t = a.cast<Tensor>();
                m_params.push_back(Param{t, Var(), t.op.as<PlaceholderOpNode>() == nullptr});
                tensors.push_back(t);
            } else if (py::isinstance<VarNode>(a)) {
                m_params.push_back(Param{Tensor(), a.cast<Var>(), false});
            } else {
                throw UserError("tvm.build: arguments must be tensors or variables, got " +
                                std::string(py::str(a.get_type().attr("__name__"))));
            }
        }
        std::vector<Var> scalars;
        for (const Param& p : m_params)
            if (p.scalar.defined())
                scalars.push_back(p.scalar);
        ProgramRecorder::current().show(s, tensors, scalars);
        auto start = std::chrono::steady_clock::now();
        LowerOptions options;
        options.rules = rules;
        options.scalarArgs = scalars;
        applyPassContext(options, disabledPasses, userPasses);
        m_func = lower(s, tensors, options).func;
        m_lowerSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        m_kernel = cpuKernelOf(m_func, name);
        // Scalars given in `args` (`te.var("alpha", "float32")`) are parameters too, as in TVM,
        // even when no shape uses them.
        for (const Param& p : m_params)
            if (p.scalar.defined() && std::none_of(m_kernel.scalars.begin(), m_kernel.scalars.end(),
                                                   [&](const Var& v) { return v.same_as(p.scalar); }))
                m_kernel.scalars.push_back(p.scalar);
        m_compiled = std::make_shared<JitKernel>(sharedJit().compile(m_kernel));
    }

    const std::string& entryName() const { return m_kernel.name; }

    void call(const py::args& args) const {
        BoundCall bound = ArgumentBinder(m_kernel.name, m_params).bind(args, m_kernel.scalars);
        py::gil_scoped_release release;
        m_compiled->run(bound.buffers, bound.scalars);
    }

    /// Seconds per run, averaged over `number` runs, for each of `repeat` repetitions (TVM's
    /// time_evaluator; the arguments are checked once).
    std::vector<double> time(const py::list& args, int number, int repeat) const {
        if (number < 1 || repeat < 1)
            throw UserError("time_evaluator: number and repeat must be at least 1");
        BoundCall bound =
            ArgumentBinder(m_kernel.name, m_params).bind(py::tuple(args), m_kernel.scalars);
        py::gil_scoped_release release;
        std::vector<double> means;
        for (int r = 0; r < repeat; ++r) {
            auto start = std::chrono::steady_clock::now();
            for (int i = 0; i < number; ++i)
                m_compiled->run(bound.buffers, bound.scalars);
            std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
            means.push_back(elapsed.count() / number);
        }
        return means;
    }

    std::string llvmIr() const { return printLlvmIr(m_kernel); }
    std::string loweredText() const { return toString(m_func.final); }

    py::dict timings() const {
        const JitTimings& t = m_compiled->timings();
        py::dict out;
        out["lower_ms"] = m_lowerSeconds * 1e3;
        out["codegen_ms"] = t.buildSeconds * 1e3;
        out["optimize_ms"] = t.optimizeSeconds * 1e3;
        out["machine_code_ms"] = t.machineCodeSeconds * 1e3;
        return out;
    }

    std::vector<std::string> paramNames() const {
        std::vector<std::string> names;
        for (const Param& p : m_params)
            names.push_back(p.name());
        return names;
    }

    /// Whether each parameter is an array (the Python side converts tvm.nd.arrays for those).
    std::vector<bool> paramIsArray() const {
        std::vector<bool> out;
        for (const Param& p : m_params)
            out.push_back(p.tensor.defined());
        return out;
    }

    const std::string& cpuName() const { return m_compiled->cpuName(); }

private:
    std::vector<Param> m_params;
    LoweredFunc m_func;
    CpuKernel m_kernel;
    std::shared_ptr<JitKernel> m_compiled;
    double m_lowerSeconds = 0;
};

void bindBuiltFunction(py::module_& m) {
    py::class_<BuiltFunction, std::shared_ptr<BuiltFunction>>(m, "_BuiltFunction")
        .def_property_readonly("entry_name", &BuiltFunction::entryName)
        .def_property_readonly("param_names", &BuiltFunction::paramNames)
        .def_property_readonly("param_is_array", &BuiltFunction::paramIsArray)
        .def_property_readonly("cpu_name", &BuiltFunction::cpuName)
        .def_property_readonly("timings", &BuiltFunction::timings)
        .def("__call__", &BuiltFunction::call, Located())
        .def("_time", &BuiltFunction::time, py::arg("args"), py::arg("number"), py::arg("repeat"),
             Located())
        .def("llvm_ir", &BuiltFunction::llvmIr, Located())
        .def("lowered_text", &BuiltFunction::loweredText);
    m.def(
        "_build",
        [](const Schedule& s, const py::list& args, const std::string& name, const std::string& rules,
           const std::vector<std::string>& disabledPasses, const py::list& userPasses) {
            auto parsed = parseBoundRules(rules);
            if (!parsed)
                throw UserError("unknown rule set '" + rules + "': expected tvm, tvm-0.5 or tight");
            return std::make_shared<BuiltFunction>(s, args, name, *parsed, disabledPasses, userPasses);
        },
        py::arg("schedule"), py::arg("args"), py::arg("name"), py::arg("rules") = "tvm",
        py::arg("disabled_passes") = std::vector<std::string>(), py::arg("user_passes") = py::list(),
        Located());
    m.attr("_has_llvm") = true;
}

#else

void bindBuiltFunction(py::module_& m) {
    m.def(
        "_build",
        [](py::args, py::kwargs) -> py::object {
            throw UserError("tvm.build needs the LLVM backend, and this Boundscope was built "
                            "without LLVM (install llvm-14-dev and configure with "
                            "-DBOUNDSCOPE_WITH_LLVM=ON)");
        },
        Located());
    m.attr("_has_llvm") = false;
}

#endif

} // namespace

void bindBuild(py::module_& m) {
    bindBuiltFunction(m);
}

} // namespace bs::script
