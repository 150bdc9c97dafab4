#include "script/OutputCapture.h"

#include <cstdio>

namespace bs::script {

namespace py = pybind11;

namespace {

struct OutputSink {
    std::shared_ptr<OutputCapture> capture;
    OutputStream stream;
};

} // namespace

void OutputCapture::write(OutputStream stream, const std::string& text) {
    if (m_closed || text.empty())
        return;
    (stream == OutputStream::Stdout ? m_stdout : m_stderr) += text;
    if (m_echo) {
        std::FILE* out = stream == OutputStream::Stdout ? stdout : stderr;
        std::fwrite(text.data(), 1, text.size(), out);
        std::fflush(out);
    }
    if (m_onOutput)
        m_onOutput(stream, text);
}

py::object makeOutputSink(std::shared_ptr<OutputCapture> capture, OutputStream stream) {
    return py::cast(OutputSink{std::move(capture), stream});
}

void bindOutputSink(py::module_& m) {
    py::class_<OutputSink>(m, "_OutputSink")
        .def("write",
             [](OutputSink& sink, const std::string& text) {
                 sink.capture->write(sink.stream, text);
                 return text.size();
             })
        .def("writelines",
             [](OutputSink& sink, const py::iterable& lines) {
                 for (py::handle line : lines)
                     sink.capture->write(sink.stream, line.cast<std::string>());
             })
        .def("flush", [](OutputSink&) {})
        .def("isatty", [](OutputSink&) { return false; })
        .def("writable", [](OutputSink&) { return true; })
        .def("readable", [](OutputSink&) { return false; })
        .def_property_readonly("closed", [](OutputSink&) { return false; })
        .def_property_readonly("encoding", [](OutputSink&) { return "utf-8"; })
        .def_property_readonly("errors", [](OutputSink&) { return "strict"; });
}

} // namespace bs::script
