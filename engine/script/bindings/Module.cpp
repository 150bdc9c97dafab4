#include "script/bindings/Bindings.h"

#include "analysis/Program.h"
#include "analysis/ScheduleFixes.h"
#include "script/bindings/CallGuard.h"
#include "script/bindings/Recording.h"
#include "support/Check.h"
#include "support/Diagnostic.h"

namespace bs::script {

namespace py = pybind11;

namespace {

/// A primitive given an IterVar of another stage cannot know which stage that is; the schedule
/// the script is building can. Names the owner in the message and the subject
/// (`'i' is not an iter var of stage 'C'; it is a loop of stage 'B'`).
void nameOwnerOfForeignIterVar(Diagnostic& d) {
    DiagnosticSubject& subject = d.subject;
    if (subject.kind != "itervar-of-other-stage" || !subject.iterVarId)
        return;
    const Schedule sch = activeRecorder()->lastSchedule();
    if (!sch.defined())
        return;
    // The stage whose loops were expected: the attach target of a compute_at, else the stage.
    const std::string& expected = subject.otherStage.empty() ? subject.stage : subject.otherStage;
    for (const Stage& stage : sch.stages()) {
        for (const IterVar& iv : stage->allIterVars) {
            if (iv.get() != subject.iterVarId || stage.name() == expected)
                continue;
            subject.otherStage = stage.name();
            d.message += "; it is a loop of stage '" + stage.name() + "'";
            return;
        }
    }
}

} // namespace

void defineModule(py::module_& m) {
    m.doc() = "Boundscope's engine bindings; use the `boundscope` or `tvm` package instead.";

    // A UserError thrown by the engine becomes tvm.error.TVMError with the same message, a
    // RuntimeError as in TVM, so `except RuntimeError` in TVM's tests still catches it.
    auto tvmError = py::register_exception<UserError>(m, "TVMError", PyExc_RuntimeError);
    tvmError.attr("__module__") = "tvm.error";
    // A failed internal check (a Boundscope bug) becomes tvm.error.InternalError, as TVM's
    // ICHECK does, so a script that hits one gets a traceback instead of a dead process.
    auto internalError = py::register_exception<InternalError>(m, "InternalError", tvmError.ptr());
    internalError.attr("__module__") = "tvm.error";
    // A UserError about something (DiagnosticSubject), with a fix or with a script line of its
    // own keeps them on the exception (`_bs_subject`: the subject, then the line; `_bs_fix`), so
    // that the script's failure still points at the stage, the attach edge and the line that
    // caused it (an invalid compute_at found by tvm.lower is the compute_at's fault, not the
    // lower's; script/PythonErrors.cpp reads them back). Tried before the translators above.
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p)
                std::rethrow_exception(p);
        } catch (const InternalError&) {
            throw;
        } catch (const UserError& e) {
            Diagnostic d = e.diagnostic();
            if (d.subject.empty() && d.fix.empty() && !d.location.known())
                throw;
            nameOwnerOfForeignIterVar(d);
            // An error InferBound found inside tvm.lower/tvm.build gets the fix the CLI and the
            // app give it, tried on the program the script is lowering.
            if (d.fix.empty() && !d.subject.empty())
                d.fix = findScheduleFix(activeRecorder()->program(), d, BoundRules::Tvm);
            py::object type = py::module_::import("_boundscope").attr("TVMError");
            py::object error = type(d.message);
            error.attr("_bs_subject") = py::make_tuple(
                d.subject.kind, d.subject.stage, d.subject.iterVar, d.subject.otherStage,
                d.subject.consumer, reinterpret_cast<uintptr_t>(d.subject.iterVarId),
                d.location.file, d.location.line);
            error.attr("_bs_fix") = d.fix;
            PyErr_SetObject(type.ptr(), error.ptr());
        }
    });

    m.def("_add_library_path", &addLibraryPath, py::arg("directory"),
          "Marks a directory of Boundscope's own Python files (never the user's line).");
    m.def(
        "_current_location",
        []() -> py::object {
            const SourceLocation& where = currentSourceLocation();
            if (!where.known())
                return py::none();
            return py::make_tuple(where.file, where.line);
        },
        Located(), "The script line the engine attributes this call to, as (file, line).");
    m.def(
        "_raise_user_error", [](const std::string& message) { throw UserError(message); },
        py::arg("message"), Located(), "Raises an engine UserError (for tests).");
    m.def(
        "_fail_internal_check", [] { BS_CHECK(false) << "requested by _fail_internal_check"; },
        "Fails an internal check (for tests: it must raise InternalError, not abort).");

    bindIr(m);
    bindTe(m);
    bindExtern(m);
    bindTensorize(m);
    bindScheduleLayer(m);
    bindTc(m);
    bindBuild(m);
    bindArith(m);
    bindSaveJson(m);
}

} // namespace bs::script
