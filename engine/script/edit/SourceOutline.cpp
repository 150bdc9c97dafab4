#include "script/edit/SourceOutline.h"

#include "script/PythonThread.h"
#include "support/Diagnostic.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cctype>
#include <set>

namespace bs::script {

namespace py = pybind11;

namespace {

py::module_ outlineModule() { return py::module_::import("boundscope._source_outline"); }

std::string text(const py::handle& value) { return py::cast<std::string>(value); }

std::vector<std::string> texts(const py::handle& list) {
    std::vector<std::string> out;
    for (const py::handle item : list)
        out.push_back(text(item));
    return out;
}

PrimitiveCall primitiveOf(const py::dict& record) {
    PrimitiveCall call;
    call.schedule = text(record["schedule"]);
    call.stage = text(record["stage"]);
    call.method = text(record["method"]);
    call.args = texts(record["args"]);
    for (const auto& [key, value] : py::cast<py::dict>(record["keywords"]))
        call.keywords[text(key)] = text(value);
    return call;
}

Statement statementOf(const py::dict& entry) {
    Statement s;
    s.line = py::cast<int>(entry["line"]);
    s.endLine = py::cast<int>(entry["end_line"]);
    s.start = py::cast<size_t>(entry["start"]);
    s.end = py::cast<size_t>(entry["end"]);
    s.binds = texts(entry["binds"]);
    s.loads = texts(entry["loads"]);
    s.bare = texts(entry["bare"]);
    s.targets = texts(entry["targets"]);
    s.value = text(entry["value"]);
    for (const py::handle pair : entry["imports"]) {
        const py::tuple t = py::cast<py::tuple>(pair);
        s.imports.emplace_back(text(t[0]), text(t[1]));
    }
    if (!entry["primitive"].is_none())
        s.primitive = primitiveOf(py::cast<py::dict>(entry["primitive"]));
    return s;
}

CallArgument argumentOf(const py::dict& record) {
    CallArgument a;
    const std::string kind = text(record["kind"]);
    a.text = text(record["text"]);
    if (kind == "name") {
        a.kind = CallArgument::Kind::Name;
    } else if (kind == "string") {
        a.kind = CallArgument::Kind::String;
        a.value = text(record["value"]);
    } else if (kind == "int") {
        a.kind = CallArgument::Kind::Int;
        a.value = text(record["value"]);
    } else if (kind == "list") {
        a.kind = CallArgument::Kind::List;
        for (const py::handle item : record["items"])
            a.items.push_back(argumentOf(py::cast<py::dict>(item)));
    }
    return a;
}

/// The message and line of a SyntaxError being handled.
Diagnostic syntaxError(py::error_already_set& error, const std::string& fileName) {
    Diagnostic d;
    d.location.file = fileName;
    const py::object value = error.value();
    d.message = "SyntaxError: " + text(py::str(value.attr("msg")));
    if (!value.attr("lineno").is_none())
        d.location.line = py::cast<int>(value.attr("lineno"));
    return d;
}

} // namespace

bool isPythonName(const std::string& text) {
    static const std::set<std::string> kKeywords = {
        "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
        "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
        "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
        "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};
    if (text.empty() || std::isdigit(static_cast<unsigned char>(text[0])) || kKeywords.count(text))
        return false;
    return std::all_of(text.begin(), text.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    });
}

std::string commaJoined(const std::vector<std::string>& items) {
    std::string out;
    for (const std::string& item : items)
        out += (out.empty() ? "" : ", ") + item;
    return out;
}

std::vector<std::string> commaItems(const std::string& text) {
    std::vector<std::string> items;
    size_t from = 0;
    while (from <= text.size()) {
        size_t comma = text.find(',', from);
        if (comma == std::string::npos)
            comma = text.size();
        const std::string item = text.substr(from, comma - from);
        const size_t b = item.find_first_not_of(" \t\r\n");
        if (b != std::string::npos)
            items.push_back(item.substr(b, item.find_last_not_of(" \t\r\n") - b + 1));
        from = comma + 1;
    }
    return items;
}

size_t lineStartAt(const std::string& text, size_t offset) {
    const size_t newline = offset == 0 ? std::string::npos : text.rfind('\n', offset - 1);
    return newline == std::string::npos ? 0 : newline + 1;
}

size_t nextLineAt(const std::string& text, size_t offset) {
    const size_t newline = text.find('\n', offset);
    return newline == std::string::npos ? text.size() : newline + 1;
}

int lineNumberAt(const std::string& text, size_t offset) {
    return 1 + int(std::count(text.begin(), text.begin() + long(offset), '\n'));
}

std::pair<size_t, size_t> removalRange(const std::string& script, const Statement& st) {
    const size_t begin = lineStartAt(script, st.start);
    const size_t end = nextLineAt(script, st.end);
    const auto blank = [&](size_t from, size_t to) {
        return script.substr(from, to - from).find_first_not_of(" \t\r\n") == std::string::npos;
    };
    if (blank(begin, st.start) && blank(st.end, end))
        return {begin, end};
    size_t after = st.end;
    while (after < end && (script[after] == ' ' || script[after] == '\t'))
        ++after;
    if (after < end && script[after] == ';') { // `st; next`: st and its `;` go
        ++after;
        while (after < end && (script[after] == ' ' || script[after] == '\t'))
            ++after;
        return {st.start, after};
    }
    size_t before = st.start; // `previous; st`: the `;` before it goes with it
    while (before > begin && (script[before - 1] == ' ' || script[before - 1] == '\t'))
        --before;
    if (before > begin && script[before - 1] == ';')
        --before;
    return {before, st.end};
}

bool Statement::assigns(const std::string& name) const {
    return std::find(binds.begin(), binds.end(), name) != binds.end();
}

bool Statement::reads(const std::string& name) const {
    return std::binary_search(loads.begin(), loads.end(), name);
}

bool Statement::readsWhole(const std::string& name) const {
    return std::binary_search(bare.begin(), bare.end(), name);
}

const Statement* SourceOutline::statementAt(int line) const {
    const int index = indexAt(line);
    return index < 0 ? nullptr : &statements[size_t(index)];
}

int SourceOutline::indexAt(int line) const {
    int found = -1;
    for (size_t i = 0; i < statements.size(); ++i) {
        if (statements[i].line <= line && line <= statements[i].endLine) {
            if (found >= 0)
                return -1; // `B = ...; C = ...`: a line does not tell which statement
            found = int(i);
        }
    }
    return found;
}

SourceOutline outlineSource(const std::string& source, const std::string& fileName) {
    SourceOutline outline;
    std::optional<Diagnostic> failure;
    PythonThread::instance().call([&] {
        try {
            const py::module_ module = outlineModule();
            for (const py::handle entry : module.attr("outline")(source))
                outline.statements.push_back(statementOf(py::cast<py::dict>(entry)));
            outline.identifiers = texts(module.attr("identifiers")(source));
        } catch (py::error_already_set& error) {
            if (error.matches(PyExc_SyntaxError))
                failure = syntaxError(error, fileName);
            else
                failure = Diagnostic{"cannot read the script: " + std::string(error.what()),
                                     SourceLocation{fileName, 0}};
        }
    });
    if (failure)
        throw UserError(*failure);
    return outline;
}

ParsedCall parseCall(const std::string& callText) {
    ParsedCall call;
    std::optional<std::string> failure;
    PythonThread::instance().call([&] {
        try {
            const py::dict record = outlineModule().attr("parse_call")(callText);
            call.receiver = text(record["receiver"]);
            call.method = text(record["method"]);
            for (const py::handle arg : record["args"])
                call.args.push_back(argumentOf(py::cast<py::dict>(arg)));
            for (const auto& [key, value] : py::cast<py::dict>(record["keywords"]))
                call.keywords[text(key)] = argumentOf(py::cast<py::dict>(value));
        } catch (py::error_already_set& error) {
            if (error.matches(PyExc_SyntaxError))
                failure =
                    "'" + callText + "' is not Python: " + text(py::str(error.value().attr("msg")));
            else if (error.matches(PyExc_ValueError))
                failure = "'" + callText + "': " + text(py::str(error.value()));
            else
                failure = "'" + callText + "': " + std::string(error.what());
        }
    });
    if (failure)
        throw UserError(*failure);
    return call;
}

} // namespace bs::script
