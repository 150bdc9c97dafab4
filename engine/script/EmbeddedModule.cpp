#include "script/EmbeddedModule.h"

#include "script/OutputCapture.h"
#include "script/bindings/Bindings.h"

#include <pybind11/embed.h>

namespace bs::script {

namespace py = pybind11;

namespace {

/// What PYBIND11_MODULE expands to, as a plain function: PYBIND11_EMBEDDED_MODULE would register
/// from a static initializer, which a static library drops when nothing references its object
/// file, and which would run on the process's main thread instead of the Python thread.
PyObject* initEmbeddedModule() {
    py::detail::get_internals();
    static PyModuleDef definition;
    auto m = py::module_::create_extension_module("_boundscope", nullptr, &definition);
    try {
        defineModule(m);
        bindOutputSink(m);
        return m.ptr();
    } catch (py::error_already_set& error) {
        error.restore();
        return nullptr;
    } catch (const std::exception& error) {
        PyErr_SetString(PyExc_ImportError, error.what());
        return nullptr;
    }
}

} // namespace

void registerEmbeddedModule() { PyImport_AppendInittab("_boundscope", &initEmbeddedModule); }

} // namespace bs::script
