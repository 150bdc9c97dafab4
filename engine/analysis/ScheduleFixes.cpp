#include "analysis/ScheduleFixes.h"

#include "lower/Lower.h"
#include "schedule/ScheduleErrors.h"
#include "te/Operation.h"

#include <algorithm>
#include <functional>

namespace bs {

int stagesNamed(const Schedule& sch, const std::string& name) {
    return int(std::count_if(sch->stages.begin(), sch->stages.end(),
                             [&](const Stage& s) { return s.name() == name; }));
}

Stage stageNamed(const Schedule& sch, const std::string& name) {
    Stage found;
    for (const Stage& s : sch->stages) {
        if (s.name() != name)
            continue;
        if (found.defined())
            return Stage(); // two of the name: either could be meant
        found = s;
    }
    return found;
}

Stage findStageByName(const Schedule& sch, const std::string& name) {
    Stage found;
    int count = 0;
    std::string all;
    for (const Stage& stage : sch.stages()) {
        all += (all.empty() ? "'" : ", '") + stage.name() + "'";
        if (stage.name() == name) {
            found = found.defined() ? found : stage;
            ++count;
        }
    }
    if (count == 0)
        throw UserError("no stage named '" + name + "'; the stages are " + all);
    if (count > 1)
        throw UserError("stage name '" + name + "' is ambiguous: " + std::to_string(count) +
                        " stages have it; give the tensors distinct names");
    return found;
}

namespace {

/// Whether `program` with `edit` applied to a copy of its schedule lowers under `rules`.
bool worksWith(const Program& program, BoundRules rules,
               const std::function<void(const Schedule&)>& edit) {
    try {
        Schedule copy = program.schedule.copy();
        edit(copy);
        LowerOptions options;
        options.rules = rules;
        options.scalarArgs = program.scalarArgs;
        options.freeScalarsAsParams = true;
        lower(copy, program.args, options);
        return true;
    } catch (const UserError&) {
        return false;
    }
}

std::string attachNoPathFix(const Program& program, const DiagnosticSubject& subject,
                            BoundRules rules) {
    const Stage producer = stageNamed(program.schedule, subject.stage);
    const Stage consumer = stageNamed(program.schedule, subject.consumer);
    // A fix names stages as `s[NAME]`: with two stages of one name (te.compute's default) it
    // could not say which, and the copy would be edited at the first.
    if (!producer.defined() || !consumer.defined() ||
        stagesNamed(program.schedule, subject.stage) > 1 ||
        stagesNamed(program.schedule, subject.consumer) > 1)
        return "";
    // The consumer's leaves that are its root axes, outermost first: attaching there computes
    // what one iteration of that loop reads.
    for (const IterVar& leaf : consumer->leafIterVars) {
        std::string axis = rootAxisName(consumer, leaf);
        if (axis.empty())
            continue;
        bool ok = worksWith(program, rules, [&](const Schedule& copy) {
            Stage p = stageNamed(copy, subject.stage), c = stageNamed(copy, subject.consumer);
            p.computeAt(c, leaf);
        });
        if (ok)
            return "s[" + subject.stage + "].compute_at(s[" + subject.consumer + "], " + axis +
                   ") computes it inside the consumer that reads it";
    }
    if (worksWith(program, rules,
                  [&](const Schedule& copy) { stageNamed(copy, subject.stage).computeRoot(); }))
        return "s[" + subject.stage + "].compute_root() computes all of it before '" +
               subject.consumer + "' runs";
    return "";
}

} // namespace

std::string findScheduleFix(const Program& program, const Diagnostic& error, BoundRules rules) {
    if (!program.defined())
        return "";
    if (error.subject.kind == "attach-no-path")
        return attachNoPathFix(program, error.subject, rules);
    return "";
}

} // namespace bs
