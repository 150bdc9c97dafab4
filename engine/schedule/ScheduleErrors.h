/// \file
/// The wording of the schedule primitives' user errors, shared so every message has one shape:
/// `<primitive> of '<iv>' in stage '<stage>': <rule broken>`, e.g.
/// `split of 'i' in stage 'C': 'i' is no longer a leaf (it was split into 'i.outer' and
/// 'i.inner')`. The errors carry `currentSourceLocation()` (the script line of the call).
#pragma once

#include "schedule/IterVarRelation.h"
#include "schedule/Stage.h"

#include <string>
#include <vector>

namespace bs {

/// `split of 'i' in stage 'C'`.
std::string primitiveContext(const std::string& primitive, const IterVar& iv,
                             const std::string& stageName);

/// Throws `UserError("<context>: <rule>")`, about `subject` when it is given, with `fix` (a
/// change the script could make instead) when it is not empty.
[[noreturn]] void failPrimitive(const std::string& context, const std::string& rule,
                                DiagnosticSubject subject = {}, std::string fix = "");

/// The fix for an IterVar a primitive cannot use: the IterVars it became (`not-a-leaf`), or the
/// leaves of the stage (`itervar-of-other-stage`).
std::string leafFix(const DiagnosticSubject& subject, const std::vector<IterVar>& leaves,
                    const std::vector<IterVarRelation>& relations, const IterVar& iv);

/// What a "not a leaf" error is about: `itervar-of-other-stage` when `iv` is no IterVar of
/// `stage` at all, else `not-a-leaf`.
DiagnosticSubject leafSubject(const IterVar& iv, const std::vector<IterVar>& all,
                              const std::string& stageName);

/// Why `iv` is not among `leaves`: which relation consumed it (`'i' is no longer a leaf (it was
/// split into 'i.outer' and 'i.inner')`), or that it is not an IterVar of the stage at all.
std::string notLeafReason(const IterVar& iv, const std::vector<IterVar>& all,
                          const std::vector<IterVarRelation>& relations,
                          const std::string& stageName);

/// `(i, j.outer, j.inner)`: IterVar names for messages.
std::string iterVarList(const std::vector<IterVar>& ivs);

/// A diagnostic's subject that is loop `iv` of `stage`.
DiagnosticSubject loopSubject(std::string kind, const Stage& stage, const IterVar& iv);

/// Loop `iv` of `stage` as the script wrote it: the root axis normalize rebased into `iv`, else
/// `iv` itself.
IterVar loopAsWritten(const Stage& stage, const IterVar& iv);

/// How a script names root axis `iv` of `stage` (or its rebased copy): `Y.op.axis[0]`,
/// `Y.op.reduce_axis[1]`; empty for any other loop.
std::string rootAxisName(const Stage& stage, const IterVar& iv);

/// How a script names loop `iv` of `stage`, for fixes it can paste: rootAxisName, else the
/// loop's own name (the script holds it in the variable a split or fuse returned).
std::string scriptNameOf(const Stage& stage, const IterVar& iv);

} // namespace bs
