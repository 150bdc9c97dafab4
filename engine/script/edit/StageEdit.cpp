#include "script/edit/StageEdit.h"

#include "analysis/ScheduleFixes.h"
#include "script/PythonThread.h"
#include "script/edit/PythonNames.h"
#include "script/edit/SourceOutline.h"
#include "support/Cancellation.h"
#include "te/Operation.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cctype>
#include <regex>
#include <set>

namespace bs::script {

namespace {

/// Thrown inside the edits; becomes the result's error.
struct Refusal {
    std::string message;
};

/// `text` matched literally inside a regular expression.
std::string escaped(const std::string& text) {
    static const std::regex kSpecial(R"([.^$|()\[\]{}*+?\\])");
    return std::regex_replace(text, kSpecial, R"(\$&)");
}

/// A tuple of extents as Python writes it: `(64,)`, `(64, 64)`.
std::string tupleOf(const std::vector<std::string>& items) {
    return "(" + commaJoined(items) + (items.size() == 1 ? ",)" : ")");
}

/// Byte ranges to replace, applied from the last to the first so offsets stay valid.
struct Change {
    size_t begin;
    size_t end;
    std::string text;
};

/// `text` with `changes` made; insertions at one offset keep the order they were listed in.
std::string applied(std::string text, const std::vector<Change>& changes) {
    std::vector<size_t> order(changes.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return changes[a].begin != changes[b].begin ? changes[a].begin > changes[b].begin : a > b;
    });
    for (size_t k = 1; k < order.size(); ++k) {
        // Sorted last first: a change must end where the one after it begins, or before.
        if (changes[order[k]].end > changes[order[k - 1]].begin)
            throw Refusal{"the edit would change one part of the script twice (statements that "
                          "share a line): make it by hand"};
    }
    for (size_t i : order)
        text.replace(changes[i].begin, changes[i].end - changes[i].begin, changes[i].text);
    return text;
}

/// Deleting statement `st` (support in edit/SourceOutline.h).
Change removal(const std::string& script, const Statement& st) {
    const auto [begin, end] = removalRange(script, st);
    return {begin, end, std::string()};
}

/// The statement that creates the schedule: the program's, else the last `create_schedule(`.
int scheduleStatement(const SourceOutline& outline, const Program& program,
                      const std::string& fileName) {
    const PythonNames names(outline, program, fileName);
    if (program.defined() && names.lineOf(program.schedule->location) > 0)
        return outline.indexAt(names.lineOf(program.schedule->location));
    int found = -1;
    for (size_t i = 0; i < outline.statements.size(); ++i) {
        if (outline.statements[i].value.find("create_schedule(") != std::string::npos)
            found = int(i);
    }
    return found;
}

bool bindsAnywhere(const SourceOutline& outline, const std::string& name) {
    return std::any_of(outline.statements.begin(), outline.statements.end(),
                       [&](const Statement& st) { return st.assigns(name); });
}

/// The stage of `program` named `name`; undefined when there is none (or no program).
Stage stageIn(const Program& program, const std::string& name) {
    return program.defined() ? stageNamed(program.schedule, name) : Stage();
}

Stage requiredStage(const Program& program, const std::string& name) {
    const Stage stage = stageIn(program, name);
    if (!stage.defined())
        throw Refusal{"no stage '" + name + "' in the program"};
    return stage;
}

/// The first list literal in `text` after `from` (its `[` and `]`), or npos.
std::pair<size_t, size_t> listAfter(const std::string& text, size_t from) {
    const size_t open = text.find('[', from);
    if (open == std::string::npos)
        return {std::string::npos, std::string::npos};
    int depth = 0;
    for (size_t i = open; i < text.size(); ++i) {
        depth += text[i] == '[' ? 1 : text[i] == ']' ? -1 : 0;
        if (depth == 0)
            return {open, i};
    }
    return {std::string::npos, std::string::npos};
}

bool containsWord(const std::string& text, const std::string& word) {
    return std::regex_search(text, std::regex("(^|[^\\w.])" + escaped(word) + "($|[^\\w])"));
}

/// The statements that hand the schedule to tvm.lower or tvm.build, with their argument list.
std::vector<std::pair<const Statement*, std::pair<size_t, size_t>>>
argumentLists(const std::string& script, const SourceOutline& outline, const std::string& s) {
    std::vector<std::pair<const Statement*, std::pair<size_t, size_t>>> lists;
    for (const Statement& st : outline.statements) {
        if (!st.readsWhole(s))
            continue;
        const std::string text = script.substr(st.start, st.end - st.start);
        for (const char* call : {"lower(", "build("}) {
            const size_t at = text.find(call);
            if (at == std::string::npos)
                continue;
            const auto [open, close] = listAfter(text, at);
            if (open != std::string::npos)
                lists.push_back({&st, {st.start + open, st.start + close}});
            break;
        }
    }
    return lists;
}

/// The changes that drop `variable` from the argument lists of tvm.lower and tvm.build.
std::vector<Change> droppedArgument(const std::string& script, const SourceOutline& outline,
                                    const std::string& s, const std::string& variable) {
    std::vector<Change> changes;
    for (const auto& [unused, list] : argumentLists(script, outline, s)) {
        const std::string items = script.substr(list.first + 1, list.second - list.first - 1);
        if (items.find_first_of("([{") != std::string::npos || !containsWord(items, variable))
            continue; // nested items are left alone
        std::vector<std::string> kept;
        for (const std::string& item : commaItems(items)) {
            if (item != variable)
                kept.push_back(item);
        }
        changes.push_back({list.first + 1, list.second, commaJoined(kept)});
    }
    return changes;
}

EditResult finish(const std::string& edited, const std::string& fileName,
                  const EditOptions& options, const std::string& stage, int line,
                  const std::string& lines);

/// A tensor the script defines but no stage of the program computes or reads (a placeholder
/// only listed in tvm.lower's arguments): its statement and its place in those lists go.
EditResult deleteUnusedTensor(const std::string& script, const std::string& fileName,
                              const SourceOutline& outline, const std::string& name,
                              const EditOptions& options) {
    const std::regex named("(^|[^\\w])name\\s*=\\s*(['\"])" + escaped(name) + "\\2");
    for (const Statement& st : outline.statements) {
        if (st.targets.size() != 1 ||
            !std::regex_search(script.substr(st.start, st.end - st.start), named))
            continue;
        const std::string variable = st.targets[0];
        for (const Statement& other : outline.statements) {
            const bool lists = other.value.find("lower(") != std::string::npos ||
                               other.value.find("build(") != std::string::npos;
            if (&other != &st && other.reads(variable) && !lists)
                throw Refusal{"'" + name + "' is used at line " + std::to_string(other.line) +
                              ": change that line first"};
        }
        std::vector<Change> changes = {removal(script, st)};
        const int sched = scheduleStatement(outline, Program(), fileName);
        const Statement* create = sched < 0 ? nullptr : &outline.statements[size_t(sched)];
        const std::string s = create && create->targets.size() == 1 ? create->targets[0] : "s";
        for (Change& c : droppedArgument(script, outline, s, variable))
            changes.push_back(c);
        return finish(applied(script, changes), fileName, options, std::string(), st.line,
                      std::string());
    }
    throw Refusal{"no stage or tensor '" + name + "' in the program"};
}

/// The create_schedule call without output `variable`: the other outputs, or, for the only one,
/// the one computed tensor it reads (deleting what addStage added gives the script back).
Change outputReplaced(const std::string& script, const std::string& fileName,
                      const SourceOutline& outline, const Program& program,
                      const PythonNames& names, const Stage& stage, const std::string& variable) {
    const int sched = scheduleStatement(outline, program, fileName);
    if (sched < 0)
        throw Refusal{"cannot find the statement that creates the schedule"};
    const Statement& create = outline.statements[size_t(sched)];
    const std::string call = script.substr(create.start, create.end - create.start);
    const size_t open = call.find("create_schedule(");
    const size_t close = call.rfind(')');
    if (open == std::string::npos || close == std::string::npos)
        throw Refusal{"cannot read the create_schedule call at line " +
                      std::to_string(create.line)};
    const size_t from = open + std::string("create_schedule(").size();
    std::string args = call.substr(from, close - from);
    const std::string inner =
        !args.empty() && args.front() == '[' ? args.substr(1, args.rfind(']') - 1) : args;
    std::vector<std::string> kept;
    for (const std::string& item : commaItems(inner)) {
        if (item != variable + ".op")
            kept.push_back(item);
    }
    if (kept.empty()) {
        std::vector<std::string> computed;
        for (const Tensor& t : stage->originOp->inputTensors()) {
            if (t.op.as<PlaceholderOpNode>())
                continue;
            for (const Stage& s : program.schedule.stages()) {
                if (s->originOp.same_as(t.op))
                    computed.push_back(names.tensor(s));
            }
        }
        if (computed.size() != 1 || computed[0].find('.') != std::string::npos)
            throw Refusal{"the schedule was created for '" + stage.name() +
                          "' alone, and it reads " + std::to_string(computed.size()) +
                          " computed stages: say which is the output first"};
        kept.push_back(computed[0] + ".op");
    }
    args = kept.size() == 1 ? kept[0] : "[" + commaJoined(kept) + "]";
    return {create.start + from, create.start + close, args};
}

/// Runs the edited script: empty when it runs (and, when `stage` is given, defines a stage of
/// that name), else the script's own message.
std::string runs(const std::string& edited, const std::string& fileName, const EditOptions& options,
                 const std::string& stage) {
    if (!options.verify)
        return std::string();
    Program got;
    const ScriptResult result = runEditedScript(edited, fileName, options.run, &got);
    if (!result.ok())
        return result.diagnostic ? result.diagnostic->toString() : std::string("the script fails");
    if (!stage.empty() && !stageIn(got, stage).defined())
        return "the edited script's program has no stage '" + stage + "'";
    return std::string();
}

EditResult finish(const std::string& edited, const std::string& fileName,
                  const EditOptions& options, const std::string& stage, int line,
                  const std::string& lines) {
    EditResult result;
    result.error = runs(edited, fileName, options, stage);
    if (!result.error.empty()) {
        result.error = "the edited script fails: " + result.error;
        return result;
    }
    result.script = edited;
    result.line = line;
    result.lines = lines;
    return result;
}

/// Runs `edit`, turning a Refusal or UserError into the result's error.
template <typename Edit> EditResult guarded(Edit&& edit) {
    try {
        return edit();
    } catch (const Refusal& refusal) {
        EditResult result;
        result.error = refusal.message;
        return result;
    } catch (const UserError& e) {
        EditResult result;
        result.error = e.diagnostic().message;
        return result;
    } catch (const Cancelled&) {
        throw; // the caller stopped the edit (the app's newer text, the CLI's --timeout)
    } catch (const std::exception& e) { // a Boundscope bug, reported rather than fatal
        EditResult result;
        result.error = std::string("internal error: ") + e.what();
        return result;
    }
}

void checkNewName(const SourceOutline& outline, const Program& program, const std::string& name,
                  const std::string& what) {
    if (!isPythonName(name))
        throw Refusal{what + " '" + name + "' is not a Python name"};
    if (bindsAnywhere(outline, name) || stageIn(program, name).defined())
        throw Refusal{"the script already uses the name '" + name + "'"};
}

/// `B = te.compute((64, 64), lambda i, j: A[i, j] * 2, name="B")`, with the reduce axes first.
std::string definition(const NewStage& stage, const std::string& te) {
    const std::string name = "name=\"" + stage.name + "\"";
    if (stage.kind == NewStage::Kind::Placeholder) {
        const std::string dtype = stage.dtype == "float32" ? "" : ", dtype=\"" + stage.dtype + "\"";
        return stage.name + " = " + te + ".placeholder(" + tupleOf(stage.shape) + ", " + name +
               dtype + ")\n";
    }
    std::string text;
    std::string body = stage.body;
    if (stage.kind == NewStage::Kind::Reduction) {
        std::vector<std::string> axes;
        for (const auto& [axis, extent] : stage.reduceAxes) {
            text +=
                axis + " = " + te + ".reduce_axis((0, " + extent + "), name=\"" + axis + "\")\n";
            axes.push_back(axis);
        }
        body = te + "." + stage.reducer + "(" + body +
               ", axis=" + (axes.size() == 1 ? axes[0] : "[" + commaJoined(axes) + "]") + ")";
    }
    return text + stage.name + " = " + te + ".compute(" + tupleOf(stage.shape) + ", lambda " +
           commaJoined(stage.axes) + ": " + body + ", " + name + ")\n";
}

void validate(const NewStage& stage, const SourceOutline& outline, const Program& program) {
    checkNewName(outline, program, stage.name, "the stage name");
    if (stage.shape.empty() ||
        std::any_of(stage.shape.begin(), stage.shape.end(), [](const std::string& e) {
            return e.find_first_not_of(" \t") == std::string::npos;
        }))
        throw Refusal{"give the shape of '" + stage.name + "' (e.g. 64, 64)"};
    if (stage.kind == NewStage::Kind::Placeholder)
        return;
    if (stage.axes.size() != stage.shape.size())
        throw Refusal{"'" + stage.name + "' has " + std::to_string(stage.shape.size()) +
                      " dimensions but " + std::to_string(stage.axes.size()) + " axis names"};
    for (const std::string& axis : stage.axes) {
        if (!isPythonName(axis))
            throw Refusal{"the axis name '" + axis + "' is not a Python name"};
    }
    if (stage.body.find_first_not_of(" \t") == std::string::npos)
        throw Refusal{"give the expression that computes '" + stage.name + "'"};
    if (stage.kind == NewStage::Kind::Reduction) {
        if (stage.reduceAxes.empty())
            throw Refusal{"a reduction needs at least one reduce axis"};
        for (const auto& [axis, extent] : stage.reduceAxes) {
            checkNewName(outline, program, axis, "the reduce axis name");
            if (extent.find_first_not_of(" \t") == std::string::npos)
                throw Refusal{"give the extent of the reduce axis '" + axis + "' (k: 64)"};
        }
        if (stage.reducer != "sum" && stage.reducer != "max" && stage.reducer != "min")
            throw Refusal{"the reducer is sum, max or min, not '" + stage.reducer + "'"};
    }
}

} // namespace

std::vector<std::string> defaultAxes(size_t dimensions) {
    static const char* const kNames[] = {"i", "j", "k", "l"};
    std::vector<std::string> axes;
    for (size_t d = 0; d < dimensions; ++d)
        axes.push_back(d < 4 ? kNames[d] : "i" + std::to_string(d));
    return axes;
}

EditResult addStage(const std::string& script, const std::string& fileName, const Program& program,
                    const NewStage& stage, const EditOptions& options) {
    return guarded([&] {
        const SourceOutline outline = outlineSource(script, fileName);
        validate(stage, outline, program);
        std::optional<std::string> te = teModule(outline);
        std::vector<Change> changes;
        if (!te) { // a new script: its imports first
            changes.push_back({0, 0, "import tvm\nfrom tvm import te\n\n"});
            te = "te";
        }
        const std::string text = definition(stage, *te);
        const bool computes = stage.kind != NewStage::Kind::Placeholder;
        SourceOutline written;
        try {
            written = outlineSource(text, fileName);
        } catch (const UserError& e) {
            throw Refusal{"'" + stage.body + "' is not a Python expression (" +
                          e.diagnostic().message + ")"};
        }
        const int sched = scheduleStatement(outline, program, fileName);
        size_t at = script.size();
        if (sched >= 0) {
            at = lineStartAt(script, outline.statements[size_t(sched)].start);
            changes.push_back({at, at, text});
            if (computes) {
                std::set<std::string> reads;
                for (const Statement& st : written.statements)
                    reads.insert(st.loads.begin(), st.loads.end());
                const Statement& create = outline.statements[size_t(sched)];
                const std::string call = script.substr(create.start, create.end - create.start);
                // The output it reads becomes this stage; else it is one more output.
                std::string replaced;
                for (const std::string& name : reads) {
                    std::smatch m;
                    if (std::regex_search(
                            call, m, std::regex("(^|[^\\w.])(" + escaped(name) + ")\\.op\\b"))) {
                        const size_t pos = create.start + size_t(m.position(2));
                        changes.push_back({pos, pos + name.size(), stage.name});
                        replaced = name;
                        break;
                    }
                }
                if (replaced.empty()) {
                    const size_t open = call.find("create_schedule(");
                    const size_t close = call.rfind(')');
                    if (open == std::string::npos || close == std::string::npos)
                        throw Refusal{"cannot read the create_schedule call at line " +
                                      std::to_string(create.line)};
                    const size_t from = open + std::string("create_schedule(").size();
                    std::string args = call.substr(from, close - from);
                    const bool list = !args.empty() && args.front() == '[';
                    args = list ? args.substr(0, args.rfind(']')) + ", " + stage.name + ".op]"
                                : "[" + args + ", " + stage.name + ".op]";
                    changes.push_back({create.start + from, create.start + close, args});
                }
                const std::string s = create.targets.size() == 1 ? create.targets[0] : "s";
                for (const auto& [st, list] : argumentLists(script, outline, s)) {
                    const std::string items = script.substr(list.first, list.second - list.first);
                    if (!containsWord(items, stage.name) &&
                        (replaced.empty() || containsWord(items, replaced)))
                        changes.push_back({list.second, list.second, ", " + stage.name});
                }
            }
        } else {
            std::string appended = text;
            if (computes)
                appended += "\ns = " + *te + ".create_schedule(" + stage.name + ".op)\n";
            if (!script.empty() && script.back() != '\n')
                appended = "\n" + appended;
            changes.push_back({at, at, appended});
            if (computes && bindsAnywhere(outline, "s"))
                throw Refusal{"the script uses 's' for something else: create the schedule "
                              "first (s = te.create_schedule(...))"};
        }
        const std::string edited = applied(script, changes);
        const size_t defined = edited.find(text);
        return finish(edited, fileName, options, computes ? stage.name : std::string(),
                      defined == std::string::npos ? 0 : lineNumberAt(edited, defined), text);
    });
}

namespace {

/// Where `text` (a statement that assigns an unnamed te.compute, placeholder, extern or scan)
/// takes its `name=` argument: the byte offset of the call's closing parenthesis, and whether a
/// comma goes first; nullopt when the statement is not one (boundscope._source_outline).
std::optional<std::pair<size_t, bool>> nameInsertion(const std::string& text) {
    std::optional<std::pair<size_t, bool>> found;
    PythonThread::instance().call([&] {
        namespace py = pybind11;
        const py::object at =
            py::module_::import("boundscope._source_outline").attr("name_insertion")(text);
        if (!at.is_none())
            found = py::cast<std::pair<size_t, bool>>(at);
    });
    return found;
}

} // namespace

EditResult renameStage(const std::string& script, const std::string& fileName,
                       const Program& program, const std::string& stageName,
                       const std::string& newName, const EditOptions& options) {
    return guarded([&] {
        const SourceOutline outline = outlineSource(script, fileName);
        const Stage stage = requiredStage(program, stageName);
        checkNewName(outline, program, newName, "the new name");
        // Also not a name any scope of the script uses (a function's local would capture it).
        if (std::binary_search(outline.identifiers.begin(), outline.identifiers.end(), newName))
            throw Refusal{"the script already uses the name '" + newName + "'"};
        const Statement* st = outline.statementAt(
            PythonNames(outline, program, fileName).lineOf(stage->originOp->location));
        if (!st)
            throw Refusal{"stage '" + stageName + "' is not made by one statement of the script"};
        const std::string text = script.substr(st->start, st->end - st->start);
        std::vector<Change> changes;
        std::smatch m;
        if (std::regex_search(
                text, m,
                std::regex("(^|[^\\w])name\\s*=\\s*(['\"])" + escaped(stageName) + "\\2"))) {
            const size_t at = st->start + size_t(m.position(0) + m.length(1));
            changes.push_back(
                {at, at + size_t(m.length(0) - m.length(1)), "name=\"" + newName + "\""});
        } else if (const auto insertion = nameInsertion(text)) {
            // A stage the script left unnamed (te.compute's default, which the schedule may
            // have made `compute_1`): the call gets its name.
            const size_t at = st->start + insertion->first;
            changes.push_back(
                {at, at, std::string(insertion->second ? ", " : "") + "name=\"" + newName + "\""});
        } else {
            throw Refusal{"the statement at line " + std::to_string(st->line) +
                          " does not give the name as name=\"" + stageName + "\""};
        }
        // The script's variable of the same name follows.
        if (st->targets.size() == 1 && st->targets[0] == stageName) {
            std::vector<size_t> offsets;
            PythonThread::instance().call([&] {
                namespace py = pybind11;
                offsets =
                    py::cast<std::vector<size_t>>(py::module_::import("boundscope._source_outline")
                                                      .attr("name_offsets")(script, stageName));
            });
            for (size_t offset : offsets)
                changes.push_back({offset, offset + stageName.size(), newName});
        }
        const std::string edited = applied(script, changes);
        return finish(edited, fileName, options, newName, st->line,
                      edited.substr(lineStartAt(edited, st->start),
                                    nextLineAt(edited, lineStartAt(edited, st->start)) -
                                        lineStartAt(edited, st->start)));
    });
}

EditResult deleteStage(const std::string& script, const std::string& fileName,
                       const Program& program, const std::string& stageName,
                       const EditOptions& options) {
    return guarded([&] {
        const SourceOutline outline = outlineSource(script, fileName);
        if (!stageIn(program, stageName).defined())
            return deleteUnusedTensor(script, fileName, outline, stageName, options);
        const Stage stage = requiredStage(program, stageName);
        for (const Stage& s : program.schedule.stages()) {
            for (const Tensor& t : s->op->inputTensors()) {
                if (t.op.same_as(stage->op) || t.op.same_as(stage->originOp))
                    throw Refusal{"stage '" + stageName + "' is read by '" + s.name() +
                                  "': change or delete '" + s.name() + "' first"};
            }
        }
        const Statement* st = outline.statementAt(
            PythonNames(outline, program, fileName).lineOf(stage->originOp->location));
        if (!st || st->targets.size() != 1)
            throw Refusal{"stage '" + stageName + "' is not made by one statement of the script"};
        const std::string variable = st->targets[0];
        std::vector<Change> changes = {removal(script, *st)};
        const PythonNames names(outline, program, fileName);
        const auto& outputs = program.schedule.outputs();
        if (std::any_of(outputs.begin(), outputs.end(),
                        [&](const Operation& o) { return o.same_as(stage->originOp); }))
            changes.push_back(
                outputReplaced(script, fileName, outline, program, names, stage, variable));
        const std::string s = names.schedule().value_or("s");
        for (size_t i = 0; i < outline.statements.size(); ++i) {
            const Statement& other = outline.statements[i];
            if (other.primitive && other.primitive->schedule == s &&
                names.stageOfExpression(other.primitive->stage, int(i)).same_as(stage))
                changes.push_back(removal(script, other));
        }
        for (Change& c : droppedArgument(script, outline, s, variable))
            changes.push_back(c);
        const std::string edited = applied(script, changes);
        return finish(edited, fileName, options, std::string(), st->line, std::string());
    });
}

} // namespace bs::script
