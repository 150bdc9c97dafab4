/// \file
/// Two analyses side by side (issue 18, item 2): the same script under two rule sets, or two
/// scripts. The lowered IR is aligned line by line (a longest common subsequence, so an inserted
/// loop shifts nothing after it) with each pair marked same, changed, or only on one side; the
/// bounds table and the allocations are matched by stage, role and name, and by buffer.
/// `boundscope diff` prints it; the numbers are the ones `lower`, `bounds` and `alloc` print.
#pragma once

#include "analysis/AllocReport.h"
#include "analysis/Analysis.h"

#include <optional>
#include <string>
#include <vector>

namespace bs {

enum class DiffMark { Same, Changed, OnlyA, OnlyB };

/// `=`, `~`, `<`, `>`.
char diffMarkChar(DiffMark mark);

struct LinePair {
    DiffMark mark = DiffMark::Same;
    std::string a; ///< empty for OnlyB
    std::string b; ///< empty for OnlyA
    int lineA = 0; ///< 1-based; 0 when the side has no line here
    int lineB = 0;
};

/// Aligns `a` and `b`: equal lines pair up along a longest common subsequence, and the lines
/// between two such pairs pair up in order (Changed) with the rest OnlyA or OnlyB. Listings
/// longer than a few thousand lines are aligned by position past their common prefix and
/// suffix.
std::vector<LinePair> alignLines(const std::vector<std::string>& a,
                                 const std::vector<std::string>& b);

struct BoundsPair {
    std::string stage, role, name;
    std::optional<std::string> a; ///< `min=0, ext=64`; nullopt when the side has no such row
    std::optional<std::string> b;
    bool changed() const { return a != b; }
};

struct AllocationPair {
    std::string buffer;
    std::optional<std::string> a; ///< the allocation under that side's rules (RuleAllocation::text)
    std::optional<std::string> b;
    std::optional<int64_t> neededA, neededB;
    bool changed() const { return a != b || neededA != neededB; }
};

struct AnalysisDiff {
    std::string labelA, labelB; ///< `x.py, rules tvm-0.5`
    std::vector<LinePair> ir;
    std::vector<BoundsPair> bounds;
    std::vector<AllocationPair> allocations;

    /// The changed lines, rows and buffers, side by side, each section with its count of
    /// unchanged ones.
    std::string toText() const;
    std::string toJson(int indent = 2) const;
};

/// The allocation report a diff compares for `analysis`: its allocations and needs, without the
/// interpreter's touched counts (a diff shows none). One report covers every rule set, so two
/// analyses of the same program share it. Throws a UserError when the report cannot be made.
AllocReport allocationsToCompare(const Analysis& analysis);

/// Compares two lowered analyses (and, when given, their allocation reports).
AnalysisDiff diffAnalyses(const Analysis& a, const Analysis& b, const std::string& labelA,
                          const std::string& labelB, const AllocReport* allocA = nullptr,
                          const AllocReport* allocB = nullptr);

} // namespace bs
