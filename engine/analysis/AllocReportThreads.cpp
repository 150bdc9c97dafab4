// Virtual threads in the allocation report (analysis/AllocReport.h): a buffer whose region holds
// the variable of a virtual thread that runs inside its realize is private to that thread, and
// lowering (lower/StorageFlatten.cpp, as TVM's InjectVirtualThread) gives every thread its own
// copy of the region. The report counts one copy and how many there are, and says why.
#include "analysis/AllocReportInternal.h"

#include "ir/Substitute.h"

#include <algorithm>

namespace bs::alloc {

namespace {

bool isVirtualThread(const IterVar& thread) {
    return thread->threadTag == "vthread" || thread->threadTag == "cthread";
}

bool runsAround(const Nest& around, const Var& var) {
    return std::any_of(around.loops.begin(), around.loops.end(), [&](const Loop* loop) {
        return std::any_of(loop->vars.begin(), loop->vars.end(),
                           [&](const Var& v) { return v.same_as(var); });
    });
}

} // namespace

void addVirtualThreadCopies(const RuleRun& run, const Region& region, const Nest& around,
                            RuleAllocation* a) {
    std::vector<const IterVarNode*> seen;
    for (const auto& [leaf, thread] : run.bindMap) {
        if (!isVirtualThread(thread) ||
            std::find(seen.begin(), seen.end(), thread.get()) != seen.end())
            continue;
        seen.push_back(thread.get());
        bool inRegion = std::any_of(region.begin(), region.end(), [&](const Range& r) {
            return usesVar(r.min, thread->var) || usesVar(r.extent, thread->var);
        });
        if (!inRegion || runsAround(around, thread->var))
            continue;
        auto bound = run.result.bounds.find(thread);
        Range range = bound != run.result.bounds.end() ? bound->second : thread->dom;
        bool varies = false;
        std::optional<int64_t> extent =
            range.defined() ? maxOver(around, range.extent, &varies) : std::nullopt;
        a->virtualThreads.push_back(thread->var.name());
        a->copies =
            a->copies && extent ? std::optional<int64_t>(*a->copies * *extent) : std::nullopt;
    }
    std::sort(a->virtualThreads.begin(), a->virtualThreads.end());
}

void virtualThreadCause(const BufferFacts& facts, std::vector<AllocCause>& out) {
    std::vector<BoundRules> rules;
    const RuleAllocation* shown = nullptr; // the tvm numbers where tvm copies, else the first
    for (const RuleAllocation& a : facts.report->allocations) {
        if (a.copies == 1)
            continue;
        rules.push_back(a.rules);
        if (!shown || a.rules == BoundRules::Tvm)
            shown = &a;
    }
    if (!shown)
        return;
    std::string threads;
    for (const std::string& t : shown->virtualThreads)
        threads += (threads.empty() ? "" : ", ") + t;
    const std::string& name = facts.report->name;
    out.push_back(
        {WasteCause::VirtualThreadCopies, "one copy per virtual thread (not waste)",
         name + " is private to each of the " + countText(shown->copies) + " virtual threads of " +
             threads +
             " (its region holds the thread variable, and the threads run inside its realize): "
             "lowering allocates " +
             countText(shown->allocated) + " elements for each, " + countText(shown->total()) +
             " in all; needed and waste count one copy, touched counts all of them. Each "
             "virtual thread works on its own copy, as in TVM",
         "", rules});
}

} // namespace bs::alloc
