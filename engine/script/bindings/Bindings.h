/// \file
/// The `_boundscope` Python module: the engine's API with TVM's names, one binding source per
/// engine layer (BindIr*.cpp for engine/ir; the te, schedule and later layers each add theirs and
/// a call in `defineModule`). The same definition serves the module embedded in the CLI and the
/// app (script/EmbeddedModule.cpp) and the extension that plain `python3` imports
/// (script/extension/PythonExtension.cpp). The public Python API is the pure-Python `boundscope`
/// and `tvm` packages in resources/python, which re-export these names where TVM has them.
///
/// Rules for binding code: every function that calls into the engine is declared with
/// `Located()` (CallGuard.h), takes and returns engine handles (Casters.h), and reports user
/// mistakes by throwing `bs::UserError`, which Python sees as `tvm.error.TVMError`.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <vector>

namespace bs {
struct LowerOptions;
}

namespace bs::script {

/// Defines everything in `_boundscope` (classes, functions, TVMError).
void defineModule(pybind11::module_& m);

/// engine/ir: expression node classes, Range, IterVar, CommReducer, operators and functions.
void bindIr(pybind11::module_& m);
void bindIrAxes(pybind11::module_& m);
void bindIrFunctions(pybind11::module_& m);
/// engine/ir statements (tvm.tir.For, ...), post_order_visit and structural equality.
void bindIrStmt(pybind11::module_& m);

/// engine/te: Tensor, operations and their builders.
void bindTe(pybind11::module_& m);
/// engine/schedule and engine/lower: schedules, stages, relations, InferBound, lowering.
void bindScheduleLayer(pybind11::module_& m);
/// engine/tc: `_tc_build` and the TC program types (BindTc.cpp); `Stage.reverse_compute_inline`.
void bindTc(pybind11::module_& m);
void reverseComputeInlineFromPython(const pybind11::object& stage,
                                    const pybind11::object& schedule);
/// What the script's PassContext asks of lowering (tvm.lower and tvm.build): the passes it
/// disables, and its `tir.add_lower_pass` entries as (phase, name, function of the root
/// statement) tuples (BindSchedule.cpp).
void applyPassContext(LowerOptions& options, const std::vector<std::string>& disabledPasses,
                      const pybind11::list& userPasses);
/// `object` held so that any thread may own it: the last owner takes the GIL to release it
/// (and leaves it when the interpreter has ended).
std::shared_ptr<pybind11::object> sharedPyObject(pybind11::object object);
/// tvm.build: lowering + the LLVM JIT, a callable built function (BindBuild.cpp).
void bindBuild(pybind11::module_& m);
/// Extern stages: the ExternOp, statement constructors for tvm.tir.ir_builder, and the
/// packed-function registry (BindExtern.cpp).
void bindExtern(pybind11::module_& m);
/// Tensor intrinsics: the buffer node, TensorIntrin, the tensorize test functions
/// (BindTensorize.cpp).
void bindTensorize(pybind11::module_& m);
/// Removes the packed functions the script registered (called when its run ends).
void removeScriptPackedFunctions();
/// tvm.ir.save_json / load_json (BindSaveJson.cpp).
void bindSaveJson(pybind11::module_& m);
/// engine/arith: tvm.arith.Analyzer, ConstIntBound, ModularSet; substitute.
void bindArith(pybind11::module_& m);

} // namespace bs::script
