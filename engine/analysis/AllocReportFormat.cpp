// Printing the allocation report (analysis/AllocReport.h): an aligned table for
// `boundscope alloc`, then each buffer's computed elements and causes with their hints; and the
// same data as JSON for `--json` and the app.
#include "analysis/AllocReport.h"
#include "analysis/AllocReportInternal.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace bs {

using alloc::countText;

namespace {

/// A table cell for one rule set: the element count (`*` when it varies by iteration), or the
/// size expression when it is symbolic; `x3` after it for one copy per virtual thread of three.
std::string allocationCell(const BufferReport& b, BoundRules rules) {
    const RuleAllocation* a = b.allocation(rules);
    return a ? a->text() : "-";
}

} // namespace

std::string RuleAllocation::text() const {
    if (!allocated)
        return size + copiesSuffix();
    return std::to_string(*allocated) + (varies ? "*" : "") + copiesSuffix();
}

namespace {

/// The copies of the buffer under tvm, the rules the needed and touched counts go with.
std::string tvmCopiesSuffix(const BufferReport& b) {
    const RuleAllocation* tvm = b.allocation(BoundRules::Tvm);
    return tvm ? tvm->copiesSuffix() : "";
}

std::string wasteCell(const BufferReport& b) {
    std::optional<double> w = b.wastePercent();
    if (!w)
        return "-";
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", *w);
    return text;
}

std::string rulesList(const std::vector<BoundRules>& rules) {
    std::string out;
    for (BoundRules r : rules)
        out += (out.empty() ? "" : ", ") + std::string(boundRulesName(r));
    return out;
}

void printTable(std::ostringstream& os, const std::vector<std::vector<std::string>>& rows) {
    std::vector<size_t> width(rows[0].size(), 0);
    for (const auto& row : rows)
        for (size_t i = 0; i < row.size(); ++i)
            width[i] = std::max(width[i], row[i].size());
    for (const auto& row : rows) {
        std::string line;
        for (size_t i = 0; i < row.size(); ++i)
            line +=
                row[i] + (i + 1 < row.size() ? std::string(width[i] - row[i].size() + 2, ' ') : "");
        os << line << "\n";
    }
}

/// `peak/total` from the interpreter, "-" when it did not run.
std::string touchedCell(const BufferReport& b) {
    if (!b.touchedPeak)
        return "-";
    return (b.touchedSampled ? "~" : "") + std::to_string(*b.touchedPeak) + "/" +
           countText(b.touchedTotal);
}

/// "16 (tvm-0.5), 16 (tvm), 16 (tight)" for one number of every rule set.
std::string perRules(const BufferReport& b, std::optional<int64_t> RuleAllocation::*field) {
    std::string out;
    for (size_t i = 0; i < b.allocations.size(); ++i) {
        const RuleAllocation& a = b.allocations[i];
        bool allocated = field == &RuleAllocation::allocated;
        std::string value = allocated && !a.allocated ? a.size : countText(a.*field);
        if (allocated && a.varies)
            value += "*";
        if (allocated && a.copies != 1)
            value += " per virtual thread x " + countText(a.copies) + " = " + countText(a.total());
        out += (i ? ", " : "") + value + " (" + boundRulesName(a.rules) + ")";
    }
    return out;
}

/// The buffer's numbers in full, one line each.
std::string bufferLines(const BufferReport& b) {
    const RuleAllocation* tvm = b.allocation(BoundRules::Tvm);
    bool copies = tvm && tvm->copies != 1;
    std::string out = b.name + ":\n  allocated " + perRules(b, &RuleAllocation::allocated) +
                      "\n  needed " + countText(b.needed) + " per iteration" +
                      (copies ? " and virtual thread" : "");
    if (b.perThread && b.perThread != b.needed)
        out += " (" + std::to_string(*b.perThread) + " per thread)";
    out += ", " + countText(b.distinct) + " over the run";
    if (b.countGivenUp)
        out += " (a count is missing: counting it exactly took ISL past its work limit)";
    out += "\n  computed " + perRules(b, &RuleAllocation::computed);
    if (b.computedRun)
        out += "; the interpreter ran " + std::to_string(*b.computedRun) + " stores (tvm)";
    out += "\n";
    const std::string source = b.touchedCounted ? "(counted from the access sets, tvm)\n"
                               : b.touchedSampled
                                   ? "(interpreter, tvm, in the iterations sampled)\n"
                                   : "(interpreter, tvm)\n";
    if (b.touchedPeak && copies)
        out += "  touched " + std::to_string(*b.touchedPeak) + " in one iteration at most (all " +
               countText(tvm->copies) + " virtual threads); " + countText(b.touchedTotal) +
               " of its " + countText(tvm->total()) + " allocated elements touched at some point " +
               source;
    else if (b.touchedPeak)
        out += "  touched " + std::to_string(*b.touchedPeak) + " in one iteration at most; " +
               countText(b.touchedTotal) + " of its allocated elements touched at some point " +
               source;
    return out;
}

} // namespace

std::string AllocReport::toText() const {
    std::ostringstream os;
    std::vector<std::vector<std::string>> rows{{"buffer", "scope", "tvm-0.5", "tvm", "tight",
                                                "compact", "needed", "touched", "computed",
                                                "waste %", "causes"}};
    bool varies = false, copies = false, unknown = false, givenUp = false, unmeasured = false,
         sampled = false;
    for (const BufferReport& b : buffers) {
        unknown = unknown || !b.needed;
        givenUp = givenUp || (!b.needed && b.countGivenUp);
        unmeasured = unmeasured || !b.touchedPeak;
        sampled = sampled || b.touchedSampled;
        rows.push_back({b.name, b.scope + (b.scopeInferred ? " (inferred)" : ""),
                        allocationCell(b, BoundRules::Tvm05), allocationCell(b, BoundRules::Tvm),
                        tightAvailable ? allocationCell(b, BoundRules::Tight) : "n/a",
                        tightAvailable ? allocationCell(b, BoundRules::Compact) : "n/a",
                        countText(b.needed) + (b.needed ? tvmCopiesSuffix(b) : ""), touchedCell(b),
                        b.allocation(BoundRules::Tvm)
                            ? countText(b.allocation(BoundRules::Tvm)->computed)
                            : "?",
                        wasteCell(b), b.causes.empty() ? "-" : b.causeNames()});
        for (const RuleAllocation& a : b.allocations) {
            varies = varies || (a.allocated && a.varies);
            copies = copies || a.copies != 1;
        }
    }
    printTable(os, rows);
    if (varies)
        os << "* the size changes from one iteration of the loops around the buffer to the next; "
              "the largest is shown\n";
    if (copies)
        os << "NxM: N elements per virtual thread, one copy for each of M virtual threads the "
              "buffer is "
              "private to (N*M allocated); needed and waste % are per virtual thread, touched "
              "spans every copy\n";
    if (!tightAvailable)
        os << "tight, compact: n/a (this build lacks ISL)\n";
    if (unknown)
        os << "?: not one number: it depends on a symbolic size (a te.var shape or factor), or a "
              "read is not quasi-affine and cannot be counted exactly"
           << (givenUp ? ", or counting it exactly would take too long (ISL's work limit)" : "")
           << "\n";
    if (sampled)
        os << "~: measured on a sample: the program computes more than the interpreter's budget, "
              "so it ran about 1 in "
           << std::llround(touchedSampleFactor)
           << " of its iterations (its outer loops thinned); each entry of the buffer's allocation "
              "that ran, ran "
              "whole\n";
    if (unmeasured && !touchedFailure.empty())
        os << "-: not measured: the interpreter stopped (tvm rules): " << touchedFailure << "\n";
    else if (unmeasured)
        os << (touchedSampleFactor > 0 ? "-: not measured: a sampled run measures only the buffers "
                                         "allocated inside the loops it thins\n"
                                       : "-: not measured: the interpreter runs only programs "
                                         "whose sizes are all known, whose arguments hold at most "
                                         "64 million elements (by default), and whose work, "
                                         "sampled if need be, fits its budget\n");
    os << "needed: what one iteration of the loops around the buffer reads of it\n"
          "touched: the most elements one iteration touched / elements of the allocation touched "
          "at some point (interpreter, tvm rules; counted from the access sets instead where the "
          "program computes too much to run whole)\n"
          "compact: tight, with a buffer whose reads are a lattice or disjoint boxes stored as "
          "exactly those\n"
          "computed: iterations of its loop nest under tvm\n"
          "waste %: the share of the "
       << boundRulesName(wasteRules) << " allocation not needed\n";
    for (const BufferReport& b : buffers) {
        os << "\n" << bufferLines(b);
        for (const AllocCause& c : b.causes) {
            os << "  " << wasteCauseName(c.kind) << " [" << rulesList(c.rules) << "]: " << c.summary
               << "\n    " << c.detail << "\n";
            if (!c.hint.empty())
                os << "    hint: " << c.hint << "\n";
        }
    }
    return os.str();
}

std::string AllocReport::toJson(int indent) const {
    using Json = nlohmann::ordered_json;
    auto optional = [](std::optional<int64_t> v) { return v ? Json(*v) : Json(nullptr); };
    Json out;
    out["tight_available"] = tightAvailable;
    out["waste_rules"] = boundRulesName(wasteRules);
    out["touched_sample_factor"] =
        touchedSampleFactor > 0 ? Json(touchedSampleFactor) : Json(nullptr);
    out["touched_failure"] = touchedFailure.empty() ? Json(nullptr) : Json(touchedFailure);
    out["buffers"] = Json::array();
    for (const BufferReport& b : buffers) {
        Json buffer;
        buffer["name"] = b.name;
        buffer["stage"] = b.stage;
        buffer["scope"] = b.scope;
        buffer["scope_inferred"] = b.scopeInferred;
        buffer["output"] = b.isOutput;
        buffer["allocations"] = Json::array();
        for (const RuleAllocation& a : b.allocations)
            buffer["allocations"].push_back({{"rules", boundRulesName(a.rules)},
                                             {"region", a.region},
                                             {"size", a.size},
                                             {"allocated", optional(a.allocated)},
                                             {"varies", a.varies},
                                             {"computed", optional(a.computed)},
                                             {"virtual_threads", a.virtualThreads},
                                             {"copies", optional(a.copies)},
                                             {"allocated_total", optional(a.total())}});
        buffer["needed"] = optional(b.needed);
        buffer["per_thread"] = optional(b.perThread);
        buffer["touched_peak"] = optional(b.touchedPeak);
        buffer["touched_total"] = optional(b.touchedTotal);
        buffer["touched_sampled"] = b.touchedSampled;
        buffer["touched_counted"] = b.touchedCounted;
        buffer["distinct"] = optional(b.distinct);
        buffer["count_given_up"] = b.countGivenUp;
        buffer["computed_run"] = optional(b.computedRun);
        std::optional<double> waste = b.wastePercent();
        buffer["waste_percent"] = waste ? Json(*waste) : Json(nullptr);
        buffer["causes"] = Json::array();
        for (const AllocCause& c : b.causes) {
            Json rules = Json::array();
            for (BoundRules r : c.rules)
                rules.push_back(boundRulesName(r));
            buffer["causes"].push_back({{"kind", wasteCauseName(c.kind)},
                                        {"summary", c.summary},
                                        {"detail", c.detail},
                                        {"hint", c.hint},
                                        {"rules", rules}});
        }
        out["buffers"].push_back(buffer);
    }
    return out.dump(indent);
}

} // namespace bs
