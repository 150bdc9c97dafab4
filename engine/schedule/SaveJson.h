/// \file
/// TVM's `tvm.ir.save_json` / `load_json` (and so Python's pickling): an IR node, a tensor, a
/// range, a stage, a schedule, or an array of them, as one JSON text, and back. The text is a
/// graph in the shape of TVM's (`{"root": N, "nodes": [{"type_key": ..., "attrs": {...}}, ...]}`,
/// type keys as TVM names them: `tir.Add`, `te.ComputeOp`, `te.Schedule`, ...); a node reached
/// twice is stored once and loads as one object, so a loaded schedule's stages, its operations'
/// axes and the variables in their bodies refer to each other as the saved ones did, and the
/// loaded schedule lowers to the same program. The attribute names and values are Boundscope's
/// own (TVM's JSON of a program does not load here, nor ours in TVM).
#pragma once

#include "schedule/Schedule.h"

#include <string>
#include <vector>

namespace bs {

/// One value save_json holds.
struct SavedValue {
    enum class Kind : uint8_t { Node, Tensor, Range, Stage, Schedule, Array };

    Kind kind = Kind::Node;
    NodeRef node;      ///< Kind::Node: an expression, statement, IterVar, operation, ...
    Tensor tensor;     ///< Kind::Tensor
    Range range;       ///< Kind::Range
    Stage stage;       ///< Kind::Stage
    Schedule schedule; ///< Kind::Schedule
    std::vector<SavedValue> items; ///< Kind::Array

    static SavedValue of(NodeRef node);
    static SavedValue of(Tensor tensor);
    static SavedValue of(Range range);
    static SavedValue of(Stage stage);
    static SavedValue of(Schedule schedule);
    static SavedValue array(std::vector<SavedValue> items);
};

/// The JSON text of `value`. Source lines (where each operation, IterVar, relation and stage was
/// created) are kept, so errors about a loaded schedule still point at the script that built it.
std::string saveJson(const SavedValue& value);

/// The value `text` describes. Text that is not JSON, not in this format, or describes an
/// invalid program (a reference out of range or of the wrong kind, a cycle of expressions, an
/// ill-typed node) is a UserError starting `load_json: `.
SavedValue loadJson(const std::string& text);

} // namespace bs
