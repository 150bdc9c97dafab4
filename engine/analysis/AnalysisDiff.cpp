#include "analysis/AnalysisDiff.h"

#include "analysis/BoundsTable.h"
#include "ir/Printer.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <sstream>

namespace bs {

namespace {

/// Above this many cells the quadratic alignment is not worth it (listings of thousands of lines).
constexpr size_t kMaxAlignCells = size_t(4) << 20;

std::vector<std::string> linesOf(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

std::string loweredText(const Analysis& analysis) {
    return analysis.lowered
               ? toString(analysis.lowered->func.final)
               : "error: " + (analysis.error ? analysis.error->message : "not lowered");
}

/// Pairs the unmatched runs a[i0, i1) and b[j0, j1) in order: Changed, then OnlyA or OnlyB.
void pairRun(const std::vector<std::string>& a, const std::vector<std::string>& b, size_t i0,
             size_t i1, size_t j0, size_t j1, std::vector<LinePair>& out) {
    while (i0 < i1 || j0 < j1) {
        LinePair p;
        if (i0 < i1 && j0 < j1) {
            p = {a[i0] == b[j0] ? DiffMark::Same : DiffMark::Changed, a[i0], b[j0], int(i0 + 1),
                 int(j0 + 1)};
            ++i0;
            ++j0;
        } else if (i0 < i1) {
            p = {DiffMark::OnlyA, a[i0], std::string(), int(i0 + 1), 0};
            ++i0;
        } else {
            p = {DiffMark::OnlyB, std::string(), b[j0], 0, int(j0 + 1)};
            ++j0;
        }
        out.push_back(std::move(p));
    }
}

std::string rangeText(const BoundsRow& row) { return "min=" + row.min + ", ext=" + row.extent; }

std::string markedSide(const std::optional<std::string>& side) { return side.value_or("-"); }

std::string padded(const std::string& text, size_t width) {
    return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

} // namespace

char diffMarkChar(DiffMark mark) {
    switch (mark) {
    case DiffMark::Same:
        return '=';
    case DiffMark::Changed:
        return '~';
    case DiffMark::OnlyA:
        return '<';
    case DiffMark::OnlyB:
        return '>';
    }
    return '?';
}

std::vector<LinePair> alignLines(const std::vector<std::string>& a,
                                 const std::vector<std::string>& b) {
    std::vector<LinePair> out;
    size_t prefix = 0;
    while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix])
        ++prefix;
    size_t suffix = 0;
    while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
           a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
        ++suffix;
    pairRun(a, b, 0, prefix, 0, prefix, out);
    const size_t n = a.size() - prefix - suffix;
    const size_t m = b.size() - prefix - suffix;
    if ((n + 1) * (m + 1) > kMaxAlignCells) {
        pairRun(a, b, prefix, prefix + n, prefix, prefix + m, out);
    } else {
        // lcs[i][j]: the longest common subsequence of a[prefix+i..] and b[prefix+j..].
        std::vector<int> lcs((n + 1) * (m + 1), 0);
        const auto at = [&](size_t i, size_t j) -> int& { return lcs[i * (m + 1) + j]; };
        for (size_t i = n; i-- > 0;) {
            for (size_t j = m; j-- > 0;)
                at(i, j) = a[prefix + i] == b[prefix + j] ? at(i + 1, j + 1) + 1
                                                          : std::max(at(i + 1, j), at(i, j + 1));
        }
        size_t i = 0, j = 0, runI = 0, runJ = 0;
        while (i < n && j < m) {
            if (a[prefix + i] == b[prefix + j]) {
                pairRun(a, b, prefix + runI, prefix + i, prefix + runJ, prefix + j, out);
                out.push_back({DiffMark::Same, a[prefix + i], b[prefix + j], int(prefix + i + 1),
                               int(prefix + j + 1)});
                runI = ++i;
                runJ = ++j;
            } else if (at(i + 1, j) >= at(i, j + 1)) {
                ++i;
            } else {
                ++j;
            }
        }
        pairRun(a, b, prefix + runI, prefix + n, prefix + runJ, prefix + m, out);
    }
    pairRun(a, b, a.size() - suffix, a.size(), b.size() - suffix, b.size(), out);
    return out;
}

AllocReport allocationsToCompare(const Analysis& analysis) {
    AllocReportOptions options = allocReportOptions(analysis.program, analysis.options.rules);
    options.interpreterBudget = 0; // the allocations, not the touched counts
    return allocReport(analysis.program.schedule, options);
}

AnalysisDiff diffAnalyses(const Analysis& a, const Analysis& b, const std::string& labelA,
                          const std::string& labelB, const AllocReport* allocA,
                          const AllocReport* allocB) {
    AnalysisDiff diff;
    diff.labelA = labelA;
    diff.labelB = labelB;
    diff.ir = alignLines(linesOf(loweredText(a)), linesOf(loweredText(b)));
    // Bounds rows matched by (stage, role, name), in A's order then B's own; the k-th row of one
    // key in A with the k-th in B, should a key repeat.
    using RowKey = std::tuple<std::string, std::string, std::string, int>;
    std::map<RowKey, size_t> index;
    std::map<std::tuple<std::string, std::string, std::string>, int> seen;
    for (const BoundsRow& row : boundsTable(a)) {
        const int k = seen[{row.stage, row.role, row.name}]++;
        index[{row.stage, row.role, row.name, k}] = diff.bounds.size();
        diff.bounds.push_back({row.stage, row.role, row.name, rangeText(row), std::nullopt});
    }
    seen.clear();
    for (const BoundsRow& row : boundsTable(b)) {
        const int k = seen[{row.stage, row.role, row.name}]++;
        const auto it = index.find({row.stage, row.role, row.name, k});
        if (it != index.end())
            diff.bounds[it->second].b = rangeText(row);
        else
            diff.bounds.push_back({row.stage, row.role, row.name, std::nullopt, rangeText(row)});
    }
    if (allocA && allocB) {
        const auto side = [](const BufferReport& buffer,
                             BoundRules rules) -> std::optional<std::string> {
            const RuleAllocation* allocation = buffer.allocation(rules);
            return allocation ? std::optional<std::string>(allocation->text()) : std::nullopt;
        };
        // The k-th buffer of a name in A with the k-th of that name in B.
        const auto nth = [](const AllocReport& report, const std::string& name, int k) {
            for (const BufferReport& buffer : report.buffers)
                if (buffer.name == name && k-- == 0)
                    return &buffer;
            return static_cast<const BufferReport*>(nullptr);
        };
        std::map<std::string, int> seen;
        for (const BufferReport& buffer : allocA->buffers) {
            AllocationPair pair{buffer.name, side(buffer, a.options.rules), std::nullopt,
                                buffer.needed, std::nullopt};
            if (const BufferReport* other = nth(*allocB, buffer.name, seen[buffer.name]++)) {
                pair.b = side(*other, b.options.rules);
                pair.neededB = other->needed;
            }
            diff.allocations.push_back(pair);
        }
        seen.clear();
        for (const BufferReport& buffer : allocB->buffers) {
            if (!nth(*allocA, buffer.name, seen[buffer.name]++))
                diff.allocations.push_back({buffer.name, std::nullopt,
                                            side(buffer, b.options.rules), std::nullopt,
                                            buffer.needed});
        }
    }
    return diff;
}

std::string AnalysisDiff::toText() const {
    std::ostringstream os;
    os << "A: " << labelA << "\nB: " << labelB << "\n";
    size_t width = 0, changedLines = 0;
    for (const LinePair& p : ir) {
        width = std::max(width, p.a.size());
        changedLines += p.mark != DiffMark::Same;
    }
    width = std::min<size_t>(width, 64);
    os << "\nlowered IR: " << changedLines << " of " << ir.size() << " lines differ "
       << "(~ changed, < only in A, > only in B)\n";
    for (const LinePair& p : ir)
        os << diffMarkChar(p.mark) << ' ' << padded(p.a, width) << " | " << p.b << '\n';
    size_t changedRows = 0;
    for (const BoundsPair& p : bounds)
        changedRows += p.changed();
    os << "\nbounds: " << changedRows << " of " << bounds.size() << " IterVars differ\n";
    for (const BoundsPair& p : bounds) {
        if (p.changed())
            os << "~ " << p.stage << '.' << p.name << " (" << p.role << ")  " << markedSide(p.a)
               << " | " << markedSide(p.b) << '\n';
    }
    if (!allocations.empty()) {
        size_t changedBuffers = 0;
        for (const AllocationPair& p : allocations)
            changedBuffers += p.changed();
        os << "\nallocations (elements; needed per iteration of the loops around): "
           << changedBuffers << " of " << allocations.size() << " buffers differ\n";
        const auto needed = [](const std::optional<int64_t>& n) {
            return n ? " (needed " + std::to_string(*n) + ")" : std::string();
        };
        for (const AllocationPair& p : allocations)
            os << (p.changed() ? '~' : '=') << ' ' << p.buffer << "  " << markedSide(p.a)
               << needed(p.neededA) << " | " << markedSide(p.b) << needed(p.neededB) << '\n';
    }
    return os.str();
}

std::string AnalysisDiff::toJson(int indent) const {
    using json = nlohmann::ordered_json;
    const auto optional = [](const auto& value) { return value ? json(*value) : json(nullptr); };
    json out{{"a", labelA}, {"b", labelB}};
    json lines = json::array();
    for (const LinePair& p : ir)
        lines.push_back({{"mark", std::string(1, diffMarkChar(p.mark))},
                         {"a", p.lineA ? json(p.a) : json(nullptr)},
                         {"b", p.lineB ? json(p.b) : json(nullptr)},
                         {"line_a", p.lineA ? json(p.lineA) : json(nullptr)},
                         {"line_b", p.lineB ? json(p.lineB) : json(nullptr)}});
    out["ir"] = lines;
    json rows = json::array();
    for (const BoundsPair& p : bounds)
        rows.push_back({{"stage", p.stage},
                        {"role", p.role},
                        {"name", p.name},
                        {"a", optional(p.a)},
                        {"b", optional(p.b)},
                        {"changed", p.changed()}});
    out["bounds"] = rows;
    json buffers = json::array();
    for (const AllocationPair& p : allocations)
        buffers.push_back({{"buffer", p.buffer},
                           {"a", optional(p.a)},
                           {"b", optional(p.b)},
                           {"needed_a", optional(p.neededA)},
                           {"needed_b", optional(p.neededB)},
                           {"changed", p.changed()}});
    out["allocations"] = buffers;
    return out.dump(indent);
}

} // namespace bs
