/// \file
/// Modular facts about integer expressions (TVM's ModularSetAnalyzer): every value of `e` is
/// `coeff * k + base` for some integer k. `o*8 + 3` is (8, 3), a constant 5 is (0, 5), an
/// unknown value is (1, 0). The simplifier uses it to drop `floormod(o*8, 8)` and to prove
/// divisibility.
#pragma once

#include "ir/Expr.h"

#include <cstdint>
#include <string>

namespace bs {

class Analyzer;

/// The set {coeff * k + base | k integer}; coeff >= 0 and, when coeff > 0, 0 <= base < coeff.
struct ModularSet {
    int64_t coeff = 1;
    int64_t base = 0;

    ModularSet() = default;
    /// Normalizes: a negative coeff is flipped, base reduced into [0, coeff).
    ModularSet(int64_t coeff, int64_t base);

    static ModularSet everything() { return {1, 0}; }
    bool isEverything() const { return coeff == 1 && base == 0; }
    bool operator==(const ModularSet& o) const { return coeff == o.coeff && base == o.base; }
    /// Every value either set holds: x = c1*k + b1 or c2*k + b2 means x = g*k + b1 with
    /// g = gcd(c1, c2, b1 - b2).
    ModularSet unionWith(const ModularSet& other) const;
    /// `ModularSet(coeff=8, base=3)`.
    std::string toString() const;
};

/// Evaluates modular sets, knowing the sets of bound variables. Owned by Analyzer.
class ModularSetAnalyzer {
public:
    explicit ModularSetAnalyzer(Analyzer* parent) : m_parent(parent) {}

    ModularSet operator()(const Expr& e) const;
    /// Records what `var` is known to be (from `Analyzer::bind(var, value)`).
    void update(const Var& var, const ModularSet& set, bool allowOverride);

private:
    friend class ModularSetEvaluator;
    Analyzer* m_parent;
    VarMap<ModularSet> m_varSets;
};

/// gcd treating 0 as "no constraint": gcd(0, x) = |x|.
int64_t zeroAwareGcd(int64_t a, int64_t b);

} // namespace bs
