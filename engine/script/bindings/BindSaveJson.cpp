/// tvm.ir.save_json / load_json (schedule/SaveJson.h) between Python values and JSON text; the
/// `tvm` package builds pickling on them (resources/python/tvm/ir.py).

#include "schedule/SaveJson.h"
#include "script/bindings/Bindings.h"
#include "script/bindings/CallGuard.h"
#include "script/bindings/Casters.h"

namespace bs::script {

namespace {

SavedValue toSaved(py::handle value) {
    if (py::isinstance<Node>(value))
        return SavedValue::of(NodeRef(value.cast<Node*>()));
    if (py::isinstance<Tensor>(value))
        return SavedValue::of(value.cast<Tensor>());
    if (py::isinstance<Range>(value))
        return SavedValue::of(value.cast<Range>());
    if (py::isinstance<Stage>(value))
        return SavedValue::of(value.cast<Stage>());
    if (py::isinstance<Schedule>(value))
        return SavedValue::of(value.cast<Schedule>());
    if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
        std::vector<SavedValue> items;
        for (py::handle item : value)
            items.push_back(toSaved(item));
        return SavedValue::array(std::move(items));
    }
    if (value.is_none())
        return SavedValue::of(NodeRef());
    if (auto e = tryConvertExpr(value))
        return SavedValue::of(NodeRef(*e));
    throw py::type_error(
        "save_json: cannot save a " + std::string(py::str(py::type::of(value).attr("__name__"))) +
        " (it saves IR nodes, tensors, ranges, stages, schedules and lists of them)");
}

py::object fromSaved(const SavedValue& value) {
    switch (value.kind) {
    case SavedValue::Kind::Node:
        return value.node.defined() ? wrapNode(value.node.get()) : py::none();
    case SavedValue::Kind::Tensor:
        return py::cast(value.tensor);
    case SavedValue::Kind::Range:
        return py::cast(value.range);
    case SavedValue::Kind::Stage:
        return py::cast(value.stage);
    case SavedValue::Kind::Schedule:
        return py::cast(value.schedule);
    case SavedValue::Kind::Array: {
        py::list items;
        for (const SavedValue& item : value.items)
            items.append(fromSaved(item));
        return items;
    }
    }
    return py::none();
}

} // namespace

void bindSaveJson(py::module_& m) {
    m.def(
        "save_json", [](py::handle value) { return saveJson(toSaved(value)); }, py::arg("node"),
        Located(), "TVM's tvm.ir.save_json: the value as JSON text.");
    m.def(
        "load_json", [](const std::string& text) { return fromSaved(loadJson(text)); },
        py::arg("json_str"), Located(), "TVM's tvm.ir.load_json: the value the text describes.");
}

} // namespace bs::script
