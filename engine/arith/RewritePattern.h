/// \file
/// Private to engine/arith: the pattern matcher behind the rewrite rules (the role of Halide's
/// IRMatch.h and TVM's pattern_match.h, done at run time). A pattern is an ordinary expression
/// built with the operators of ir/Op.h over wildcard variables:
///
///     const auto& [x, y, z, s1, s2, b1, b2, c1, c2, c3, bx, by, bz] = wildcards();
///     RewriteRule{min(x, y) - y, min(x - y, 0)}
///
/// `x y z s1 s2 b1 b2` match any expression (bound again, they must match a structurally equal
/// one), `c1 c2 c3` match integer constants only, `bx by bz` are boolean spellings of the
/// slots of `x y z` (needed because `&&` wants booleans). An integer literal in a pattern matches
/// an integer constant of that value of any type. Matching ignores types; the rules only run
/// on the types they are written for.
///
/// A result template is instantiated by rebuilding it with the ir/Op.h operators, so constant
/// sub-expressions fold (`c1 + c2` becomes one constant) exactly as TVM's `Eval()` does.
#pragma once

#include "ir/Expr.h"

#include <array>
#include <cstdint>
#include <vector>

namespace bs {

class RewriteSimplifier;

enum Slot : uint8_t { kX, kY, kZ, kS1, kS2, kB1, kB2, kC1, kC2, kC3, kSlotCount };

/// The wildcard variables; see the file comment.
struct Wildcards {
    Expr x, y, z, s1, s2, b1, b2, c1, c2, c3, bx, by, bz;
};
const Wildcards& wildcards();

/// What the wildcards of one match stand for.
class Bindings {
public:
    const Expr& operator[](Slot s) const { return m_values[s]; }
    bool has(Slot s) const { return m_values[s].defined(); }
    /// The value of a constant wildcard (c1, c2, c3); an internal error when unbound.
    int64_t c(Slot s) const;

private:
    friend bool matchPattern(const Expr& pattern, const Expr& e, Bindings& bindings);
    std::array<Expr, kSlotCount> m_values;
};

/// Matches `e` against `pattern`, extending `bindings`. On failure `bindings` may hold partial
/// matches: use a fresh Bindings per attempt.
bool matchPattern(const Expr& pattern, const Expr& e, Bindings& bindings);
/// Rebuilds `tmpl` with the wildcards replaced, folding constants; when the result is a bare
/// constant it takes the type `type`.
Expr instantiate(const Expr& tmpl, const Bindings& bindings, DataType type);

/// A side condition on a match; the simplifier proves things for it.
using RuleCondition = bool (*)(const Bindings& b, RewriteSimplifier& s);

/// `pattern` -> `result` when `condition` (if any) holds; a recursive rule simplifies its result
/// again (TVM's TVM_TRY_RECURSIVE_REWRITE).
struct RewriteRule {
    Expr pattern;
    Expr result;
    RuleCondition condition = nullptr;
    bool recursive = false;
};
using RuleTable = std::vector<RewriteRule>;

inline RewriteRule recursiveRule(Expr pattern, Expr result, RuleCondition condition = nullptr) {
    return RewriteRule{std::move(pattern), std::move(result), condition, true};
}

} // namespace bs
