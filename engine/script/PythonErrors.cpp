#include "script/PythonErrors.h"

#include <cctype>
#include <map>

namespace bs::script {

namespace py = pybind11;

namespace {

/// The line of the innermost traceback entry in `scriptFile`; 0 when the script has none (an
/// error while setting up the run).
int innermostScriptLine(const py::object& trace, const std::string& scriptFile) {
    int line = 0;
    for (py::object tb = trace; tb && !tb.is_none(); tb = tb.attr("tb_next")) {
        py::object file = tb.attr("tb_frame").attr("f_code").attr("co_filename");
        if (py::str(file).cast<std::string>() == scriptFile)
            line = tb.attr("tb_lineno").cast<int>();
    }
    return line;
}

std::string formatTraceback(const py::error_already_set& error) {
    try {
        // A SyntaxError from compile() has no traceback object at all.
        py::object trace = error.trace() ? error.trace() : py::none();
        py::object lines = py::module_::import("traceback")
                               .attr("format_exception")(error.type(), error.value(), trace);
        return py::str("").attr("join")(lines).cast<std::string>();
    } catch (const py::error_already_set&) {
        return error.what();
    }
}

bool isEngineError(const py::error_already_set& error) {
    try {
        py::object tvmError = py::module_::import("_boundscope").attr("TVMError");
        return error.matches(tvmError);
    } catch (const py::error_already_set&) {
        return false;
    }
}

std::string describeValue(const py::error_already_set& error) {
    std::string typeName = py::str(error.type().attr("__name__"));
    if (error.matches(PyExc_SyntaxError)) {
        py::object msg = error.value().attr("msg");
        return typeName + ": " + std::string(py::str(msg));
    }
    std::string text = py::str(error.value());
    if (isEngineError(error))
        return text;
    return text.empty() ? typeName : typeName + ": " + text;
}

/// SystemExit: nullopt for a successful exit, else the message for the user.
std::optional<std::string> describeExit(const py::error_already_set& error) {
    py::object code = error.value().attr("code");
    if (code.is_none())
        return std::nullopt;
    if (PyLong_Check(code.ptr())) {
        long long status = code.cast<long long>();
        if (status == 0)
            return std::nullopt;
        return "script exited with status " + std::to_string(status);
    }
    return std::string(py::str(code));
}

bool isIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// One replacement of inScriptNames: `from` becomes `to` where `followedBy` (kept) comes next;
/// with `wordStart`, only where `from` does not continue an identifier or attribute on its left.
struct CodeRename {
    std::string from, to;
    bool wordStart = true;
    std::string followedBy;
};

/// `text` with every rename made in one pass from left to right, the longest `from` first at
/// each place: what one rename writes is never renamed again (tensor `B` in variable `C` and
/// tensor `C` in variable `D` give `[C]` and `[D]`, not `[D]` twice).
std::string renameCode(const std::string& text, const std::vector<CodeRename>& renames) {
    std::string out;
    for (size_t at = 0; at < text.size();) {
        const CodeRename* best = nullptr;
        for (const CodeRename& r : renames) {
            if (r.from.empty() || text.compare(at, r.from.size(), r.from) != 0 ||
                text.compare(at + r.from.size(), r.followedBy.size(), r.followedBy) != 0)
                continue;
            if (r.wordStart && at > 0 && (isIdentifierChar(text[at - 1]) || text[at - 1] == '.'))
                continue;
            if (!best || r.from.size() > best->from.size())
                best = &r;
        }
        if (best) {
            out += best->to;
            at += best->from.size();
        } else {
            out += text[at++];
        }
    }
    return out;
}

/// The fix written with the script's own names, found in the frame the error was raised from.
std::string inFrameNames(std::string fix, const py::object& trace, const std::string& scriptFile) {
    py::object frame;
    for (py::object tb = trace; tb && !tb.is_none(); tb = tb.attr("tb_next"))
        if (py::str(tb.attr("tb_frame").attr("f_code").attr("co_filename")).cast<std::string>() ==
            scriptFile)
            frame = tb.attr("tb_frame");
    if (!frame)
        return fix;
    ScriptNames names;
    addScriptNames(frame.attr("f_globals").cast<py::dict>(), names);
    addScriptNames(frame.attr("f_locals").cast<py::dict>(), names);
    return inScriptNames(std::move(fix), names);
}

/// The subject and fix an engine UserError carried (bindings/Module.cpp), if it was one.
void readEngineDetails(const py::object& value, Diagnostic& d) {
    try {
        if (py::hasattr(value, "_bs_subject")) {
            auto t = value.attr("_bs_subject").cast<py::tuple>();
            if (t.size() == 8) {
                d.subject.kind = t[0].cast<std::string>();
                d.subject.stage = t[1].cast<std::string>();
                d.subject.iterVar = t[2].cast<std::string>();
                d.subject.otherStage = t[3].cast<std::string>();
                d.subject.consumer = t[4].cast<std::string>();
                // Compared with the program's IterVars, never dereferenced.
                d.subject.iterVarId = reinterpret_cast<const void*>(t[5].cast<uintptr_t>());
                d.location.file = t[6].cast<std::string>();
                d.location.line = t[7].cast<int>();
            }
        }
        if (py::hasattr(value, "_bs_fix"))
            d.fix = value.attr("_bs_fix").cast<std::string>();
    } catch (const py::error_already_set&) {
        // a script's own exception with attributes of these names: not ours, nothing to read
    } catch (const py::cast_error&) {
    }
}

} // namespace

void addScriptNames(const py::dict& scope, ScriptNames& names) {
    for (auto [key, value] : scope) {
        const std::string name = py::str(key);
        const std::string type = py::str(py::type::of(value).attr("__name__"));
        if (name.empty() || name[0] == '_')
            continue;
        if (type == "Schedule" && (names.schedule.empty() || name == "s"))
            names.schedule = name;
        if (type != "Tensor" || !py::hasattr(value, "op"))
            continue;
        const std::string tensor = py::str(value.attr("op").attr("name"));
        auto it = names.variableOfTensor.find(tensor);
        if (it == names.variableOfTensor.end() || name == tensor)
            names.variableOfTensor[tensor] = name;
    }
}

/// The engine names a stage by its tensor's name (`s[B.local]`, `B.op.axis[0]`) and the
/// schedule `s`; the script holds them in variables (`BL`, `sch`).
std::string inScriptNames(std::string fix, const ScriptNames& names) {
    std::vector<CodeRename> renames;
    for (const auto& [tensor, variable] : names.variableOfTensor) {
        if (tensor == variable)
            continue;
        renames.push_back({"[" + tensor + "]", "[" + variable + "]", /*wordStart=*/false, ""});
        renames.push_back({tensor + ".op.", variable + ".op.", true, ""});
    }
    if (!names.schedule.empty() && names.schedule != "s") {
        renames.push_back({"s", names.schedule, true, "["});
        renames.push_back({"s", names.schedule, true, "."});
    }
    return renameCode(fix, renames);
}

std::string toOneLine(const std::string& text) {
    std::string out;
    size_t end = text.find_last_not_of(" \t\r\n");
    for (size_t i = 0; end != std::string::npos && i <= end; ++i) {
        if (text[i] != '\n' && text[i] != '\r') {
            out += text[i];
            continue;
        }
        while (i + 1 <= end && (text[i + 1] == ' ' || text[i + 1] == '\t' || text[i + 1] == '\n'))
            ++i;
        out += ' ';
    }
    return out;
}

std::optional<PythonFailure> describePythonError(const py::error_already_set& error,
                                                 const std::string& scriptFile) {
    PythonFailure failure;
    failure.diagnostic.location = SourceLocation{scriptFile, 0};
    if (error.matches(PyExc_SystemExit)) {
        auto message = describeExit(error);
        if (!message)
            return std::nullopt;
        failure.diagnostic.message = toOneLine(*message);
    } else if (error.matches(PyExc_KeyboardInterrupt)) {
        failure.status = ScriptStatus::Interrupted;
        failure.diagnostic.message = "interrupted";
    } else {
        failure.diagnostic.message = toOneLine(describeValue(error));
        failure.traceback = formatTraceback(error);
        readEngineDetails(error.value(), failure.diagnostic);
        if (!failure.diagnostic.fix.empty() && error.trace()) {
            try {
                failure.diagnostic.fix =
                    inFrameNames(failure.diagnostic.fix, error.trace(), scriptFile);
            } catch (const py::error_already_set&) {
                // a frame whose names cannot be read: the engine's names stay
            }
        }
    }
    // The engine's own line for the error (the compute_at that tvm.lower found invalid), when it
    // is a line of this script; else the script's line the traceback ends at.
    const int engineLine =
        failure.diagnostic.location.file == scriptFile ? failure.diagnostic.location.line : 0;
    failure.diagnostic.location.file = scriptFile;
    int line = 0;
    if (error.matches(PyExc_SyntaxError) && py::hasattr(error.value(), "filename") &&
        py::str(error.value().attr("filename")).cast<std::string>() == scriptFile) {
        py::object lineno = error.value().attr("lineno");
        line = lineno.is_none() ? 0 : lineno.cast<int>();
    } else {
        line = innermostScriptLine(error.trace(), scriptFile);
    }
    failure.diagnostic.location.line = engineLine > 0 ? engineLine : line;
    return failure;
}

} // namespace bs::script
