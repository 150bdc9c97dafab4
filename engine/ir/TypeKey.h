/// \file
/// TVM's type keys of the IR's node kinds (`tir.Add`, `tir.For`, `te.ComputeOp`, ...): what
/// save_json writes and `ir_transform`'s `only_enable` names.
#pragma once

#include "ir/Node.h"

#include <optional>
#include <string>

namespace bs {

/// The type key of `node` (a size variable is `tir.SizeVar`).
const char* typeKeyOf(const NodeRef& node);

/// The node kind of a type key (`tir.Var` and `tir.SizeVar` are both Var); nullopt for a key
/// that names no node kind.
std::optional<NodeKind> nodeKindOfTypeKey(const std::string& key);

} // namespace bs
