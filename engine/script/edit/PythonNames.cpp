#include "script/edit/PythonNames.h"

#include "te/Operation.h"

#include <algorithm>
#include <cctype>

namespace bs::script {

namespace {

/// Names a fresh variable should not take: Python's keywords, and builtins a script may use.
bool isTaken(const std::string& word) {
    static const std::set<std::string> kBuiltins = {"print", "range", "len", "list", "tuple"};
    return !isPythonName(word) || kBuiltins.count(word) > 0;
}

/// `s.stages[3]` or `s.stages[3].op.output(0)` -> 3.
std::optional<size_t> stagesIndex(const std::string& text, const std::string& schedule) {
    const std::string prefix = schedule + ".stages[";
    if (text.rfind(prefix, 0) != 0)
        return std::nullopt;
    const size_t close = text.find(']', prefix.size());
    if (close == std::string::npos)
        return std::nullopt;
    const std::string rest = text.substr(close + 1);
    if (!rest.empty() && rest != ".op.output(0)")
        return std::nullopt;
    const std::string digits = text.substr(prefix.size(), close - prefix.size());
    if (digits.empty() || digits.size() > 6 ||
        !std::all_of(digits.begin(), digits.end(), ::isdigit))
        return std::nullopt;
    return std::stoul(digits);
}

bool sameIterVar(const IterVar& a, const IterVar& b) { return a.same_as(b); }

} // namespace

PythonNames::PythonNames(const SourceOutline& outline, const Program& program, std::string fileName)
    : m_outline(outline), m_sch(program.schedule), m_file(std::move(fileName)),
      m_identifiers(outline.identifiers.begin(), outline.identifiers.end()) {
    if (m_sch.defined() && lineOf(m_sch->location) > 0)
        m_schedule = finalTarget(lineOf(m_sch->location), 0, 1);
}

int PythonNames::lineOf(const SourceLocation& location) const {
    return m_file.empty() || location.file == m_file ? location.line : 0;
}

int PythonNames::scheduleStatement() const {
    return m_sch.defined() ? m_outline.indexAt(lineOf(m_sch->location)) : -1;
}

bool PythonNames::reassignedAfter(const std::string& name, int statement) const {
    const auto& statements = m_outline.statements;
    for (size_t i = size_t(statement) + 1; i < statements.size(); ++i) {
        if (statements[i].assigns(name))
            return true;
    }
    return false;
}

std::optional<std::string> PythonNames::finalTarget(int line, int index, int count) const {
    const int at = m_outline.indexAt(line);
    if (at < 0)
        return std::nullopt;
    const std::vector<std::string>& targets = m_outline.statements[size_t(at)].targets;
    if (int(targets.size()) != count || reassignedAfter(targets[size_t(index)], at))
        return std::nullopt;
    return targets[size_t(index)];
}

int PythonNames::bindingBefore(const std::string& name, int before) const {
    for (int i = std::min(before, int(m_outline.statements.size())) - 1; i >= 0; --i) {
        if (m_outline.statements[size_t(i)].assigns(name))
            return i;
    }
    return -1;
}

int PythonNames::stageIndex(const Stage& stage) const {
    const auto& stages = m_sch.stages();
    const auto it = std::find_if(stages.begin(), stages.end(),
                                 [&](const Stage& s) { return s.same_as(stage); });
    return int(it - stages.begin());
}

std::string PythonNames::tensor(const Stage& stage) const {
    // A name is the tensor of the stage's current operation only while no rewrite replaced it
    // (cache_write and rfactor give the stage a new operation).
    const Operation& origin = stage->originOp;
    if (stage->op.same_as(origin) && lineOf(origin->location) > 0) {
        if (auto name = finalTarget(lineOf(origin->location), 0, 1))
            return *name;
    }
    return scheduleExpr() + ".stages[" + std::to_string(stageIndex(stage)) + "].op.output(0)";
}

std::string PythonNames::stage(const Stage& stage) const {
    // s[T] finds a stage by the operation it was created for, so the original tensor's name
    // still reaches a stage whose operation a rewrite replaced.
    const Operation& origin = stage->originOp;
    if (lineOf(origin->location) > 0) {
        if (auto name = finalTarget(lineOf(origin->location), 0, 1))
            return scheduleExpr() + "[" + *name + "]";
    }
    return scheduleExpr() + ".stages[" + std::to_string(stageIndex(stage)) + "]";
}

std::optional<std::string> PythonNames::rootAxisName(const Stage& stage, const IterVar& iv) const {
    const auto* compute = stage->op.as<ComputeOpNode>();
    if (!compute || !stage->op.same_as(stage->originOp))
        return std::nullopt;
    const std::vector<IterVar>* axes = &compute->axis;
    std::string field = "axis";
    auto it = std::find_if(axes->begin(), axes->end(),
                           [&](const IterVar& a) { return sameIterVar(a, iv); });
    if (it == axes->end()) {
        axes = &compute->reduceAxis;
        field = "reduce_axis";
        it = std::find_if(axes->begin(), axes->end(),
                          [&](const IterVar& a) { return sameIterVar(a, iv); });
        if (it == axes->end())
            return std::nullopt;
    }
    // `i, j = C.op.axis` or `i, j = s[C].op.axis` at the top level.
    const std::string wanted1 = tensor(stage) + ".op." + field;
    const std::string wanted2 = this->stage(stage) + ".op." + field;
    for (const Statement& st : m_outline.statements) {
        if (st.value != wanted1 && st.value != wanted2)
            continue;
        if (auto name = finalTarget(st.line, int(it - axes->begin()), int(axes->size())))
            return name;
    }
    return std::nullopt;
}

std::optional<std::string> PythonNames::relationName(const Stage& stage, const IterVar& iv) const {
    const int line = lineOf(iv->location);
    const Statement* st = m_outline.statementAt(line);
    if (!st || !st->primitive)
        return std::nullopt;
    const std::string& method = st->primitive->method;
    int splitsHere = 0; // tile's splits made on this line before the one holding `iv`
    for (const IterVarRelation& rel : stage->relations) {
        if (const auto* split = rel.as<SplitNode>()) {
            const bool outer = split->outer.same_as(iv);
            if (outer || split->inner.same_as(iv)) {
                if (method == "split")
                    return finalTarget(line, outer ? 0 : 1, 2);
                if (method == "tile")
                    return finalTarget(line, outer ? splitsHere : 2 + splitsHere, 4);
                return std::nullopt;
            }
            if (lineOf(split->outer->location) == line)
                ++splitsHere;
        } else if (const auto* fuse = rel.as<FuseNode>(); fuse && fuse->fused.same_as(iv)) {
            return method == "fuse" ? finalTarget(line, 0, 1) : std::nullopt;
        }
    }
    return std::nullopt;
}

std::string PythonNames::iterVar(const Stage& stage, const IterVar& iv) const {
    if (auto name = relationName(stage, iv))
        return *name;
    if (auto name = rootAxisName(stage, iv))
        return *name;
    const std::string stageExpr = this->stage(stage);
    if (const auto* compute = stage->op.as<ComputeOpNode>()) {
        for (size_t k = 0; k < compute->axis.size(); ++k) {
            if (compute->axis[k].same_as(iv))
                return stageExpr + ".op.axis[" + std::to_string(k) + "]";
        }
        for (size_t k = 0; k < compute->reduceAxis.size(); ++k) {
            if (!compute->reduceAxis[k].same_as(iv))
                continue;
            // `k = te.reduce_axis((0, K), name="k")`, unless made inline in the compute.
            const Statement* st = m_outline.statementAt(lineOf(iv->location));
            if (st && st->value.find("reduce_axis(") != std::string::npos &&
                st->value.find("compute(") == std::string::npos) {
                if (auto name = finalTarget(lineOf(iv->location), 0, 1))
                    return *name;
            }
            return stageExpr + ".op.reduce_axis[" + std::to_string(k) + "]";
        }
    }
    if (const auto* scan = stage->op.as<ScanOpNode>(); scan && scan->scanAxis.same_as(iv))
        return stageExpr + ".op.scan_axis";
    const int leaf = stage.leafIndex(iv);
    if (leaf < 0)
        return std::string();
    return stageExpr + ".leaf_iter_vars[" + std::to_string(leaf) + "]";
}

std::optional<std::string> teModule(const SourceOutline& outline) {
    std::string module;
    const auto& statements = outline.statements;
    const auto rebound = [&](const std::string& name, size_t after) {
        return std::any_of(statements.begin() + long(after) + 1, statements.end(),
                           [&](const Statement& st) { return st.assigns(name); });
    };
    for (size_t i = 0; i < statements.size(); ++i) {
        for (const auto& [imported, bound] : statements[i].imports) {
            if (rebound(bound, i))
                continue;
            if (imported == "tvm.te")
                module = bound;
            else if (imported == "tvm" && module.empty())
                module = bound + ".te";
        }
    }
    return module.empty() ? std::nullopt : std::optional<std::string>(module);
}

std::string PythonNames::threadAxis(const std::string& tag, bool* needsImport) const {
    *needsImport = false;
    const std::string call = "thread_axis('" + tag + "')";
    const auto& statements = m_outline.statements;
    for (size_t i = 0; i < statements.size(); ++i) {
        const Statement& st = statements[i];
        if (st.targets.size() == 1 && !reassignedAfter(st.targets[0], int(i))) {
            for (const char* prefix : {"", "te.", "tvm.te.", "tvm."}) {
                if (st.value == prefix + call)
                    return st.targets[0];
            }
        }
    }
    std::optional<std::string> module = teModule(m_outline);
    *needsImport = !module;
    return module.value_or("tvm.te") + ".thread_axis(\"" + tag + "\")";
}

std::string PythonNames::freshName(const std::string& base) const {
    std::string name;
    for (char c : base) {
        const bool word = std::isalnum(static_cast<unsigned char>(c)) || c == '_';
        if (word)
            name += c;
        else if (name.empty() || name.back() != '_')
            name += '_';
    }
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])))
        name = "v" + name;
    std::string candidate = name;
    for (int n = 2;
         m_identifiers.count(candidate) || m_handedOut.count(candidate) || isTaken(candidate); ++n)
        candidate = name + "_" + std::to_string(n);
    m_handedOut.insert(candidate);
    return candidate;
}

Stage PythonNames::stageOfExpression(const std::string& text, int before) const {
    if (isPythonName(text)) {
        const int at = bindingBefore(text, before);
        if (at >= 0) {
            const Statement& st = m_outline.statements[size_t(at)];
            if (st.targets.size() == 1 && st.targets[0] == text) {
                // The stage made on the statement's lines, unless another statement shares
                // them (`B = ...; C = ...`): then the line does not tell which.
                Stage made;
                int count = 0;
                for (const Stage& stage : m_sch.stages()) {
                    const int line = lineOf(stage->originOp->location);
                    if (st.line <= line && line <= st.endLine && m_outline.indexAt(line) == at) {
                        made = stage;
                        ++count;
                    }
                }
                if (count == 1)
                    return made;
            }
        }
    }
    if (auto index = stagesIndex(text, scheduleExpr()); index && *index < m_sch.stages().size())
        return m_sch.stages()[*index];
    for (const Stage& stage : m_sch.stages()) {
        if (tensor(stage) == text)
            return stage;
    }
    return Stage();
}

} // namespace bs::script
