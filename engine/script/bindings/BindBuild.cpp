/// \file
/// `tvm.build` (issue 6, item 2; issue 16, item 6). `_build(schedule, args, name, rules)` lowers
/// the schedule, compiles the lowered function for the CPU through engine/run (run/CpuExecutable:
/// the process's one LLVM JIT, which the CLI and the app run kernels on too) and returns a
/// `_BuiltFunction`, which the Python package (tvm/driver) wraps as TVM's module: `f(a, b, c)` on
/// `tvm.nd.array`s or numpy arrays, `f.time_evaluator(...)`.
/// `_build_cuda` does the same for the cuda target: the GPU module and its CUDA source (no GPU
/// needed), run through CudaExecutor when a GPU is present and refused with one message when not.
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
#include "codegen/llvm/LlvmCodegen.h" // the saved kernel's metadata symbol (no LLVM needed)
#include "ir/Op.h"
#include "ir/Printer.h"
#include "lower/Lower.h"
#include "run/CpuExecutable.h"
#include "run/CudaExecutor.h"
#include "run/RunKernel.h"
#include "script/bindings/Bindings.h"
#include "script/bindings/CallGuard.h"
#include "script/bindings/Casters.h"
#include "script/bindings/Recording.h"
#include "te/Compute.h"
#include "te/Operation.h"

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <limits>
#include <map>
#include <memory>
#include <sstream>

namespace bs::script {

namespace {

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
        if (v.type().isFloat() &&
            (py::isinstance<py::float_>(value) || py::isinstance<py::int_>(value))) {
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

/// The parameters of a built function from tvm.build's `args`, with the tensors and scalars
/// among them in order.
struct ParamList {
    std::vector<Param> params;
    std::vector<Tensor> tensors;
    std::vector<Var> scalars;
};

ParamList parseParams(const py::list& args) {
    ParamList out;
    for (py::handle a : args) {
        if (py::isinstance<Tensor>(a)) {
            Tensor t = a.cast<Tensor>();
            out.params.push_back(Param{t, Var(), t.op.as<PlaceholderOpNode>() == nullptr});
            out.tensors.push_back(t);
        } else if (py::isinstance<VarNode>(a)) {
            out.params.push_back(Param{Tensor(), a.cast<Var>(), false});
            out.scalars.push_back(a.cast<Var>());
        } else {
            throw UserError("tvm.build: arguments must be tensors or variables, got " +
                            std::string(py::str(a.get_type().attr("__name__"))));
        }
    }
    return out;
}

/// Lowers `s` for tvm.build with the PassContext's passes; shows the program, passes included,
/// to the recorder.
LowerResult lowerForBuild(const Schedule& s, const ParamList& params, BoundRules rules,
                          const std::vector<std::string>& disabledPasses,
                          const py::list& userPasses) {
    LowerOptions options;
    options.rules = rules;
    options.scalarArgs = params.scalars;
    applyPassContext(options, disabledPasses, userPasses);
    activeRecorder()->show(s, params.tensors, params.scalars, options.userPasses);
    return lower(s, params.tensors, options);
}

std::vector<bool> arrayParams(const std::vector<Param>& params) {
    std::vector<bool> out;
    for (const Param& p : params)
        out.push_back(p.tensor.defined());
    return out;
}

/// Seconds per run, averaged over `number` runs, for each of `repeat` repetitions (TVM's
/// time_evaluator); `runOnce` runs the kernel once.
template <typename F> std::vector<double> timeRepeats(int number, int repeat, F&& runOnce) {
    if (number < 1 || repeat < 1)
        throw UserError("time_evaluator: number and repeat must be at least 1");
    std::vector<double> means;
    for (int r = 0; r < repeat; ++r)
        means.push_back(runOnce(number) / number);
    return means;
}

/// tvm.build(..., target="cuda"): the lowered function's GPU module, its CUDA source, and, when
/// a GPU is present, the kernels run on it (the host code interpreted, CudaExecutor). Arrays stay
/// in host memory and are copied to the device and back around each call. The "opencl" target
/// gives the same module as OpenCL C, which is not run here (there is no OpenCL runtime).
class CudaBuiltFunction {
public:
    CudaBuiltFunction(const Schedule& s, const py::list& args, const std::string& name,
                      BoundRules rules, const std::vector<std::string>& disabledPasses,
                      const py::list& userPasses, bool openCl)
        : m_params(parseParams(args)), m_openCl(openCl) {
        for (const Var& v : m_params.scalars)
            if (!v.type().isIntegral())
                throw UserError(std::string("tvm.build: the ") + (openCl ? "opencl" : "cuda") +
                                " target takes integer scalar arguments; '" + v.name() + "' is " +
                                v.type().toString());
        LowerResult lowered = lowerForBuild(s, m_params, rules, disabledPasses, userPasses);
        lowered.func.name = name;
        CudaCodegenOptions options;
        options.openCl = openCl;
        m_module = buildKernelCudaModule(lowered, options);
        m_func = lowered.func;
    }

    const std::string& entryName() const { return m_func.name; }
    const std::string& source() const { return m_module.source; }
    std::string hostText() const { return toString(m_module.program.host); }
    std::string loweredText() const { return toString(m_func.final); }

    void call(const py::args& args) {
        BoundCall bound =
            ArgumentBinder(m_func.name, m_params.params).bind(args, m_func.scalarParams);
        CudaExecutor& executor = loaded();
        py::gil_scoped_release release;
        executor.run(hostBuffers(bound), scalars(bound), 0);
    }

    std::vector<double> time(const py::list& args, int number, int repeat) {
        BoundCall bound =
            ArgumentBinder(m_func.name, m_params.params).bind(py::tuple(args), m_func.scalarParams);
        CudaExecutor& executor = loaded();
        py::gil_scoped_release release;
        VarMap<CudaHostBuffer> buffers = hostBuffers(bound);
        VarMap<int64_t> sizes = scalars(bound);
        return timeRepeats(number, repeat, [&](int n) {
            CudaRunResult result = executor.run(buffers, sizes, n);
            double total = 0;
            for (double ms : result.milliseconds)
                total += ms / 1e3;
            return total;
        });
    }

    std::vector<bool> paramIsArray() const { return arrayParams(m_params.params); }

private:
    /// Compiled with NVRTC on the first call; throws UserError naming what is missing when
    /// there is no GPU or driver.
    CudaExecutor& loaded() {
        if (m_openCl)
            throw UserError("cannot run '" + m_func.name +
                            "' on the opencl target: Boundscope "
                            "has no OpenCL runtime (its OpenCL C is in "
                            "imported_modules[0].get_source()); build it for cuda or llvm, or "
                            "run the schedule in GPU emulation (the emulate target)");
        if (!m_executor) {
            std::string why;
            if (!CudaRuntime::isAvailable(&why))
                throw UserError("cannot run '" + m_func.name + "' on the cuda target: " + why +
                                " (its CUDA source is in imported_modules[0].get_source())");
            m_executor = std::make_unique<CudaExecutor>(m_module.program, m_module.source);
        }
        return *m_executor;
    }

    VarMap<CudaHostBuffer> hostBuffers(const BoundCall& bound) const {
        VarMap<CudaHostBuffer> out;
        for (size_t i = 0; i < bound.arrays.size() && i < m_func.argBuffers.size(); ++i)
            out[m_func.argBuffers[i]] = CudaHostBuffer{
                bound.arrays[i].ptr, size_t(bound.arrays[i].size * bound.arrays[i].itemsize)};
        return out;
    }

    VarMap<int64_t> scalars(const BoundCall& bound) const {
        VarMap<int64_t> out;
        for (size_t i = 0; i < m_func.scalarParams.size(); ++i)
            out[m_func.scalarParams[i]] = bound.scalars.at(i);
        return out;
    }

    ParamList m_params;
    bool m_openCl;
    LoweredFunc m_func;
    CudaModule m_module;
    std::unique_ptr<CudaExecutor> m_executor;
};

void bindCudaBuiltFunction(py::module_& m) {
    py::class_<CudaBuiltFunction, std::shared_ptr<CudaBuiltFunction>>(m, "_CudaBuiltFunction")
        .def_property_readonly("entry_name", &CudaBuiltFunction::entryName)
        .def_property_readonly("param_is_array", &CudaBuiltFunction::paramIsArray)
        .def("__call__", &CudaBuiltFunction::call, Located())
        .def("_time", &CudaBuiltFunction::time, py::arg("args"), py::arg("number"),
             py::arg("repeat"), Located())
        .def("cuda_source", &CudaBuiltFunction::source)
        .def("host_text", &CudaBuiltFunction::hostText)
        .def("lowered_text", &CudaBuiltFunction::loweredText);
    m.def(
        "_build_cuda",
        [](const Schedule& s, const py::list& args, const std::string& name,
           const std::string& rules, const std::vector<std::string>& disabledPasses,
           const py::list& userPasses, const std::string& language) {
            if (language != "cuda" && language != "opencl")
                throw UserError("_build_cuda: unknown language '" + language + "'");
            return std::make_shared<CudaBuiltFunction>(s, args, name, boundRulesNamed(rules),
                                                       disabledPasses, userPasses,
                                                       language == "opencl");
        },
        py::arg("schedule"), py::arg("args"), py::arg("name"), py::arg("rules") = "tvm",
        py::arg("disabled_passes") = std::vector<std::string>(),
        py::arg("user_passes") = py::list(), py::arg("language") = "cuda", Located());
    // (available, why not): whether a CUDA driver and GPU are present, probed once.
    m.def("_cuda_available", [] {
        std::string why;
        bool available = CudaRuntime::isAvailable(&why);
        return py::make_tuple(available, why);
    });
}

/// The first line of a saved kernel's metadata.
constexpr const char* kMetadataHeader = "boundscope-kernel 1";

/// The metadata a saved kernel carries (writeKernelObject appends its failure lines), one item
/// per line: `entry NAME`, `param array in|out DTYPE NAME DIM...` (a DIM is an integer or a
/// variable's name) or `param scalar DTYPE NAME` in call order, `kernel-scalar NAME` in the
/// order the entry point reads its scalars. Throws UserError for a shape it cannot describe.
/// Whether `name` can be written in the metadata and read back as a name: no white space,
/// not a number.
bool isMetadataName(const std::string& name) {
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])) || name[0] == '-')
        return false;
    return std::none_of(name.begin(), name.end(),
                        [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; });
}

std::string kernelMetadata(const std::string& entry, const std::vector<Param>& params,
                           const std::vector<Var>& kernelScalars) {
    auto checkName = [&](const std::string& name, const char* what) {
        if (!isMetadataName(name))
            throw UserError("cannot save '" + entry + "': the " + what + " '" + name +
                            "' is not a name a saved kernel can keep (no spaces, not a number)");
    };
    for (const Param& p : params)
        checkName(p.name(), p.scalar.defined() ? "scalar" : "tensor");
    for (const Var& v : kernelScalars)
        checkName(v.name(), "variable");
    std::string text = std::string(kMetadataHeader) + "\nentry " + entry + "\n";
    for (const Param& p : params) {
        if (p.scalar.defined()) {
            text += "param scalar " + p.scalar.type().toString() + " " + p.scalar.name() + "\n";
            continue;
        }
        text += std::string("param array ") + (p.isOutput ? "out " : "in ") +
                p.tensor.dtype().toString() + " " + p.tensor.name();
        for (const Expr& dim : p.tensor.shape()) {
            if (const auto* imm = dim.as<IntImmNode>())
                text += " " + std::to_string(imm->value);
            else if (const auto* v = dim.as<VarNode>())
                text += " " + v->name;
            else
                throw UserError("cannot save '" + entry + "': the shape of '" + p.tensor.name() +
                                "' has the extent " + toString(dim) +
                                "; a saved kernel's extents are constants or variables");
        }
        text += "\n";
    }
    for (const Var& v : kernelScalars)
        text += "kernel-scalar " + v.name() + "\n";
    return text;
}

/// A kernel loaded from a shared library that a saved object file was linked into
/// (tvm.runtime.load_module): its parameters rebuilt from the metadata, checked as a built
/// function's are, and its entry point called directly.
class LoadedFunction {
public:
    explicit LoadedFunction(const std::string& path) : m_path(path) {
        m_library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!m_library)
            throw UserError("cannot load '" + path + "': " + dlerror());
        const auto* metadata = static_cast<const char*>(dlsym(m_library, kKernelMetadataSymbol));
        if (!metadata)
            fail("it holds no Boundscope kernel (it was not made from Module.save or "
                 "export_library)");
        parse(metadata);
        m_entry = reinterpret_cast<int32_t (*)(void**, int64_t*)>(dlsym(m_library, m_name.c_str()));
        if (!m_entry)
            fail("its kernel '" + m_name + "' is missing");
    }
    ~LoadedFunction() {
        if (m_library)
            dlclose(m_library);
    }
    LoadedFunction(const LoadedFunction&) = delete;
    LoadedFunction& operator=(const LoadedFunction&) = delete;

    const std::string& entryName() const { return m_name; }
    std::vector<bool> paramIsArray() const { return arrayParams(m_params); }

    void call(const py::args& args) const {
        BoundCall bound = ArgumentBinder(m_name, m_params).bind(args, m_scalars);
        py::gil_scoped_release release;
        run(bound);
    }

    std::vector<double> time(const py::list& args, int number, int repeat) const {
        BoundCall bound = ArgumentBinder(m_name, m_params).bind(py::tuple(args), m_scalars);
        py::gil_scoped_release release;
        return timeRepeats(number, repeat, [&](int n) {
            auto start = std::chrono::steady_clock::now();
            for (int i = 0; i < n; ++i)
                run(bound);
            return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        });
    }

private:
    [[noreturn]] void fail(const std::string& why) const {
        throw UserError("cannot load '" + m_path + "': " + why);
    }

    void run(BoundCall& bound) const {
        int32_t status = m_entry(bound.buffers.data(), bound.scalars.data());
        if (status != 0)
            throw UserError("kernel '" + m_name + "' stopped: " +
                            (status > 0 && size_t(status) <= m_failures.size()
                                 ? m_failures[size_t(status - 1)]
                                 : "status " + std::to_string(status)));
    }

    Var variable(const std::string& name, DataType type) {
        auto it = m_vars.find(name);
        if (it == m_vars.end())
            it = m_vars.emplace(name, Var(name, type)).first;
        return it->second;
    }

    void parse(const std::string& metadata) {
        std::istringstream lines(metadata);
        std::string line;
        if (!std::getline(lines, line) || line != kMetadataHeader)
            fail("its kernel metadata is not of this Boundscope (expected '" +
                 std::string(kMetadataHeader) + "')");
        std::vector<std::vector<std::string>> items;
        while (std::getline(lines, line)) {
            if (line.rfind("failure ", 0) == 0) {
                m_failures.push_back(line.substr(8));
                continue;
            }
            std::istringstream words(line);
            std::vector<std::string> item;
            for (std::string word; words >> word;)
                item.push_back(word);
            if (!item.empty())
                items.push_back(std::move(item));
        }
        try {
            build(items);
        } catch (const UserError& e) {
            // What the engine refused (an unknown dtype, a bad placeholder), named by the file.
            if (e.diagnostic().message.rfind("cannot load '", 0) == 0)
                throw;
            fail(e.diagnostic().message);
        }
        if (m_name.empty())
            fail("its kernel metadata names no entry point");
    }

    /// An extent: a non-negative integer (int32 when it fits, else int64) or a variable's name.
    Expr extent(const std::string& dim) {
        if (dim.empty() || !std::all_of(dim.begin(), dim.end(), ::isdigit))
            return variable(dim, DataType::int32());
        if (dim.size() > 18)
            fail("its kernel metadata has the extent " + dim + ", too large");
        const int64_t value = std::stoll(dim);
        if (value <= std::numeric_limits<int32_t>::max())
            return Expr(int32_t(value));
        return makeConst(DataType::int64(), value);
    }

    void build(const std::vector<std::vector<std::string>>& items) {
        // Scalars first: an array's extent refers to them by name with their type.
        for (const auto& item : items) {
            if (item.size() == 4 && item[0] == "param" && item[1] == "scalar") {
                DataType type = parseDType(item[2]);
                auto it = m_vars.find(item[3]);
                if (it != m_vars.end() && it->second.type() != type)
                    fail("its kernel metadata gives the scalar '" + item[3] + "' two types");
                if (!isMetadataName(item[3]))
                    fail("its kernel metadata names a scalar '" + item[3] + "'");
                variable(item[3], type);
            }
        }
        for (const auto& item : items) {
            if (item[0] == "entry" && item.size() == 2) {
                m_name = item[1];
            } else if (item[0] == "param" && item.size() == 4 && item[1] == "scalar") {
                m_params.push_back(Param{Tensor(), m_vars.at(item[3]), false});
            } else if (item[0] == "param" && item.size() >= 5 && item[1] == "array") {
                std::vector<Expr> shape;
                for (size_t d = 5; d < item.size(); ++d) {
                    if (!isMetadataName(item[d]) &&
                        !std::all_of(item[d].begin(), item[d].end(), ::isdigit))
                        fail("its kernel metadata has the extent '" + item[d] + "'");
                    shape.push_back(extent(item[d]));
                }
                Tensor t = placeholder(shape, parseDType(item[3]), item[4]);
                m_params.push_back(Param{t, Var(), item[2] == "out"});
            } else if (item[0] == "kernel-scalar" && item.size() == 2) {
                auto it = m_vars.find(item[1]);
                if (it == m_vars.end())
                    fail("its metadata names the scalar '" + item[1] + "', which no parameter has");
                m_scalars.push_back(it->second);
            } else {
                fail("its kernel metadata has a line this Boundscope does not read: '" + item[0] +
                     "...'");
            }
        }
    }

    std::string m_path;
    void* m_library = nullptr;
    std::string m_name;
    int32_t (*m_entry)(void**, int64_t*) = nullptr;
    std::vector<Param> m_params;
    std::vector<Var> m_scalars;
    std::map<std::string, Var> m_vars;
    std::vector<std::string> m_failures;
};

void bindLoadedFunction(py::module_& m) {
    py::class_<LoadedFunction, std::shared_ptr<LoadedFunction>>(m, "_LoadedFunction")
        .def_property_readonly("entry_name", &LoadedFunction::entryName)
        .def_property_readonly("param_is_array", &LoadedFunction::paramIsArray)
        .def("__call__", &LoadedFunction::call, Located())
        .def("_time", &LoadedFunction::time, py::arg("args"), py::arg("number"), py::arg("repeat"),
             Located());
    m.def(
        "_load_library",
        [](const std::string& path) { return std::make_shared<LoadedFunction>(path); },
        py::arg("path"), Located());
}

#ifdef BOUNDSCOPE_WITH_LLVM

/// A compiled function and its parameters.
class BuiltFunction {
public:
    BuiltFunction(const Schedule& s, const py::list& args, const std::string& name,
                  BoundRules rules, const std::vector<std::string>& disabledPasses,
                  const py::list& userPasses) {
        auto start = std::chrono::steady_clock::now();
        ParamList params = parseParams(args);
        m_params = params.params;
        m_func = lowerForBuild(s, params, rules, disabledPasses, userPasses).func;
        m_lowerSeconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        m_kernel = cpuKernelOf(m_func, name);
        // Scalars given in `args` (`te.var("alpha", "float32")`) are parameters too, as in TVM,
        // even when no shape uses them.
        for (const Param& p : m_params)
            if (p.scalar.defined() &&
                std::none_of(m_kernel.scalars.begin(), m_kernel.scalars.end(),
                             [&](const Var& v) { return v.same_as(p.scalar); }))
                m_kernel.scalars.push_back(p.scalar);
        // Destroying the built function frees its code (each kernel has its own tracker).
        m_compiled = std::make_shared<CpuExecutable>(m_kernel);
    }

    const std::string& entryName() const { return m_kernel.name; }

    void call(const py::args& args) const {
        BoundCall bound = ArgumentBinder(m_kernel.name, m_params).bind(args, m_kernel.scalars);
        py::gil_scoped_release release;
        m_compiled->run(bound.buffers, bound.scalars);
    }

    /// Seconds per run for each repetition (TVM's time_evaluator; the arguments are checked
    /// once).
    std::vector<double> time(const py::list& args, int number, int repeat) const {
        BoundCall bound =
            ArgumentBinder(m_kernel.name, m_params).bind(py::tuple(args), m_kernel.scalars);
        py::gil_scoped_release release;
        return timeRepeats(number, repeat, [&](int n) {
            auto start = std::chrono::steady_clock::now();
            for (int i = 0; i < n; ++i)
                m_compiled->run(bound.buffers, bound.scalars);
            return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        });
    }

    /// Module.save: the kernel as a position-independent object file with its metadata.
    void save(const std::string& path) const {
        writeKernelObject(m_kernel, kernelMetadata(m_kernel.name, m_params, m_kernel.scalars),
                          path);
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
    std::vector<bool> paramIsArray() const { return arrayParams(m_params); }

    const std::string& cpuName() const { return m_compiled->cpuName(); }

private:
    std::vector<Param> m_params;
    LoweredFunc m_func;
    CpuKernel m_kernel;
    std::shared_ptr<CpuExecutable> m_compiled;
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
        .def("save", &BuiltFunction::save, py::arg("path"), Located())
        .def("lowered_text", &BuiltFunction::loweredText);
    m.def(
        "_build",
        [](const Schedule& s, const py::list& args, const std::string& name,
           const std::string& rules, const std::vector<std::string>& disabledPasses,
           const py::list& userPasses) {
            return std::make_shared<BuiltFunction>(s, args, name, boundRulesNamed(rules),
                                                   disabledPasses, userPasses);
        },
        py::arg("schedule"), py::arg("args"), py::arg("name"), py::arg("rules") = "tvm",
        py::arg("disabled_passes") = std::vector<std::string>(),
        py::arg("user_passes") = py::list(), Located());
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
    bindCudaBuiltFunction(m);
    bindLoadedFunction(m);
}

} // namespace bs::script
