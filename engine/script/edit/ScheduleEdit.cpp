#include "script/edit/ScheduleEdit.h"

#include "analysis/ScheduleFixes.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "lower/Lower.h"
#include "schedule/Graph.h"
#include "schedule/ReverseComputeInline.h"
#include "script/RecordedRun.h"
#include "script/edit/PythonNames.h"
#include "script/edit/SourceOutline.h"
#include "support/Cancellation.h"
#include "te/Compute.h"
#include "te/Operation.h"

#include <algorithm>
#include <set>

namespace bs::script {

namespace {

IterVar leafNamed(const Stage& stage, const std::string& name) {
    for (const IterVar& iv : stage->leafIterVars) {
        if (iv->var.name() == name)
            return iv;
    }
    return IterVar();
}

std::string leafList(const Stage& stage) {
    std::string list;
    for (const IterVar& iv : stage->leafIterVars)
        list += (list.empty() ? "" : ", ") + iv->var.name();
    return list;
}

bool reads(const Operation& reader, const Operation& producer) {
    for (const Tensor& t : reader->inputTensors()) {
        if (t.op.same_as(producer))
            return true;
    }
    return false;
}

bool isPlaceholder(const Stage& stage) { return stage->op.as<PlaceholderOpNode>() != nullptr; }

bool isScopeName(const std::string& scope) {
    if (scope.empty() || std::isdigit(static_cast<unsigned char>(scope[0])))
        return false;
    return std::all_of(scope.begin(), scope.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
    });
}

// ---- what an edit acts on --------------------------------------------------------------------

/// The stages and loops an edit names, looked up in one schedule (the program's, or the dry
/// run's copy).
struct EditTargets {
    Stage stage;
    IterVar iv;                 ///< IterVar edits
    int leaf = -1;              ///< its position among the leaves
    std::vector<IterVar> more;  ///< Tile's y, Fuse's second, Reorder's rest
    Stage targetStage;          ///< ComputeAt
    IterVar targetIv;           ///< ComputeAt
    std::vector<Stage> readers; ///< CacheRead
};

std::string notALoop(const std::string& iv, const Stage& stage) {
    return "'" + iv + "' is not a loop of stage '" + stage.name() +
           "' (its loops: " + leafList(stage) + ")";
}

/// `no stage 'X' in the schedule`, or that several stages have the name (operations two
/// earlier schedules each named): an edit by that name could act on either.
std::string missingStage(const Schedule& sch, const std::string& name, const std::string& where) {
    if (const int count = stagesNamed(sch, name); count > 1)
        return std::to_string(count) + " stages are named '" + name +
               "': give them names of their own (name=\"...\") to edit one";
    return "no stage '" + name + "' " + where;
}

/// Finds what `edit` names in `sch`; the message when something is missing.
std::string resolve(const Schedule& sch, const ScheduleEdit& edit, EditTargets* out) {
    out->stage = stageNamed(sch, edit.stage);
    if (!out->stage.defined())
        return missingStage(sch, edit.stage, "in the schedule");
    if (isPlaceholder(out->stage) && edit.kind != EditKind::CacheRead)
        return "'" + edit.stage + "' is a placeholder: it has no loops to schedule";
    if (isIterVarEdit(edit.kind)) {
        out->iv = leafNamed(out->stage, edit.iterVar);
        if (!out->iv.defined())
            return notALoop(edit.iterVar, out->stage);
        out->leaf = out->stage.leafIndex(out->iv);
        for (const std::string& name : edit.moreIterVars) {
            out->more.push_back(leafNamed(out->stage, name));
            if (!out->more.back().defined())
                return notALoop(name, out->stage);
        }
    }
    if (edit.kind == EditKind::ComputeAt) {
        out->targetStage = stageNamed(sch, edit.targetStage);
        if (!out->targetStage.defined())
            return missingStage(sch, edit.targetStage, "to compute '" + edit.stage + "' at");
        out->targetIv = leafNamed(out->targetStage, edit.targetIterVar);
        if (!out->targetIv.defined())
            return notALoop(edit.targetIterVar, out->targetStage);
    }
    if (edit.kind == EditKind::CacheRead) {
        for (const Stage& s : readersOf(sch, out->stage)) {
            if (edit.readers.empty() ||
                std::find(edit.readers.begin(), edit.readers.end(), s.name()) != edit.readers.end())
                out->readers.push_back(s);
        }
        for (const std::string& reader : edit.readers) {
            const Stage s = stageNamed(sch, reader);
            if (!s.defined())
                return missingStage(sch, reader, "to read the cache of '" + edit.stage + "'");
            if (!reads(s->op, out->stage->op))
                return "stage '" + reader + "' does not read '" + edit.stage + "'";
        }
        if (out->readers.empty())
            return "no stage reads '" + edit.stage + "': nothing to cache";
    }
    return std::string();
}

/// Checks what the engine cannot (arguments that exist only as text here) and the neighbours
/// fuse and reorder need.
std::string checkArguments(const ScheduleEdit& edit, const EditTargets& t) {
    const int leaves = t.stage.defined() ? int(t.stage->leafIterVars.size()) : 0;
    const std::string loop = "'" + edit.iterVar + "'";
    switch (edit.kind) {
    case EditKind::Split:
        if ((edit.factor > 0) == (edit.nparts > 0))
            return "split of " + loop + " in stage '" + edit.stage +
                   "': give a positive factor or nparts, got " +
                   std::to_string(edit.factor > 0 ? edit.factor : edit.nparts);
        return std::string();
    case EditKind::Tile:
        if (edit.factor <= 0 || edit.yFactor <= 0 || t.more.size() != 1)
            return "tile of stage '" + edit.stage + "': give two loops and two positive factors";
        return std::string();
    case EditKind::Fuse:
        if (t.more.size() > 1)
            return "fuse two loops at a time";
        if (t.more.empty() && t.leaf + 1 >= leaves)
            return loop + " is the innermost loop of stage '" + edit.stage + "'";
        return std::string();
    case EditKind::MoveIn:
        if (t.leaf + 1 >= leaves)
            return loop + " is the innermost loop of stage '" + edit.stage + "'";
        return std::string();
    case EditKind::MoveOut:
        if (t.leaf == 0)
            return loop + " is the outermost loop of stage '" + edit.stage + "'";
        return std::string();
    case EditKind::Bind: {
        const auto& tags = threadTags();
        if (std::find(tags.begin(), tags.end(), edit.thread) == tags.end())
            return "unknown thread axis '" + edit.thread + "'";
        return std::string();
    }
    case EditKind::SetScope:
    case EditKind::CacheRead:
    case EditKind::CacheWrite:
        if (!isScopeName(edit.scope))
            return "invalid storage scope '" + edit.scope + "'";
        return std::string();
    default:
        return std::string();
    }
}

/// The loops a reorder puts in order.
std::vector<IterVar> reorderOf(const ScheduleEdit& edit, const EditTargets& t) {
    const std::vector<IterVar>& leaves = t.stage->leafIterVars;
    switch (edit.kind) {
    case EditKind::MoveOut:
        return {t.iv, leaves[size_t(t.leaf) - 1]};
    case EditKind::MoveIn:
        return {leaves[size_t(t.leaf) + 1], t.iv};
    default: {
        std::vector<IterVar> order{t.iv};
        order.insert(order.end(), t.more.begin(), t.more.end());
        return order;
    }
    }
}

/// Applies `edit` to the schedule `t` was resolved in (the dry run's copy).
void applyEdit(const Schedule& sch, const ScheduleEdit& edit, const EditTargets& t) {
    const Stage& s = t.stage;
    const auto constant = [](int64_t v) { return makeConst(DataType::int32(), v); };
    switch (edit.kind) {
    case EditKind::Split:
        if (edit.nparts > 0)
            s.splitByNParts(t.iv, constant(edit.nparts));
        else
            s.split(t.iv, constant(edit.factor));
        return;
    case EditKind::Tile:
        s.tile(t.iv, t.more[0], constant(edit.factor), constant(edit.yFactor));
        return;
    case EditKind::Fuse:
        s.fuse(t.iv, t.more.empty() ? s->leafIterVars[size_t(t.leaf) + 1] : t.more[0]);
        return;
    case EditKind::Reorder:
    case EditKind::MoveOut:
    case EditKind::MoveIn:
        s.reorder(reorderOf(edit, t));
        return;
    case EditKind::Bind:
        s.bind(t.iv, threadAxis(edit.thread));
        return;
    case EditKind::Vectorize:
        s.vectorize(t.iv);
        return;
    case EditKind::Unroll:
        s.unroll(t.iv);
        return;
    case EditKind::Parallel:
        s.parallel(t.iv);
        return;
    case EditKind::ComputeAt:
        s.computeAt(t.targetStage, t.targetIv);
        return;
    case EditKind::ComputeInline:
        s.computeInline();
        return;
    case EditKind::ComputeRoot:
        s.computeRoot();
        return;
    case EditKind::ReverseComputeInline:
        reverseComputeInline(sch, s);
        return;
    case EditKind::SetScope:
        s.setScope(edit.scope);
        return;
    case EditKind::CacheRead: {
        std::vector<Operation> readers;
        for (const Stage& r : t.readers)
            readers.push_back(r->op);
        sch.cacheRead(s->op.output(0), edit.scope, readers);
        return;
    }
    case EditKind::CacheWrite:
        sch.cacheWrite(s->op.output(0), edit.scope);
        return;
    case EditKind::Rfactor:
        sch.rfactor(s->op.output(0), t.iv);
        return;
    }
}

/// Why `edited` (the schedule after `edit`) leaves a stage computed at a loop its attach stage
/// no longer has, as rfactor does to the stages computed at the reduction's loops; empty when
/// every attachment holds.
std::string strandedAttachment(const Schedule& edited, const ScheduleEdit& edit) {
    for (const Stage& s : edited.stages()) {
        if (s->attachType != AttachType::Scope || !s->attachStage.defined())
            continue;
        const Stage& at = s->attachStage;
        const auto& all = at->allIterVars;
        if (std::any_of(all.begin(), all.end(),
                        [&](const IterVar& iv) { return iv.same_as(s->attachIVar); }))
            continue;
        std::string loops;
        for (const IterVar& leaf : at->leafIterVars)
            loops += (loops.empty() ? "" : ", ") + leaf->var.name();
        return edit.description() + " would strand stage '" + s.name() + "': it is computed at '" +
               s->attachIVar->var.name() + "' of '" + at.name() + "', a loop the edit replaces ('" +
               at.name() + "' loops over " + loops + " after it); compute '" + s.name() +
               "' elsewhere first (compute_root), then " + editKindName(edit.kind);
    }
    return std::string();
}

/// Tries `edit` on a copy of the program's schedule: the engine's message when it refuses.
/// `edited` is the copy after the edit.
std::string dryRun(const Program& program, const ScheduleEdit& edit, Schedule* edited) {
    const Schedule copy = program.schedule.copy();
    *edited = copy;
    EditTargets targets;
    if (std::string error = resolve(copy, edit, &targets); !error.empty())
        return error;
    try {
        applyEdit(copy, edit, targets);
        // What the call accepts but lowering refuses (an output attached, an attach cycle,
        // TVM's timing) is refused here too: the edit would break the program.
        const Schedule normalized = copy.normalize();
        // So is a stage left attached to a loop the edit replaced (rfactor rebuilds the
        // stage's loops): said as what the edit does, with the way out.
        if (std::string stranded = strandedAttachment(copy, edit); !stranded.empty())
            return stranded;
        try {
            createAttachPath(normalized);
        } catch (const UserError& e) {
            return edit.description() +
                   " would leave the schedule invalid: " + e.diagnostic().message;
        }
    } catch (const UserError& e) {
        return e.diagnostic().message;
    } catch (const Cancelled&) {
        throw; // the caller stopped the edit (the app's newer text, the CLI's --timeout)
    } catch (const std::exception& e) { // InternalError: a Boundscope bug, reported, not fatal
        return e.what();
    }
    return std::string();
}

/// What `edit` names in the program, its arguments and the engine's checks on a copy (`edited`,
/// the copy after the edit): the first refusal, or empty.
std::string tryEdit(const Program& program, const ScheduleEdit& edit, EditTargets* targets,
                    Schedule* edited) {
    std::string error = resolve(program.schedule, edit, targets);
    if (error.empty())
        error = checkArguments(edit, *targets);
    if (error.empty())
        error = dryRun(program, edit, edited);
    return error;
}

// ---- the Python -----------------------------------------------------------------------------

/// The text of an edit, and the loops it consumes (split or fused away), by their script names.
struct Written {
    std::string text;
    std::vector<std::string> consumed;
};

Written loopPython(const ScheduleEdit& edit, const EditTargets& t, const PythonNames& names) {
    const std::string stage = names.stage(t.stage);
    const std::string iv = names.iterVar(t.stage, t.iv);
    const std::string& ivName = edit.iterVar;
    switch (edit.kind) {
    case EditKind::Split: {
        const std::string how = edit.nparts > 0 ? "nparts=" + std::to_string(edit.nparts)
                                                : "factor=" + std::to_string(edit.factor);
        return {names.freshName(ivName + "_outer") + ", " + names.freshName(ivName + "_inner") +
                    " = " + stage + ".split(" + iv + ", " + how + ")\n",
                {iv}};
    }
    case EditKind::Tile: {
        const std::string& yName = edit.moreIterVars[0];
        const std::string y = names.iterVar(t.stage, t.more[0]);
        const std::string xo = names.freshName(ivName + "_outer");
        const std::string yo = names.freshName(yName + "_outer");
        const std::string xi = names.freshName(ivName + "_inner");
        const std::string yi = names.freshName(yName + "_inner");
        return {xo + ", " + yo + ", " + xi + ", " + yi + " = " + stage + ".tile(" + iv + ", " + y +
                    ", x_factor=" + std::to_string(edit.factor) +
                    ", y_factor=" + std::to_string(edit.yFactor) + ")\n",
                {iv, y}};
    }
    case EditKind::Fuse: {
        const IterVar other =
            t.more.empty() ? t.stage->leafIterVars[size_t(t.leaf) + 1] : t.more[0];
        const std::string otherExpr = names.iterVar(t.stage, other);
        return {names.freshName(ivName + "_" + other->var.name() + "_fused") + " = " + stage +
                    ".fuse(" + iv + ", " + otherExpr + ")\n",
                {iv, otherExpr}};
    }
    case EditKind::Reorder:
    case EditKind::MoveOut:
    case EditKind::MoveIn: {
        std::vector<std::string> order;
        for (const IterVar& leaf : reorderOf(edit, t))
            order.push_back(names.iterVar(t.stage, leaf));
        return {stage + ".reorder(" + commaJoined(order) + ")\n", {}};
    }
    case EditKind::Bind: {
        bool needsImport = false;
        const std::string thread = names.threadAxis(edit.thread, &needsImport);
        return {std::string(needsImport ? "import tvm\n" : "") + stage + ".bind(" + iv + ", " +
                    thread + ")\n",
                {}};
    }
    case EditKind::Vectorize:
    case EditKind::Unroll:
    case EditKind::Parallel:
        return {stage + "." + editKindName(edit.kind) + "(" + iv + ")\n", {}};
    case EditKind::Rfactor:
        return {names.freshName(edit.stage + "_rf") + " = " + *names.schedule() + ".rfactor(" +
                    names.tensor(t.stage) + ", " + iv + ")\n",
                {}};
    default:
        return {};
    }
}

Written stagePython(const ScheduleEdit& edit, const EditTargets& t, const PythonNames& names) {
    const std::string& s = *names.schedule();
    const std::string stage = names.stage(t.stage);
    const std::string scope = "\"" + edit.scope + "\"";
    switch (edit.kind) {
    case EditKind::ComputeAt:
        return {stage + ".compute_at(" + names.stage(t.targetStage) + ", " +
                    names.iterVar(t.targetStage, t.targetIv) + ")\n",
                {}};
    case EditKind::ComputeInline:
    case EditKind::ComputeRoot:
    case EditKind::ReverseComputeInline:
        return {stage + "." + editKindName(edit.kind) + "()\n", {}};
    case EditKind::SetScope:
        return {stage + ".set_scope(" + scope + ")\n", {}};
    case EditKind::CacheRead: {
        std::vector<std::string> readers;
        for (const Stage& r : t.readers)
            readers.push_back(names.tensor(r));
        return {names.freshName(edit.stage + "_" + edit.scope) + " = " + s + ".cache_read(" +
                    names.tensor(t.stage) + ", " + scope + ", [" + commaJoined(readers) + "])\n",
                {}};
    }
    case EditKind::CacheWrite:
        return {names.freshName(edit.stage + "_" + edit.scope) + " = " + s + ".cache_write(" +
                    names.tensor(t.stage) + ", " + scope + ")\n",
                {}};
    default:
        return {};
    }
}

// ---- where it goes --------------------------------------------------------------------------

/// The methods an edit overrides when it was called before on the same stage (or loop).
std::vector<std::string> overriddenMethods(EditKind kind) {
    switch (kind) {
    case EditKind::SetScope:
        return {"set_scope"};
    case EditKind::ComputeAt:
    case EditKind::ComputeInline:
    case EditKind::ComputeRoot:
        return {"compute_at", "compute_inline", "compute_root"};
    case EditKind::Bind:
        return {"bind"};
    case EditKind::Vectorize:
    case EditKind::Unroll:
    case EditKind::Parallel:
        return {"vectorize", "unroll", "parallel"};
    default:
        return {};
    }
}

class Placement {
public:
    Placement(const std::string& script, const PythonNames& names)
        : m_script(script), m_names(names), m_statements(names.outline().statements),
          m_schedule(*names.schedule()) {}

    /// Whether statement `i` calls a primitive through the schedule variable on `stage`.
    bool isPrimitiveOn(size_t i, const Stage& stage) const {
        const Statement& st = m_statements[i];
        return st.primitive && st.primitive->schedule == m_schedule &&
               m_names.stageOfExpression(st.primitive->stage, int(i)).same_as(stage);
    }

    /// The statement `edit` overrides, or -1.
    int overridden(const ScheduleEdit& edit, const EditTargets& t) const {
        const std::vector<std::string> methods = overriddenMethods(edit.kind);
        if (methods.empty())
            return -1;
        const auto overrides = [&](int i) {
            if (i < 0)
                return false;
            const Statement& st = m_statements[size_t(i)];
            return st.targets.empty() && st.primitive &&
                   std::find(methods.begin(), methods.end(), st.primitive->method) !=
                       methods.end() &&
                   isPrimitiveOn(size_t(i), t.stage);
        };
        if (isIterVarEdit(edit.kind)) {
            // The loop's attribute remembers the line of the call that set it last.
            const IterVarAttr* attr = t.stage.attrOf(t.iv);
            const int at = attr ? m_names.outline().indexAt(m_names.lineOf(attr->location)) : -1;
            return overrides(at) ? at : -1;
        }
        for (int i = int(m_statements.size()) - 1; i >= 0; --i) {
            if (overrides(i))
                return i;
        }
        return -1;
    }

    /// The last statement that binds a name `text` reads (-1 when none).
    int dependencies(const SourceOutline& written) const {
        int last = m_names.scheduleStatement();
        for (const Statement& st : written.statements) {
            for (const std::string& name : st.loads)
                last = std::max(last, m_names.bindingBefore(name, int(m_statements.size())));
        }
        return last;
    }

    /// The last statement reading one of `loops` (loops the edit splits or fuses away).
    int lastReader(const std::vector<std::string>& loops) const {
        int last = -1;
        for (size_t i = 0; i < m_statements.size(); ++i) {
            for (const std::string& loop : loops) {
                if (m_statements[i].reads(loop))
                    last = int(i);
            }
        }
        return last;
    }

    /// Whether statement `i` hands the schedule to something else (tvm.lower, print, a
    /// function), as opposed to calling its primitives or reading its stages (also inside a
    /// `for` or `if` block).
    bool usesSchedule(size_t i) const { return m_statements[i].readsWhole(m_schedule); }

    /// Where an edit of `stage` goes when it replaces nothing: the statement it follows.
    int insertionPoint(const Stage& stage, int dependencies, int skip) const {
        int stageLast = -1;
        for (size_t i = 0; i < m_statements.size(); ++i) {
            if (int(i) != skip && isPrimitiveOn(i, stage))
                stageLast = int(i);
        }
        if (stageLast >= 0)
            return std::max(stageLast, dependencies);
        // A stage without primitives: at the end of the schedule's primitives that follow.
        int after = dependencies;
        for (size_t i = size_t(after + 1); i < m_statements.size() && !usesSchedule(i); ++i) {
            if (m_statements[i].reads(m_schedule))
                after = int(i);
        }
        return after;
    }

    /// The end of the schedule's primitives: after the last statement that calls the schedule
    /// (not counting uses of it), and after `dependencies`.
    int endOfPrimitives(int dependencies, int skip) const {
        int last = dependencies;
        for (size_t i = size_t(std::max(dependencies + 1, 0)); i < m_statements.size(); ++i) {
            if (int(i) != skip && m_statements[i].reads(m_schedule) && !usesSchedule(i))
                last = int(i);
        }
        return last;
    }

    /// Byte offset of the start of the line after statement `i`'s last line.
    size_t lineAfter(int i) const { return nextLineAt(m_script, m_statements[size_t(i)].end); }

private:
    const std::string& m_script;
    const PythonNames& m_names;
    const std::vector<Statement>& m_statements;
    std::string m_schedule;
};

/// Puts `written` into `script` (see the file comment for the rules); `fallback` puts it at the
/// end of the schedule's primitives instead.
EditResult place(const std::string& script, const std::string& fileName, const PythonNames& names,
                 const ScheduleEdit& edit, const EditTargets& t, const Written& written,
                 bool fallback) {
    const Placement placement(script, names);
    const SourceOutline writtenOutline = outlineSource(written.text, fileName);
    const int deps =
        std::max(placement.dependencies(writtenOutline), placement.lastReader(written.consumed));
    const int replaced = placement.overridden(edit, t);
    const auto& statements = names.outline().statements;
    EditResult result;
    result.lines = written.text;
    std::string text = script;
    if (replaced >= 0) {
        const Statement& old = statements[size_t(replaced)];
        result.replaced = script.substr(old.start, old.end - old.start);
        const bool oneLine = std::count(written.text.begin(), written.text.end(), '\n') == 1;
        if (deps < replaced && oneLine && !fallback) { // in place
            text.replace(old.start, old.end - old.start,
                         written.text.substr(0, written.text.size() - 1));
            result.script = text;
            result.line = old.line;
            return result;
        }
    }
    const int after = fallback ? placement.endOfPrimitives(deps, replaced)
                               : placement.insertionPoint(t.stage, deps, replaced);
    size_t at = after < 0 ? 0 : placement.lineAfter(after);
    std::string inserted = written.text;
    if (script.find("\r\n") != std::string::npos) { // the script's line endings
        std::string crlf;
        for (char c : inserted)
            crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
        inserted = crlf;
    }
    if (at == text.size() && !text.empty() && text.back() != '\n')
        inserted = "\n" + inserted;
    if (replaced >= 0) { // the overridden call goes, wherever it is
        const auto [begin, end] = removalRange(script, statements[size_t(replaced)]);
        if (at >= end) {
            text.insert(at, inserted);
            text.erase(begin, end - begin);
            at -= end - begin;
        } else {
            text.erase(begin, end - begin);
            text.insert(at, inserted);
        }
    } else {
        text.insert(at, inserted);
    }
    if (inserted.front() == '\n')
        ++at;
    result.line = lineNumberAt(text, at);
    result.script = text;
    return result;
}

/// The lowered program of `program` as text, or its error: what two schedules are compared by.
std::string loweredText(const Program& program) {
    try {
        return toString(lower(program.schedule, program.args).func.final);
    } catch (const Cancelled&) {
        throw; // not a schedule's error: two cancelled lowerings must not compare equal
    } catch (const std::exception& e) {
        return std::string("error: ") + e.what();
    }
}

/// Why `edited` fails to lower where `original` lowers (with the schedule change that would
/// work, as the engine writes it); empty when it lowers, or when `original` already failed.
std::string breaks(const Program& original, const Program& edited) {
    try {
        lower(edited.schedule, edited.args);
        return std::string();
    } catch (const UserError& e) {
        try {
            lower(original.schedule, original.args);
        } catch (const UserError&) {
            return std::string(); // already broken: the edit may be the user's fix
        }
        const std::string fix = edited.inSourceNamesOf(
            e.diagnostic().fix.empty() ? findScheduleFix(edited, e.diagnostic(), BoundRules::Tvm)
                                       : e.diagnostic().fix);
        return e.diagnostic().message + (fix.empty() ? "" : " (fix: " + fix + ")");
    }
}

/// Runs `edited` and compares the schedule it defines with `expected`: empty when they lower
/// to the same program, else why not.
std::string check(const std::string& edited, const std::string& fileName,
                  const std::string& expected, const ScriptOptions& options) {
    Program got;
    const ScriptResult result = runEditedScript(edited, fileName, options, &got);
    if (!result.ok())
        return result.diagnostic ? result.diagnostic->message : std::string("the script fails");
    if (!got.defined())
        return "it defines no schedule";
    return loweredText(got) == expected ? std::string() : "it gives another schedule";
}

} // namespace

// ---- public ---------------------------------------------------------------------------------

std::string editKindName(EditKind kind) {
    switch (kind) {
    case EditKind::Split:
        return "split";
    case EditKind::Tile:
        return "tile";
    case EditKind::Fuse:
        return "fuse";
    case EditKind::Reorder:
    case EditKind::MoveOut:
    case EditKind::MoveIn:
        return "reorder";
    case EditKind::Bind:
        return "bind";
    case EditKind::Vectorize:
        return "vectorize";
    case EditKind::Unroll:
        return "unroll";
    case EditKind::Parallel:
        return "parallel";
    case EditKind::ComputeAt:
        return "compute_at";
    case EditKind::ComputeInline:
        return "compute_inline";
    case EditKind::ComputeRoot:
        return "compute_root";
    case EditKind::ReverseComputeInline:
        return "reverse_compute_inline";
    case EditKind::SetScope:
        return "set_scope";
    case EditKind::CacheRead:
        return "cache_read";
    case EditKind::CacheWrite:
        return "cache_write";
    case EditKind::Rfactor:
        return "rfactor";
    }
    return std::string();
}

bool isIterVarEdit(EditKind kind) {
    switch (kind) {
    case EditKind::Split:
    case EditKind::Tile:
    case EditKind::Fuse:
    case EditKind::Reorder:
    case EditKind::MoveOut:
    case EditKind::MoveIn:
    case EditKind::Bind:
    case EditKind::Vectorize:
    case EditKind::Unroll:
    case EditKind::Parallel:
    case EditKind::Rfactor:
        return true;
    default:
        return false;
    }
}

std::string ScheduleEdit::description() const {
    const std::string what = editKindName(kind);
    const std::string iv = stage + "." + iterVar;
    switch (kind) {
    case EditKind::Split:
        return nparts > 0 ? "split " + iv + " into " + std::to_string(nparts) + " parts"
                          : "split " + iv + " by " + std::to_string(factor);
    case EditKind::Tile:
        return "tile " + iv + " and " + (moreIterVars.empty() ? "?" : moreIterVars[0]) + " by " +
               std::to_string(factor) + "x" + std::to_string(yFactor);
    case EditKind::Fuse:
        return moreIterVars.empty() ? "fuse " + iv + " with the next loop"
                                    : "fuse " + iv + " with " + moreIterVars[0];
    case EditKind::Reorder:
        return "reorder " + stage + " (" + iterVar + ", " + commaJoined(moreIterVars) + ")";
    case EditKind::MoveOut:
        return "move " + iv + " out";
    case EditKind::MoveIn:
        return "move " + iv + " in";
    case EditKind::Bind:
        return "bind " + iv + " to " + thread;
    case EditKind::ComputeAt:
        return "compute_at " + stage + " \u2192 " + targetStage + "." + targetIterVar;
    case EditKind::SetScope:
    case EditKind::CacheRead:
    case EditKind::CacheWrite:
        return what + " " + stage + " \"" + scope + "\"";
    default:
        return isIterVarEdit(kind) ? what + " " + iv : what + " " + stage;
    }
}

const std::vector<std::string>& threadTags() {
    static const std::vector<std::string> kTags = {"blockIdx.x",  "blockIdx.y",  "blockIdx.z",
                                                   "threadIdx.x", "threadIdx.y", "threadIdx.z",
                                                   "vthread"};
    return kTags;
}

const std::vector<std::string>& storageScopes() {
    static const std::vector<std::string> kScopes = {"shared", "local", "global", "warp"};
    return kScopes;
}

ScriptResult runEditedScript(const std::string& edited, const std::string& fileName,
                             const ScriptOptions& options, Program* program) {
    ScriptRunner runner;
    // The app checks edits as background jobs: a cancelled job interrupts the script too.
    const std::atomic<bool>* cancelled = cancellationFlag();
    return runRecorded(
        runner,
        [&] {
            std::future<ScriptResult> run = runner.startSource(edited, fileName, options);
            while (cancelled &&
                   run.wait_for(std::chrono::milliseconds(20)) != std::future_status::ready) {
                if (*cancelled)
                    runner.interrupt();
            }
            ScriptResult result = run.get();
            // Interrupted by the cancellation, the run says nothing about the edit.
            throwIfCancelled();
            return result;
        },
        program);
}

std::vector<Stage> readersOf(const Schedule& sch, const Stage& producer) {
    std::vector<Stage> readers;
    for (const Stage& s : sch.stages()) {
        if (reads(s->op, producer->op))
            readers.push_back(s);
    }
    return readers;
}

std::string checkEdit(const Program& program, const ScheduleEdit& edit) {
    if (!program.defined())
        return "the script defines no schedule to edit";
    EditTargets targets;
    Schedule edited;
    return tryEdit(program, edit, &targets, &edited);
}

EditResult applyEdit(const std::string& script, const std::string& fileName, const Program& program,
                     const ScheduleEdit& edit, const EditOptions& options) {
    EditResult refused;
    if (!program.defined()) {
        refused.error = "the script defines no schedule to edit";
        return refused;
    }
    try {
        const SourceOutline outline = outlineSource(script, fileName);
        const PythonNames names(outline, program, fileName);
        if (!names.schedule()) {
            refused.error = "the schedule made at line " +
                            std::to_string(program.schedule->location.line) +
                            " is not kept in a top-level variable (write `s = "
                            "te.create_schedule(...)`)";
            return refused;
        }
        EditTargets targets;
        Schedule edited;
        refused.error = tryEdit(program, edit, &targets, &edited);
        if (!refused.error.empty())
            return refused;
        Program expectedProgram = program;
        expectedProgram.schedule = edited;
        // An edit that breaks a program that lowers (a compute_at with no path to the stage's
        // consumers) is refused with lowering's reason and the change that would work.
        if (std::string broken = breaks(program, expectedProgram); !broken.empty()) {
            refused.error = edit.description() + " would break the schedule: " + broken;
            return refused;
        }
        const Written written = isIterVarEdit(edit.kind) ? loopPython(edit, targets, names)
                                                         : stagePython(edit, targets, names);
        EditResult result = place(script, fileName, names, edit, targets, written, false);
        if (!options.verify)
            return result;
        const std::string expected = loweredText(expectedProgram);
        std::string why = check(result.script, fileName, expected, options.run);
        if (why.empty())
            return result;
        EditResult fallback = place(script, fileName, names, edit, targets, written, true);
        if (fallback.script != result.script &&
            check(fallback.script, fileName, expected, options.run).empty())
            return fallback;
        refused.error = "no place in the script gives the schedule the edit was tried on (with `" +
                        written.text.substr(0, written.text.find('\n')) + "` at line " +
                        std::to_string(result.line) + ", " + why +
                        "): write it by hand where the stage's loops are set up";
        return refused;
    } catch (const UserError& e) {
        refused.error = e.diagnostic().message;
        return refused;
    } catch (const Cancelled&) {
        throw;
    } catch (const std::exception& e) { // a Boundscope bug, reported rather than fatal
        refused.error = std::string("internal error: ") + e.what();
        return refused;
    }
}

} // namespace bs::script
