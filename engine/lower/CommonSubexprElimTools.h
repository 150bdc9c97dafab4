/// \file
/// The auxiliary analyses and transformation of common subexpression elimination (seed 001):
/// which computations are eligible, the table of computations a statement or expression does,
/// the direct sub-expressions of a computation, the sorted list of semantic entities, and the
/// replacement of selected expressions. Internal to engine/lower; exposed for its tests.
#pragma once

#include "ir/Equality.h"
#include "ir/Stmt.h"

#include <functional>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

namespace bs::cse {

struct MemoTables;

/// While alive, remembers per expression node what isEligibleComputation and exprComplexity
/// found (on this thread), so that one CSE run decides each node once. Scopes nest.
class AnalysisMemo {
public:
    AnalysisMemo();
    ~AnalysisMemo();
    AnalysisMemo(const AnalysisMemo&) = delete;
    AnalysisMemo& operator=(const AnalysisMemo&) = delete;

private:
    std::unique_ptr<MemoTables> m_tables;
    MemoTables* m_previous;
};

/// A computation that may be put into a variable: not a constant nor a variable, not a
/// ramp/broadcast, not a reduction, and neither being nor containing a load, a tensor read or
/// a call other than a pure math function (TVM's IsEligibleComputation).
bool isEligibleComputation(const Expr& e);
/// Whether the analyses look inside `e`: not inside a let (its bound variable would escape) nor
/// a reduction (its axes are bound inside it).
bool canContainEligibleComputations(const Expr& e);
/// The number of nodes of `e`, the size candidates are sorted by.
size_t exprComplexity(const Expr& e);
/// A hash of `e` that equal expressions (equivalentTerms) share, built from its children's
/// (remembered per node under an AnalysisMemo), so that the nested candidates of a deep
/// expression are told apart in constant time before any structural comparison.
size_t exprHash(const Expr& e);
/// equivalentTerms(a, b), answered by the hashes when they differ.
bool sameComputation(const Expr& a, const Expr& b);
/// The variables `e` reads that are not bound inside `e` itself (by a let).
std::vector<Var> freeVars(const Expr& e);

/// Syntactic computations (structurally equal trees, variables by identity) with the number
/// of times each is done, in order of first appearance so that the pass is deterministic.
class ComputationTable {
public:
    void add(const Expr& computation, size_t count = 1);
    /// Adds every entry of `other` (counts summed).
    void merge(const ComputationTable& other);
    /// The entries present in at least two of three tables, with their counts summed over
    /// all three (TVM's BuildTableForThreeChildrenNode, for the children of a loop or an if).
    static ComputationTable inAtLeastTwo(const ComputationTable& a, const ComputationTable& b,
                                         const ComputationTable& c);
    size_t count(const Expr& computation) const;
    const std::vector<std::pair<Expr, size_t>>& items() const { return m_items; }

private:
    /// exprHash and equivalentTerms: a structural hash of each nested computation of a deep
    /// expression would be quadratic in its depth.
    struct Hash {
        size_t operator()(const Expr& e) const;
    };
    struct Equal {
        bool operator()(const Expr& a, const Expr& b) const;
    };
    std::vector<std::pair<Expr, size_t>> m_items;
    std::unordered_map<Expr, size_t, Hash, Equal> m_index;
};

/// The maximal eligible computations done by `e` (an eligible expression is recorded as a
/// whole; its sub-expressions are only considered later, as direct sub-expressions).
ComputationTable computationsDoneBy(const Expr& e);
/// The same over a statement and everything under it, except for loops and ifs, which do the
/// computations that at least two of their three children (min, extent, body; condition,
/// then, else) do. So nothing is moved above a loop that only its body computes (it may run
/// zero times, and its variables are bound inside), nor above an if what one branch computes.
ComputationTable computationsDoneBy(const Stmt& s);

/// The eligible direct sub-expressions of `e`, looking through non-eligible children that can
/// contain computations, left to right. `(w+x)+(y+z)` gives `w+x` and `y+z`.
std::vector<Expr> directSubexpressions(const Expr& e);

/// Semantic entities: computations merged by equivalentTerms, with summed counts.
using SemanticComputations = std::vector<std::pair<Expr, size_t>>;
SemanticComputations syntacticToSemantic(const ComputationTable& table);
/// Sorts from biggest to smallest; equal sizes keep their order.
void sortBySizeDecreasing(SemanticComputations& computations);
/// Adds each of `exprs` with `count`: to the count of an equivalent entry when there is one,
/// otherwise as a new entry after every entry at least as big (keeping the order).
void insertSorted(SemanticComputations& sorted, const std::vector<Expr>& exprs, size_t count);

/// The replacements one level of the pass decides, in the order it decides them (the biggest
/// computation first), made in one walk. Making them one after the other walked the whole tree
/// once per computation: quadratic in a long expression that repeats many of them.
class Replacements {
public:
    /// Entry i: an eligible expression equivalent to `computation` becomes `var`, a fresh
    /// variable or (`existing`) one a let in scope already holds it in (case 1).
    void add(const Expr& computation, const Var& var, bool existing = false);
    bool empty() const { return m_items.empty(); }
    const Expr& computation(size_t i) const { return m_items[i].first; }
    const Var& var(size_t i) const { return m_items[i].second; }
    /// `e` with entries [first, end) replaced, as replacing with each in turn would: a walk
    /// from the root replaces an expression by its first matching entry, without looking
    /// inside it (an earlier entry is at least as big, so none occurs inside a later one's
    /// match), nor inside expressions that cannot contain eligible computations. A fresh
    /// variable occurs in no entry, so what it rebuilds matches none; an existing variable
    /// can make a rebuilt expression match an entry between two made inside it, so with one
    /// of those among the entries they are made one after the other, a walk each.
    Expr apply(const Expr& e, size_t first, size_t end) const;
    Stmt apply(const Stmt& s, size_t first, size_t end) const;

private:
    friend class ReplacementWalker;
    /// The first entry in [first, end) that `e` is a match for, or `end` when none is.
    size_t match(const Expr& e, size_t first, size_t end) const;
    template <typename T> T applyInTurn(const T& root, size_t first, size_t end) const;
    std::vector<std::pair<Expr, Var>> m_items;
    std::vector<size_t> m_existing;                           ///< the entries of case 1, ascending
    std::unordered_map<size_t, std::vector<size_t>> m_byHash; ///< exprHash -> entries, ascending
};

} // namespace bs::cse
