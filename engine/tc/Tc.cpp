// Building tensor-expression stages from a TC definition (seed 003; issue 8, item 1): inputs
// become placeholders, each statement a compute whose loop ranges and output sizes come from
// range inference.

#include "tc/Tc.h"

#include "tc/TcExprBuilder.h"
#include "tc/TcParser.h"

#include "arith/Analyzer.h"
#include "ir/Op.h"
#include "ir/Substitute.h"
#include "te/Compute.h"
#include "te/Reduce.h"

#include <set>

namespace bs::tc {

namespace {

DataType scalarType(const AstType& type, const std::string& file) {
    const std::string& s = type.scalar;
    if (s == "float" || s == "float32")
        return DataType::float32();
    if (s == "double" || s == "float64")
        return DataType::float64();
    if (s == "half" || s == "float16")
        return DataType(DataType::Code::Float, 16);
    if (s == "int" || s == "int32")
        return DataType::int32();
    if (s == "int64")
        return DataType::int64();
    if (s == "bool")
        return DataType::boolean();
    failAt(file, type.pos, "unknown type '" + s + "'");
}

/// `C(i) += ...` with its previous value: the combination the reduction stands for.
Expr combine(const std::string& reduction, const Expr& a, const Expr& b) {
    if (reduction == "+")
        return a + b;
    if (reduction == "*")
        return a * b;
    return reduction == "max" ? max(a, b) : min(a, b);
}

/// The reducer of `+=!`, `*=!`, `max=!`, `min=!` over `axes`.
Expr reduce(const std::string& reduction, const Expr& source, const std::vector<IterVar>& axes) {
    if (reduction == "+")
        return sum(source, axes);
    if (reduction == "max")
        return max(source, axes);
    if (reduction == "min")
        return min(source, axes);
    Reducer product = commReducer(
        [](const std::vector<Var>& x, const std::vector<Var>& y) {
            return std::vector<Expr>{x[0] * y[0]};
        },
        [](const std::vector<DataType>& types) { return std::vector<Expr>{makeOne(types[0])}; },
        "prod");
    return product(source, axes);
}

std::string statementText(const AstStatement& st) {
    std::string text = st.tensor;
    if (!st.indices.empty() || st.indexPos.empty()) {
        text += "(";
        for (size_t k = 0; k < st.indices.size(); ++k)
            text += (k ? ", " : "") + st.indices[k];
        text += ")";
    }
    text += " " + st.reduction + "=" + (st.initialize ? "! " : " ");
    return text + astToString(*st.rhs);
}

class Builder {
public:
    Builder(const AstDef& def, const TcOptions& options) : m_def(def), m_options(options) {
        m_scope.fileName = options.fileName;
    }

    TcProgram run() {
        m_program.name = m_def.name;
        declareInputs();
        declareOutputs();
        for (const AstStatement& st : m_def.statements)
            buildStatement(st);
        for (const AstParam& out : m_def.outputs) {
            if (!m_defined.count(out.name))
                failAt(m_scope.fileName, out.pos, "output '" + out.name + "' is never assigned");
            m_program.outputs.push_back(m_scope.tensors.at(out.name));
        }
        return m_program;
    }

private:
    Expr sizeSymbol(const AstExpr& e) {
        if (e.kind == ExprKind::Int)
            return makeConst(DataType::int32(), e.intValue);
        if (e.kind == ExprKind::Ident) {
            auto [it, isNew] = m_scope.sizes.try_emplace(e.name);
            if (isNew) {
                auto given = m_options.sizes.find(e.name);
                it->second = given != m_options.sizes.end()
                                 ? makeConst(DataType::int32(), given->second)
                                 : Expr(Var::sizeVar(e.name));
                m_program.sizes.emplace_back(e.name, it->second);
            }
            return it->second;
        }
        failAt(m_scope.fileName, e.pos,
               "a size must be a name or an integer, got '" + astToString(e) + "'");
    }

    void checkNewName(const AstParam& p) {
        if (m_scope.tensors.count(p.name) || m_outputs.count(p.name))
            failAt(m_scope.fileName, p.pos, "'" + p.name + "' is declared twice");
    }

    void declareInputs() {
        for (const AstParam& in : m_def.inputs) {
            checkNewName(in);
            std::vector<Expr> shape;
            for (const AstExprPtr& size : in.type.sizes)
                shape.push_back(sizeSymbol(*size));
            Tensor t = placeholder(shape, scalarType(in.type, m_scope.fileName), in.name);
            m_scope.tensors[in.name] = t;
            m_program.inputs.push_back(t);
        }
        for (const auto& [name, value] : m_options.sizes) {
            if (m_scope.sizes.count(name))
                continue;
            std::string known;
            for (const auto& [size, expr] : m_program.sizes)
                known += (known.empty() ? "" : ", ") + size;
            failAt(m_scope.fileName, m_def.pos,
                   "'" + name + "' is not a size of '" + m_def.name + "' (its sizes are " +
                       (known.empty() ? "none" : known) + ")");
        }
    }

    void declareOutputs() {
        for (const AstParam& out : m_def.outputs) {
            checkNewName(out);
            m_outputs[out.name] = &out;
        }
    }

    /// The statement's target: a declared output; its previous value for `+=` and friends.
    Tensor previousValue(const AstStatement& st) {
        if (!m_outputs.count(st.tensor)) {
            std::string why =
                m_scope.tensors.count(st.tensor) ? "is an input of '" : "is not an output of '";
            failAt(m_scope.fileName, st.pos,
                   "'" + st.tensor + "' " + why + m_def.name +
                       "': only outputs (declared after '->') can be assigned");
        }
        bool accumulates = !st.reduction.empty() && !st.initialize;
        if (accumulates && !m_defined.count(st.tensor))
            failAt(m_scope.fileName, st.opPos,
                   "'" + st.reduction + "=' combines with the previous value of '" + st.tensor +
                       "', which no earlier statement defines; write '" + st.reduction +
                       "=!' to start from the identity");
        return accumulates ? m_scope.tensors.at(st.tensor) : Tensor();
    }

    void addWhereClauses(const AstStatement& st, TcExprBuilder& exprs) {
        for (const AstWhere& w : st.wheres)
            if (w.isExists)
                exprs.convert(*w.exists, true);
        std::set<std::string> seen;
        for (const AstWhere& w : st.wheres) {
            if (w.isExists)
                continue;
            IndexVariable* v = exprs.findVariable(w.var);
            if (!v)
                failAt(m_scope.fileName, w.pos,
                       "'" + w.var + "' in the where clause is not a variable of the statement");
            if (!seen.insert(w.var).second)
                failAt(m_scope.fileName, w.pos, "'" + w.var + "' has two where clauses");
            v->whereMin = exprs.convertSize(*w.lower, "the lower bound of '" + w.var + "'");
            v->whereEnd = exprs.convertSize(*w.upper, "the upper bound of '" + w.var + "'");
        }
    }

    void buildStatement(const AstStatement& st) {
        Tensor previous = previousValue(st);
        TcExprBuilder exprs(m_scope);
        std::vector<Var> lhs;
        for (size_t k = 0; k < st.indices.size(); ++k)
            lhs.push_back(exprs.declareIndex(st.indices[k], st.indexPos[k]));
        if (previous.defined())
            exprs.recordAccess(previous, {lhs.begin(), lhs.end()}, st.pos);
        Expr rhs = exprs.convert(*st.rhs);
        addWhereClauses(st, exprs);
        RangeInferenceResult inferred =
            inferRanges(exprs.variables(), exprs.accesses(), m_scope.fileName);
        for (Diagnostic& w : inferred.warnings)
            m_program.warnings.push_back(std::move(w));
        StatementRanges record{st.tensor,       statementText(st), st.pos.line,
                               inferred.ranges, Operation(),       Operation()};
        m_scope.tensors[st.tensor] = makeCompute(st, exprs.variables(), record, rhs, previous);
        m_program.statements.push_back(std::move(record));
        m_defined.insert(st.tensor);
    }

    /// The output shape and reduce axes of a statement: the left-hand side variables' extents,
    /// a reduce axis for each other variable (which needs a reduction operator).
    struct Axes {
        std::vector<Expr> shape;
        std::vector<IterVar> reduceAxes;
        VarMap<Expr> reduceVars; ///< statement variable -> its reduce axis variable
    };

    Axes axesOf(const AstStatement& st, const std::vector<IndexVariable>& vars,
                const std::vector<InferredRange>& ranges) {
        Analyzer analyzer;
        Axes axes;
        for (size_t k = 0; k < ranges.size(); ++k) {
            Expr extent = analyzer.simplify(ranges[k].end - ranges[k].min);
            if (k < st.indices.size()) {
                axes.shape.push_back(extent);
                noteShift(st, k, ranges[k]);
                continue;
            }
            if (st.reduction.empty())
                failAt(m_scope.fileName, vars[k].pos,
                       "'" + vars[k].var.name() + "' is not an index of '" + st.tensor +
                           "', so its values must be combined: use '+=!', '*=!', 'max=!' or "
                           "'min=!'");
            axes.reduceAxes.push_back(reduceAxis(Range(ranges[k].min, extent), vars[k].var.name()));
            axes.reduceVars[vars[k].var] = axes.reduceAxes.back()->var;
        }
        return axes;
    }

    /// The stage of one statement: axes for the left-hand side variables (shifted by their
    /// mins), reduce axes for the others, combined with the previous value for `+=` and friends.
    /// Sets the record's `op` and `reduceOp`.
    Tensor makeCompute(const AstStatement& st, const std::vector<IndexVariable>& vars,
                       StatementRanges& record, const Expr& rhs, const Tensor& previous) {
        const std::vector<InferredRange>& ranges = record.ranges;
        Axes a = axesOf(st, vars, ranges);
        Operation partialOp;
        const AstParam* decl = m_outputs.at(st.tensor);
        FCompute body = [&](const std::vector<Var>& axes) {
            Analyzer analyzer;
            VarMap<Expr> map = a.reduceVars;
            for (size_t k = 0; k < st.indices.size(); ++k)
                map[vars[k].var] = analyzer.simplify(axes[k] + ranges[k].min);
            Expr value = substitute(rhs, map);
            if (decl->typed)
                value = cast(scalarType(decl->type, m_scope.fileName), value);
            if (!a.reduceAxes.empty() && st.initialize)
                return reduce(st.reduction, value, a.reduceAxes);
            if (!previous.defined())
                return value;
            Expr before = previous(std::vector<Expr>(axes.begin(), axes.end()));
            if (a.reduceAxes.empty())
                return combine(st.reduction, before, value);
            Tensor partial = reduced(st, a.shape, value, a.reduceAxes, axes);
            partialOp = partial.op;
            return combine(st.reduction, before,
                           partial(std::vector<Expr>(axes.begin(), axes.end())));
        };
        // The stage's line is its statement's, for every message and view that names it.
        ScopedSourceLocation at(SourceLocation{m_scope.fileName, st.pos.line});
        Tensor result = compute(a.shape, body, versionName(st.tensor), "", st.indices);
        record.op = result.op;
        if (!a.reduceAxes.empty())
            record.reduceOp = partialOp.defined() ? partialOp : result.op;
        return result;
    }

    /// `C(i) += sum_k(...)`: TE allows a reduction only at the top of a body, so the sum gets
    /// its own stage (`C_red`) that the combining stage reads.
    Tensor reduced(const AstStatement& st, const std::vector<Expr>& shape, const Expr& value,
                   const std::vector<IterVar>& reduceAxes, const std::vector<Var>& axes) {
        VarMap<Expr> toOwnAxes;
        ScopedSourceLocation at(SourceLocation{m_scope.fileName, st.pos.line});
        return compute(
            shape,
            [&](const std::vector<Var>& own) {
                for (size_t k = 0; k < axes.size(); ++k)
                    toOwnAxes[axes[k]] = own[k];
                return reduce(st.reduction, substitute(value, toOwnAxes), reduceAxes);
            },
            st.tensor + "_red", "", st.indices);
    }

    void noteShift(const AstStatement& st, size_t k, const InferredRange& range) {
        if (isZero(range.min))
            return;
        m_program.warnings.push_back(tcDiagnostic(
            m_scope.fileName, st.indexPos[k],
            "the range of '" + range.var.name() + "' starts at " + formatIndexExpr(range.min) +
                ": index 0 of dimension " + std::to_string(k) + " of '" + st.tensor + "' holds " +
                range.var.name() + " = " + formatIndexExpr(range.min),
            Severity::Note));
    }

    std::string versionName(const std::string& tensor) {
        int version = m_versions[tensor]++;
        return version == 0 ? tensor : tensor + "_" + std::to_string(version);
    }

    const AstDef& m_def;
    const TcOptions& m_options;
    DefinitionScope m_scope;
    std::map<std::string, const AstParam*> m_outputs;
    std::set<std::string> m_defined;
    std::map<std::string, int> m_versions;
    TcProgram m_program;
};

} // namespace

TcProgram buildTc(const std::string& source, const TcOptions& options) {
    std::vector<AstDef> defs = parseTc(source, options.fileName);
    if (defs.size() > 1) {
        std::string names;
        for (const AstDef& d : defs)
            names += (names.empty() ? "" : ", ") + d.name;
        failAt(options.fileName, defs[1].pos,
               "the source defines " + std::to_string(defs.size()) + " functions (" + names +
                   "); build one at a time");
    }
    return Builder(defs[0], options).run();
}

std::string rangesText(const TcProgram& program) {
    std::string text;
    for (const StatementRanges& st : program.statements) {
        text += st.text + "\n";
        for (const InferredRange& r : st.ranges)
            text += "    " + r.toString() + "    (" + r.origin + ")\n";
    }
    return text;
}

Schedule defaultSchedule(const TcProgram& program) {
    std::vector<Operation> outputs;
    for (const Tensor& t : program.outputs)
        outputs.push_back(t.op);
    return createSchedule(outputs);
}

} // namespace bs::tc
