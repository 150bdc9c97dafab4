/// \file
/// Building a program without typing Python (issue 17, item 5): adding a placeholder, a compute
/// stage or a reduction, renaming and deleting a stage, each written into the script as the TVM
/// code a user would write:
///
///     A = te.placeholder((64, 64), name="A")
///     B = te.compute((64, 64), lambda i, j: A[i, j] * 2, name="B")
///     k = te.reduce_axis((0, 64), name="k")
///     C = te.compute((64,), lambda i: te.sum(B[i, k], axis=k), name="C")
///
/// A new stage goes just before the statement that creates the schedule (at the end of a script
/// that has none yet, with the imports it needs first). A compute stage that reads an output of
/// the schedule becomes the output in its place (`te.create_schedule(C.op)` becomes
/// `te.create_schedule(D.op)`, and `tvm.lower(s, [A, C])` lists D too); one that reads none is
/// added as another output; the first compute stage of a script without a schedule gets
/// `s = te.create_schedule(B.op)`. Renaming changes the tensor's `name=` and the script's
/// variable for it everywhere; deleting removes the stage's definition and the primitives called
/// on it, and is refused while another stage reads it. Like schedule edits, each is checked by
/// running the edited script (EditOptions::verify): a body that is not valid TE is refused with
/// the script's own error, and the file is untouched.
#pragma once

#include "script/edit/ScheduleEdit.h"

#include <string>
#include <utility>
#include <vector>

namespace bs::script {

struct NewStage {
    enum class Kind { Placeholder, Compute, Reduction };
    Kind kind = Kind::Compute;
    std::string name;               ///< the tensor's name and the script's variable for it
    std::vector<std::string> shape; ///< the extents, as Python (`64`, `n`)
    std::string dtype = "float32";  ///< a placeholder's element type
    /// Compute and Reduction: the lambda's parameters, one per dimension (default i, j, k, ...)
    /// and its body over them and the other tensors (`A[i, j] * 2`, `B[i, k]`).
    std::vector<std::string> axes;
    std::string body;
    /// Reduction: the reduce axes (name, extent) and the reducer (`sum`, `max` or `min`).
    std::vector<std::pair<std::string, std::string>> reduceAxes;
    std::string reducer = "sum";
};

/// The default parameter names of a lambda over `dimensions` axes: i, j, k, l, then i4, i5, ...
std::vector<std::string> defaultAxes(size_t dimensions);

/// Writes `stage` into `script` (whose program is `program`, undefined when it defines none).
EditResult addStage(const std::string& script, const std::string& fileName, const Program& program,
                    const NewStage& stage, const EditOptions& options = {});

/// Renames stage `stage` (its engine name) to `newName`: the tensor's `name=` and, when the
/// script holds the tensor in a variable of the same name, that variable everywhere.
EditResult renameStage(const std::string& script, const std::string& fileName,
                       const Program& program, const std::string& stage, const std::string& newName,
                       const EditOptions& options = {});

/// Deletes stage `stage`: its definition, the primitives called on it, and its place in the
/// argument lists of tvm.lower and tvm.build. Refused while another stage reads it or the
/// schedule was created for it.
EditResult deleteStage(const std::string& script, const std::string& fileName,
                       const Program& program, const std::string& stage,
                       const EditOptions& options = {});

} // namespace bs::script
