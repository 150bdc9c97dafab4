#include "script/bindings/CallGuard.h"

#include <Python.h>
#include <frameobject.h>

#include <vector>

namespace bs::script {

namespace {

// Both are only touched with the GIL held, which serialises them.
std::string g_activeScriptFile;
std::vector<std::string> g_libraryPaths;

bool startsWith(const std::string& text, const std::string& prefix) {
    return text.compare(0, prefix.size(), prefix) == 0;
}

/// Frames of Boundscope's own package and of Python's frozen import machinery are never the
/// user's line.
bool isLibraryFile(const std::string& file) {
    if (startsWith(file, "<frozen"))
        return true;
    for (const std::string& dir : g_libraryPaths)
        if (startsWith(file, dir))
            return true;
    return false;
}

std::string frameFile(PyFrameObject* frame) {
    PyCodeObject* code = PyFrame_GetCode(frame); // new reference
    const char* utf8 = PyUnicode_AsUTF8(code->co_filename);
    std::string file = utf8 ? utf8 : "";
    Py_DECREF(code);
    if (!utf8)
        PyErr_Clear();
    return file;
}

} // namespace

SourceLocation pythonCallerLocation() {
    SourceLocation inScript;
    SourceLocation outsideLibrary;
    PyFrameObject* frame = PyEval_GetFrame(); // borrowed
    Py_XINCREF(frame);
    // Walk outwards from the innermost frame; the first match of each kind is the innermost.
    while (frame && !inScript.known()) {
        std::string file = frameFile(frame);
        if (!g_activeScriptFile.empty() && file == g_activeScriptFile)
            inScript = SourceLocation{file, PyFrame_GetLineNumber(frame)};
        else if (!outsideLibrary.known() && !isLibraryFile(file))
            outsideLibrary = SourceLocation{file, PyFrame_GetLineNumber(frame)};
        PyFrameObject* back = PyFrame_GetBack(frame); // new reference
        Py_DECREF(frame);
        frame = back;
    }
    Py_XDECREF(frame);
    return inScript.known() ? inScript : outsideLibrary;
}

ScriptCallGuard::ScriptCallGuard() : m_scope(pythonCallerLocation()) {}

void setActiveScriptFile(std::string path) { g_activeScriptFile = std::move(path); }

const std::string& activeScriptFile() { return g_activeScriptFile; }

void addLibraryPath(std::string directory) {
    if (!directory.empty() && directory.back() != '/')
        directory += '/';
    for (const std::string& dir : g_libraryPaths)
        if (dir == directory)
            return;
    g_libraryPaths.push_back(std::move(directory));
}

} // namespace bs::script
