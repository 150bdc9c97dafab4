/// Tensor Comprehensions from Python (issue 8): `_tc_build(source, sizes, file)` returns the
/// built program (inputs, outputs, per-statement inferred ranges, warnings), which the
/// `boundscope.tc` wrapper (resources/python/boundscope/tc.py) presents, and notes it in the
/// ProgramRecorder for the app's side-by-side ranges; and
/// `Stage.reverse_compute_inline([schedule])` (bound in BindSchedule.cpp).

#include "analysis/Program.h"
#include "script/bindings/Bindings.h"
#include "script/bindings/CallGuard.h"
#include "script/bindings/Casters.h"
#include "script/bindings/Recording.h"
#include "tc/Tc.h"

#include <pybind11/stl.h>

namespace bs::script {

namespace py = pybind11;

namespace {

/// Where in the TC source a diagnostic points: `line 2: ` (`file.tc:2: ` for a file).
std::string tcWhere(const Diagnostic& d) {
    if (d.location.line <= 0)
        return "";
    return (d.location.file.empty() ? "line " : d.location.file + ":") +
           std::to_string(d.location.line) + ": ";
}

/// A TC error seen from Python: located at the script line that called `boundscope.tc`, the
/// TC line and column in the message (`line 2: col 7: cannot infer ...`).
[[noreturn]] void rethrowAtCaller(const UserError& e) {
    const Diagnostic& d = e.diagnostic();
    throw UserError(Diagnostic{tcWhere(d) + d.message, currentSourceLocation(), d.severity});
}

tc::TcProgram buildFromPython(const std::string& source,
                              const std::map<std::string, int64_t>& sizes,
                              const std::string& file) {
    try {
        tc::TcProgram program = tc::buildTc(source, tc::TcOptions{sizes, file});
        // The app shows its ranges next to InferBound's when its stages are scheduled.
        activeRecorder()->noteTc(std::make_shared<const tc::TcProgram>(program));
        return program;
    } catch (const UserError& e) {
        rethrowAtCaller(e);
    }
}

bool hasStage(const Schedule& sch, const Stage& stage) {
    for (const Stage& s : sch.stages())
        if (s.same_as(stage))
            return true;
    return false;
}

} // namespace

void reverseComputeInlineFromPython(const py::object& self, const py::object& schedule) {
    Stage stage = self.cast<Stage>();
    Schedule sch =
        schedule.is_none() ? activeRecorder()->program().schedule : schedule.cast<Schedule>();
    if (!sch.defined() || !hasStage(sch, stage))
        throw UserError("reverse_compute_inline of stage '" + stage.name() +
                        "': the stage is not in the last schedule created; pass its schedule, "
                        "s[C].reverse_compute_inline(s)");
    stage.reverseComputeInline(sch);
}

void bindTc(py::module_& m) {
    py::class_<tc::InferredRange>(m, "TcRange")
        .def_property_readonly("var", [](const tc::InferredRange& r) { return r.var; })
        .def_property_readonly("min", [](const tc::InferredRange& r) { return r.min; })
        .def_property_readonly("end", [](const tc::InferredRange& r) { return r.end; })
        .def_readonly("round", &tc::InferredRange::round)
        .def_readonly("origin", &tc::InferredRange::origin)
        .def("__str__", &tc::InferredRange::toString)
        .def("__repr__",
             [](const tc::InferredRange& r) { return "TcRange(" + r.toString() + ")"; });
    py::class_<tc::StatementRanges>(m, "TcStatement")
        .def_readonly("tensor", &tc::StatementRanges::tensor)
        .def_readonly("text", &tc::StatementRanges::text)
        .def_readonly("line", &tc::StatementRanges::line)
        .def_readonly("ranges", &tc::StatementRanges::ranges);
    py::class_<tc::TcProgram>(m, "TcProgram")
        .def_readonly("name", &tc::TcProgram::name)
        .def_readonly("inputs", &tc::TcProgram::inputs)
        .def_readonly("outputs", &tc::TcProgram::outputs)
        .def_readonly("statements", &tc::TcProgram::statements)
        .def("ranges_text", &tc::rangesText)
        .def_property_readonly("sizes",
                               [](const tc::TcProgram& p) {
                                   py::dict out;
                                   for (const auto& [name, value] : p.sizes)
                                       out[py::str(name)] = py::cast(value);
                                   return out;
                               })
        .def_property_readonly("warnings", [](const tc::TcProgram& p) {
            std::vector<std::string> out;
            for (const Diagnostic& d : p.warnings)
                out.push_back((d.severity == Severity::Note ? "note: " : "warning: ") + tcWhere(d) +
                              d.message);
            return out;
        });
    m.def("_tc_build", &buildFromPython, py::arg("source"), py::arg("sizes"), py::arg("file") = "",
          Located(), "Builds the stages of a Tensor Comprehensions definition.");
}

} // namespace bs::script
