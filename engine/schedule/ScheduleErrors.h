/// \file
/// The wording of the schedule primitives' user errors, shared so every message has one shape:
/// `<primitive> of '<iv>' in stage '<stage>': <rule broken>`, e.g.
/// `split of 'i' in stage 'C': 'i' is no longer a leaf (it was split into 'i.outer' and
/// 'i.inner')`. The errors carry `currentSourceLocation()` (the script line of the call).
#pragma once

#include "schedule/IterVarRelation.h"

#include <string>
#include <vector>

namespace bs {

/// `split of 'i' in stage 'C'`.
std::string primitiveContext(const std::string& primitive, const IterVar& iv,
                             const std::string& stageName);

/// Throws `UserError("<context>: <rule>")`.
[[noreturn]] void failPrimitive(const std::string& context, const std::string& rule);

/// Why `iv` is not among `leaves`: which relation consumed it (`'i' is no longer a leaf (it was
/// split into 'i.outer' and 'i.inner')`), or that it is not an IterVar of the stage at all.
std::string notLeafReason(const IterVar& iv, const std::vector<IterVar>& all,
                          const std::vector<IterVarRelation>& relations,
                          const std::string& stageName);

/// `(i, j.outer, j.inner)`: IterVar names for messages.
std::string iterVarList(const std::vector<IterVar>& ivs);

} // namespace bs
