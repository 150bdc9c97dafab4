/// \file
/// Capturing what a script prints. During a run sys.stdout and sys.stderr are file-like sinks
/// that append to the run's OutputCapture, optionally echo to the process's own streams and pass
/// each piece to a callback (the GUI's console). A sink the script kept after its run ends
/// writes nowhere.
#pragma once

#include "script/ScriptRunner.h"

#include <pybind11/pybind11.h>

#include <memory>
#include <string>

namespace bs::script {

class OutputCapture {
public:
    OutputCapture(bool echo, std::function<void(OutputStream, const std::string&)> onOutput)
        : m_echo(echo), m_onOutput(std::move(onOutput)) {}

    /// Appends, echoes and reports `text` unless the capture is closed. Python thread.
    void write(OutputStream stream, const std::string& text);
    /// Ends the capture; later writes are dropped.
    void close() { m_closed = true; }
    const std::string& text(OutputStream stream) const {
        return stream == OutputStream::Stdout ? m_stdout : m_stderr;
    }

private:
    bool m_echo;
    bool m_closed = false;
    std::function<void(OutputStream, const std::string&)> m_onOutput;
    std::string m_stdout;
    std::string m_stderr;
};

/// A Python file-like object (write, flush, isatty, ...) writing to `stream` of `capture`.
pybind11::object makeOutputSink(std::shared_ptr<OutputCapture> capture, OutputStream stream);

/// Binds the sink class into the embedded `_boundscope` module.
void bindOutputSink(pybind11::module_& m);

} // namespace bs::script
