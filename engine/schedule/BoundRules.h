/// \file
/// The rule sets InferBound runs under (DESIGN.md, "InferBound, faithful first"; docs/RULES.md):
/// - `tvm`: TVM's final TE behaviour (TVM_INFERBOUND_NOTES.md).
/// - `tvm-0.5`: the seed's 2019 rules, which are those of TVM v0.5's sources: a fused interval
///   that is neither the whole range nor one point falls back to the whole ranges of both
///   parents (changed by PR #3073, in v0.6.0), a split's inner extent is always its factor
///   (tightening came with PR #4931/#5044, in v0.7.0), and a request is never clamped to the
///   tensor's shape (PR #3526 and #5367). Formerly called `tvm-0.6`, which still parses.
/// - `tight`: ours: exact rectangles with ISL, split remainders.
/// - `compact`: ours: tight's bounds, then each buffer whose consumers read a lattice (a stride
///   per axis) or disjoint boxes stored as exactly those elements (lower/CompactStorage.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace bs {

enum class BoundRules { Tvm, Tvm05, Tight, Compact };

/// `tvm`, `tvm-0.5`, `tight`, `compact`.
const char* boundRulesName(BoundRules rules);
/// Whether InferBound runs the tight rules' refinements under `rules` (tight and compact).
inline bool usesTightBounds(BoundRules rules) {
    return rules == BoundRules::Tight || rules == BoundRules::Compact;
}
/// Every rule set's name, in the order front ends list them.
std::vector<std::string> boundRulesNames();

/// Parses a rule set's name or one of its aliases (`tvm-0.6`, the old name of `tvm-0.5`);
/// nullopt otherwise.
std::optional<BoundRules> parseBoundRules(const std::string& name);

/// parseBoundRules, throwing UserError "unknown rule set 'x': expected tvm, tvm-0.5, tight or
/// compact" for any other name.
BoundRules boundRulesNamed(const std::string& name);

/// Whether `name` is the old name of `tvm-0.5` (`tvm-0.6`), which front ends accept with
/// oldSeedRulesNote().
bool isOldSeedRulesName(const std::string& name);
/// Why `tvm-0.6` is now `tvm-0.5`, for the note a front end prints when it is used.
const char* oldSeedRulesNote();

} // namespace bs
