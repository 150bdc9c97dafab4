/// \file
/// `te.scan` with TVM's defaults: a recurrence whose state is filled in row by row (ScanOpNode
/// in te/Operation.h). The scan axis is `<name>.idx`, of kind Ordered, over
/// [init.shape[0], update.shape[0]).
#pragma once

#include "te/Operation.h"

namespace bs {

/// `te.scan(init, update, state_placeholder, inputs=None, name="scan", tag="")`: one output per
/// state. Every init has the same number of rows; each state, init and update has the same
/// dtype and number of dimensions, and their shapes agree but in the first dimension (an
/// update's has as many rows as its state). Throws UserError naming the scan and the tensor.
std::vector<Tensor> scan(const std::vector<Tensor>& init, const std::vector<Tensor>& update,
                         const std::vector<Tensor>& statePlaceholder,
                         const std::vector<Tensor>& inputs = {}, const std::string& name = "scan",
                         const std::string& tag = "");

} // namespace bs
