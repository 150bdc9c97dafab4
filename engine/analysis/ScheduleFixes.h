/// \file
/// Fixes for schedules that fail (issue 13, item 5): for a user error about a schedule, a change
/// the script could make instead, tried on a copy of the schedule first, so that the fix shown
/// beside the message is one that works. Worded as the script would write it, with each tensor
/// named as its operation is (`s[C].compute_at(s[R], R.op.axis[0])`).
#pragma once

#include "analysis/Program.h"
#include "schedule/BoundRules.h"

#include <string>

namespace bs {

/// The stage of `sch` whose name (Stage::name) is `name`, or an undefined Stage when none or
/// several have it: how a fix tried on a copy of a schedule finds the stages the script named.
/// create_schedule names stages apart (schedule/Schedule.h), but two operations that earlier
/// schedules each hold keep their one name in a later schedule of both.
Stage stageNamed(const Schedule& sch, const std::string& name);
/// How many stages of `sch` are named `name`.
int stagesNamed(const Schedule& sch, const std::string& name);

/// The stage named `name` as a user names it (the CLI's `--stage`, `--buffer`). Throws
/// UserError naming the stages there are when none has that name, or when several have it.
Stage findStageByName(const Schedule& sch, const std::string& name);

/// A working fix for `error` (a diagnostic about `program`'s schedule), or an empty string when
/// none is known or none of the candidates lowers. Handles `attach-no-path`: compute the
/// producer at an axis of the consumer that reads it, else at the root.
std::string findScheduleFix(const Program& program, const Diagnostic& error, BoundRules rules);

} // namespace bs
