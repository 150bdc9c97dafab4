// parseEdit (edit/ScheduleEdit.h): a primitive call typed as Python, resolved against the script
// and its program into a ScheduleEdit.

#include "analysis/ScheduleFixes.h"
#include "script/edit/PythonNames.h"
#include "script/edit/ScheduleEdit.h"
#include "script/edit/SourceOutline.h"
#include "support/Cancellation.h"
#include "te/Operation.h"

#include <algorithm>
#include <map>
#include <regex>

namespace bs::script {

namespace {

const std::map<std::string, EditKind>& primitives() {
    static const std::map<std::string, EditKind> kPrimitives = {
        {"split", EditKind::Split},
        {"tile", EditKind::Tile},
        {"fuse", EditKind::Fuse},
        {"reorder", EditKind::Reorder},
        {"bind", EditKind::Bind},
        {"vectorize", EditKind::Vectorize},
        {"unroll", EditKind::Unroll},
        {"parallel", EditKind::Parallel},
        {"compute_at", EditKind::ComputeAt},
        {"compute_inline", EditKind::ComputeInline},
        {"compute_root", EditKind::ComputeRoot},
        {"reverse_compute_inline", EditKind::ReverseComputeInline},
        {"set_scope", EditKind::SetScope},
        {"cache_read", EditKind::CacheRead},
        {"cache_write", EditKind::CacheWrite},
        {"rfactor", EditKind::Rfactor},
    };
    return kPrimitives;
}

/// Thrown inside parseEdit; becomes its error.
struct Refusal {
    std::string message;
};

class Resolver {
public:
    Resolver(const SourceOutline& outline, const Program& program, const std::string& fileName)
        : m_names(outline, program, fileName), m_program(program),
          m_end(int(outline.statements.size())) {}

    /// A stage by the script's expression for it (`C`, `s[C]`, `AA`) or its engine name.
    Stage stage(const std::string& text) const {
        std::string inner = text;
        const std::string schedule = m_names.schedule().value_or("s");
        if (inner.rfind(schedule + "[", 0) == 0 && inner.back() == ']')
            inner = inner.substr(schedule.size() + 1, inner.size() - schedule.size() - 2);
        if (Stage found = m_names.stageOfExpression(inner, m_end); found.defined())
            return found;
        if (Stage named = stageNamed(m_program.schedule, inner); named.defined())
            return named;
        std::string list;
        for (const Stage& s : m_program.schedule.stages())
            list += (list.empty() ? "" : ", ") + s.name();
        throw Refusal{"no stage '" + text + "' in the schedule (its stages: " + list + ")"};
    }

    /// A leaf of `stage` by the script's name for it (`xo`, `C.op.axis[0]`) or the engine's
    /// (`i.outer`, also as a string).
    std::string loop(const Stage& stage, const CallArgument& arg) const {
        const std::string text = arg.kind == CallArgument::Kind::String ? arg.value : arg.text;
        if (std::optional<std::string> axis = rootAxis(stage, text))
            return *axis;
        for (const IterVar& leaf : stage->leafIterVars) {
            if (m_names.iterVar(stage, leaf) == text)
                return leaf->var.name();
        }
        for (const IterVar& leaf : stage->leafIterVars) {
            if (leaf->var.name() == text)
                return text;
        }
        std::string list;
        for (const IterVar& leaf : stage->leafIterVars)
            list += (list.empty() ? "" : ", ") + leaf->var.name();
        throw Refusal{"'" + text + "' is not a loop of stage '" + stage.name() +
                      "' (its loops: " + list + ")"};
    }

    /// `T.op.axis[k]` or `s[T].op.reduce_axis[k]` of `stage`: that axis, which must still be a
    /// leaf; nullopt when `text` has another form.
    std::optional<std::string> rootAxis(const Stage& stage, const std::string& text) const {
        static const std::regex kAxis(R"(^(.+)\.op\.(axis|reduce_axis)\[(\d+)\]$)");
        std::smatch m;
        const auto* compute = stage->op.as<ComputeOpNode>();
        if (!compute || !std::regex_match(text, m, kAxis))
            return std::nullopt;
        const Stage named = this->stage(m[1].str());
        if (!named.same_as(stage))
            throw Refusal{"'" + text + "' is an axis of stage '" + named.name() + "', not of '" +
                          stage.name() + "'"};
        const std::vector<IterVar>& axes = m[2] == "axis" ? compute->axis : compute->reduceAxis;
        const size_t index = m[3].length() > 6 ? axes.size() : std::stoul(m[3].str());
        if (index >= axes.size())
            throw Refusal{"'" + text + "': stage '" + stage.name() + "' has " +
                          std::to_string(axes.size()) + " " + m[2].str() + " entries"};
        if (!stage.isLeaf(axes[index]))
            throw Refusal{"'" + text + "' (" + axes[index]->var.name() +
                          ") is no longer a loop of "
                          "stage '" +
                          stage.name() + "': a primitive replaced it"};
        return axes[index]->var.name();
    }

    /// The tag of a thread axis argument: `"threadIdx.x"`, `te.thread_axis("threadIdx.x")`,
    /// or a script variable made by thread_axis.
    std::string threadTag(const CallArgument& arg) const {
        if (arg.kind == CallArgument::Kind::String)
            return arg.value;
        std::string text = arg.text;
        if (arg.kind == CallArgument::Kind::Name) {
            const int at = m_names.bindingBefore(arg.text, m_end);
            if (at >= 0)
                text = m_names.outline().statements[size_t(at)].value;
        }
        const size_t call = text.find("thread_axis(");
        const size_t open = call == std::string::npos ? call : text.find_first_of("'\"", call);
        const size_t close = open == std::string::npos ? open : text.find(text[open], open + 1);
        if (close == std::string::npos)
            throw Refusal{"'" + arg.text +
                          "' is not a thread axis (give a tag such as "
                          "\"threadIdx.x\")"};
        return text.substr(open + 1, close - open - 1);
    }

private:
    PythonNames m_names;
    const Program& m_program;
    int m_end;
};

const CallArgument* keyword(const ParsedCall& call, const std::string& name) {
    const auto it = call.keywords.find(name);
    return it == call.keywords.end() ? nullptr : &it->second;
}

/// Argument `index`, or keyword `keyword`; nullptr when neither was given.
const CallArgument* argument(const ParsedCall& call, size_t index, const std::string& keyword) {
    if (const CallArgument* given = bs::script::keyword(call, keyword))
        return given;
    return index < call.args.size() ? &call.args[index] : nullptr;
}

const CallArgument& required(const ParsedCall& call, size_t index, const std::string& keyword) {
    if (const CallArgument* arg = argument(call, index, keyword))
        return *arg;
    throw Refusal{call.method + " needs its argument '" + keyword + "'"};
}

/// `text` in quotes, unless it is a string literal that has its own.
std::string quotedText(const std::string& text) {
    const bool literal = !text.empty() && (text.front() == '\'' || text.front() == '"');
    return literal ? text : "'" + text + "'";
}

int64_t integer(const ParsedCall& call, const CallArgument& arg, const std::string& what) {
    const bool negative = arg.text.size() > 1 && arg.text[0] == '-' &&
                          std::all_of(arg.text.begin() + 1, arg.text.end(),
                                      [](char c) { return c >= '0' && c <= '9'; });
    if (negative)
        throw Refusal{call.method + ": " + what + " must be a positive integer, got " + arg.text};
    if (arg.kind != CallArgument::Kind::Int)
        throw Refusal{call.method + ": " + what + " must be an integer constant, got " +
                      quotedText(arg.text)};
    try {
        return std::stoll(arg.value);
    } catch (const std::exception&) {
        throw Refusal{call.method + ": " + what + " " + arg.value + " is out of range"};
    }
}

std::string string(const ParsedCall& call, const CallArgument& arg, const std::string& what) {
    if (arg.kind != CallArgument::Kind::String)
        throw Refusal{call.method + ": " + what + " must be a string, got " + quotedText(arg.text)};
    return arg.value;
}

/// Refuses arguments the primitive does not take: more than `positional`, or other keywords.
void expectArguments(const ParsedCall& call, size_t positional,
                     const std::vector<std::string>& keywords) {
    if (call.args.size() > positional)
        throw Refusal{
            call.method + " takes " +
            (positional == 0 ? std::string("no") : "at most " + std::to_string(positional)) +
            " arguments, got " + std::to_string(call.args.size())};
    for (const auto& [name, unused] : call.keywords) {
        if (std::find(keywords.begin(), keywords.end(), name) == keywords.end())
            throw Refusal{call.method + " has no argument '" + name + "'"};
    }
    // `keywords` lists the parameters in order: the first ones given by position.
    for (size_t i = 0; i < call.args.size() && i < keywords.size(); ++i) {
        if (call.keywords.count(keywords[i]))
            throw Refusal{call.method + " got its argument '" + keywords[i] + "' twice"};
    }
}

ScheduleEdit resolveCall(const ParsedCall& call, const Resolver& resolve) {
    const auto kind = primitives().find(call.method);
    if (kind == primitives().end()) {
        std::string list;
        for (const auto& [name, unused] : primitives())
            list += (list.empty() ? "" : ", ") + name;
        throw Refusal{"'" + call.method + "' is not a primitive an edit can make (" + list + ")"};
    }
    ScheduleEdit edit;
    edit.kind = kind->second;
    const Stage stage = resolve.stage(call.receiver);
    edit.stage = stage.name();
    const auto loopArg = [&](size_t index, const std::string& keyword) {
        return resolve.loop(stage, required(call, index, keyword));
    };
    switch (edit.kind) {
    case EditKind::Split:
        expectArguments(call, 2, {"parent", "factor", "nparts"});
        if (keyword(call, "nparts") && (call.args.size() > 1 || keyword(call, "factor")))
            throw Refusal{"split takes factor or nparts, not both"};
        edit.iterVar = loopArg(0, "parent");
        if (const CallArgument* nparts = keyword(call, "nparts"))
            edit.nparts = integer(call, *nparts, "nparts");
        else
            edit.factor = integer(call, required(call, 1, "factor"), "factor");
        break;
    case EditKind::Tile:
        expectArguments(call, 4, {"x_parent", "y_parent", "x_factor", "y_factor"});
        edit.iterVar = loopArg(0, "x_parent");
        edit.moreIterVars = {loopArg(1, "y_parent")};
        edit.factor = integer(call, required(call, 2, "x_factor"), "x_factor");
        edit.yFactor = integer(call, required(call, 3, "y_factor"), "y_factor");
        break;
    case EditKind::Fuse:
    case EditKind::Reorder:
        expectArguments(call, 1000, {});
        if (call.args.empty())
            throw Refusal{call.method + " needs the loops to " + call.method};
        edit.iterVar = resolve.loop(stage, call.args[0]);
        for (size_t i = 1; i < call.args.size(); ++i)
            edit.moreIterVars.push_back(resolve.loop(stage, call.args[i]));
        if (edit.kind == EditKind::Fuse && edit.moreIterVars.size() != 1)
            throw Refusal{"fuse takes two loops of stage '" + edit.stage +
                          "' (a loop and the next one), got " +
                          std::to_string(1 + edit.moreIterVars.size())};
        break;
    case EditKind::Bind:
        expectArguments(call, 2, {"ivar", "thread_ivar"});
        edit.iterVar = loopArg(0, "ivar");
        edit.thread = resolve.threadTag(required(call, 1, "thread_ivar"));
        break;
    case EditKind::Vectorize:
    case EditKind::Unroll:
    case EditKind::Parallel:
        expectArguments(call, 1, {"var"});
        edit.iterVar = loopArg(0, "var");
        break;
    case EditKind::Rfactor:
        expectArguments(call, 1, {"axis"});
        edit.iterVar = loopArg(0, "axis");
        break;
    case EditKind::ComputeAt: {
        expectArguments(call, 2, {"parent", "scope"});
        const Stage target = resolve.stage(required(call, 0, "parent").text);
        edit.targetStage = target.name();
        edit.targetIterVar = resolve.loop(target, required(call, 1, "scope"));
        break;
    }
    case EditKind::SetScope:
    case EditKind::CacheWrite:
        expectArguments(call, 1, {"scope"});
        edit.scope = string(call, required(call, 0, "scope"), "the scope");
        break;
    case EditKind::CacheRead: {
        expectArguments(call, 2, {"scope", "readers"});
        edit.scope = string(call, required(call, 0, "scope"), "the scope");
        if (const CallArgument* readers = argument(call, 1, "readers")) {
            if (readers->kind != CallArgument::Kind::List)
                throw Refusal{"cache_read: readers must be a list of stages, got '" +
                              readers->text + "'"};
            for (const CallArgument& reader : readers->items)
                edit.readers.push_back(resolve.stage(reader.text).name());
        }
        break;
    }
    case EditKind::ComputeInline:
    case EditKind::ComputeRoot:
    case EditKind::ReverseComputeInline:
        expectArguments(call, 0, {});
        break;
    case EditKind::MoveOut:
    case EditKind::MoveIn:
        break;
    }
    return edit;
}

} // namespace

ScheduleEdit parseEdit(const std::string& callText, const std::string& script,
                       const std::string& fileName, const Program& program, std::string* error) {
    error->clear();
    if (!program.defined()) {
        *error = "the script defines no schedule to edit";
        return {};
    }
    try {
        const ParsedCall call = parseCall(callText);
        const SourceOutline outline = outlineSource(script, fileName);
        return resolveCall(call, Resolver(outline, program, fileName));
    } catch (const Refusal& refusal) {
        *error = refusal.message;
    } catch (const UserError& e) {
        *error = e.diagnostic().message;
    } catch (const Cancelled&) {
        throw;
    } catch (const std::exception& e) { // a Boundscope bug, reported rather than fatal
        *error = std::string("internal error: ") + e.what();
    }
    return {};
}

} // namespace bs::script
