/// \file
/// The rule sets InferBound runs under (DESIGN.md, "InferBound, faithful first"): `tvm`, TVM's
/// final TE behaviour; the seed's 2019 rules, named after the TVM release whose sources they
/// match; `tight`, ours (exact rectangles with ISL, split remainders).
#pragma once

#include <optional>
#include <string>

namespace bs {

enum class BoundRules { Tvm, Tvm06, Tight };

/// `tvm`, `tvm-0.6`, `tight`.
const char* boundRulesName(BoundRules rules);

/// Parses a rule set's name or one of its aliases; nullopt otherwise.
std::optional<BoundRules> parseBoundRules(const std::string& name);

} // namespace bs
