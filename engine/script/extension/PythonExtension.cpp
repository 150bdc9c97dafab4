/// The `_boundscope` extension module that plain `python3` imports (with PYTHONPATH=build/python
/// the `boundscope` and `tvm` packages find it). It shares its definition with the module
/// embedded in the CLI and the app.

#include "script/bindings/Bindings.h"

PYBIND11_MODULE(_boundscope, m) { bs::script::defineModule(m); }
