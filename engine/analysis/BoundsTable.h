/// \file
/// Every IterVar of the analysed (normalized) schedule with its range, as `boundscope bounds`
/// prints it and `boundscope diff` compares it: stage, role, name, min, extent, and what a
/// symbolic extent depends on.
#pragma once

#include "analysis/Analysis.h"
#include "analysis/ExtentBound.h"

#include <string>
#include <vector>

namespace bs {

struct BoundsRow {
    std::string stage;
    /// `root` (an axis of the operation), `leaf` (a loop of the nest), `root,leaf` (both), or
    /// `inner` (made by a relation, replaced by others): rebased and split IterVars keep their
    /// parent's name, so the role tells rows with the same name apart.
    std::string role;
    std::string name;
    std::string min;
    std::string extent;
    ExtentBound bound;
};

/// The rows of a lowered analysis, stages in the order InferBound visits them (outputs first);
/// in each stage its roots, then the IterVars between, then its leaves in loop order (outermost
/// first, as a reorder left them).
std::vector<BoundsRow> boundsTable(const Analysis& analysis);

} // namespace bs
