// TC's ranges next to InferBound's (issue 8, item 2): each statement variable is matched with
// its root IterVar in the normalized schedule, InferBound's range of that IterVar is moved into
// the variable's coordinates, and the two are compared with the analyzer, the loops of the
// schedule bound to their inferred ranges (an attached stage's range is per iteration of the
// loops around it).

#include "tc/RangeComparison.h"

#include "arith/Analyzer.h"
#include "ir/Op.h"
#include "te/Operation.h"

namespace bs::tc {

namespace {

/// The stage of `normalized` created for `op` (rewrites may have replaced its operation since).
Stage stageCreatedFor(const Schedule& normalized, const Operation& op) {
    for (const Stage& s : normalized.stages())
        if (s->originOp.same_as(op) || s->op.same_as(op))
            return s;
    return Stage();
}

bool isInlined(const Stage& stage) {
    return stage->attachType == AttachType::Inline ||
           stage->attachType == AttachType::InlinedAlready;
}

/// Axis `index` (or reduce axis `index`) of the stage's current operation, when the operation
/// still has the axes of the statement (`count` of them); undefined otherwise.
IterVar axisOf(const Stage& stage, bool reduce, size_t index, size_t count) {
    const auto* op = stage->op.as<ComputeOpNode>();
    if (!op)
        return IterVar();
    const std::vector<IterVar>& axes = reduce ? op->reduceAxis : op->axis;
    return axes.size() == count ? axes[index] : IterVar();
}

size_t axisCount(const Operation& op, bool reduce) {
    const auto* compute = op.as<ComputeOpNode>();
    if (!compute)
        return 0;
    return reduce ? compute->reduceAxis.size() : compute->axis.size();
}

std::string rangeText(const Expr& min, const std::string& var, const Expr& end) {
    return formatIndexExpr(min) + " <= " + var + " < " + formatIndexExpr(end);
}

class Comparer {
public:
    Comparer(const Schedule& normalized, const InferBoundResult& bounds)
        : m_normalized(normalized), m_bounds(bounds) {
        for (const auto& [iv, range] : bounds.bounds)
            m_analyzer.bind(iv->var, range, true);
    }

    void addStatement(const StatementRanges& st, std::vector<RangeComparison>& rows) {
        Stage stage = stageCreatedFor(m_normalized, st.op);
        if (!stage.defined())
            return;
        size_t lhsCount = axisCount(st.op, false);
        Stage reduceStage =
            st.reduceOp.defined() ? stageCreatedFor(m_normalized, st.reduceOp) : Stage();
        size_t reduceCount = st.reduceOp.defined() ? axisCount(st.reduceOp, true) : 0;
        for (size_t k = 0; k < st.ranges.size(); ++k) {
            bool reduce = k >= lhsCount;
            rows.push_back(compareOne(st, st.ranges[k], reduce ? reduceStage : stage, reduce,
                                      reduce ? k - lhsCount : k, reduce ? reduceCount : lhsCount));
        }
    }

private:
    /// Variable `tc` of `st`: axis (or reduce axis) `index` of the `count` of `stage`.
    RangeComparison compareOne(const StatementRanges& st, const InferredRange& tc,
                               const Stage& stage, bool reduce, size_t index, size_t count) {
        RangeComparison row;
        row.statement = st.text;
        row.line = st.line;
        row.variable = tc.var.name();
        row.tcRange = tc.toString();
        row.tcOrigin =
            tc.round == 0 ? tc.origin : "round " + std::to_string(tc.round) + " from " + tc.origin;
        if (!stage.defined()) {
            row.inferBoundRange = "its stage is not in the schedule";
            return row;
        }
        row.stage = stage.name();
        if (isInlined(stage)) {
            row.inferBoundRange = "inlined into its consumers: no loop";
            return row;
        }
        IterVar iv = axisOf(stage, reduce, index, count);
        auto found = iv.defined() ? m_bounds.bounds.find(iv) : m_bounds.bounds.end();
        if (found == m_bounds.bounds.end()) {
            row.inferBoundRange = "the schedule rewrote its axis";
            return row;
        }
        row.iterVar = iv->var.name();
        // Axis k of a left-hand side variable holds the variable's value minus its TC min.
        Expr shift = reduce ? makeZero(tc.min.type()) : tc.min;
        Expr min = m_analyzer.simplify(found->second.min + shift);
        Expr end = m_analyzer.simplify(found->second.min + found->second.extent + shift);
        row.inferBoundRange = rangeText(min, row.variable, end);
        row.agreement = agreement(min, end, tc);
        return row;
    }

    RangeAgreement agreement(const Expr& min, const Expr& end, const InferredRange& tc) {
        if (m_analyzer.canProveEqual(min, tc.min) && m_analyzer.canProveEqual(end, tc.end))
            return RangeAgreement::Equal;
        if (m_analyzer.canProve(min >= tc.min) && m_analyzer.canProve(end <= tc.end))
            return RangeAgreement::Narrower;
        if (m_analyzer.canProve(min <= tc.min) && m_analyzer.canProve(end >= tc.end))
            return RangeAgreement::Wider;
        return RangeAgreement::Undecided;
    }

    const Schedule& m_normalized;
    const InferBoundResult& m_bounds;
    Analyzer m_analyzer;
};

} // namespace

const char* rangeAgreementName(RangeAgreement agreement) {
    switch (agreement) {
    case RangeAgreement::Equal:
        return "equal";
    case RangeAgreement::Narrower:
        return "narrower";
    case RangeAgreement::Wider:
        return "wider";
    case RangeAgreement::Undecided:
        return "undecided";
    case RangeAgreement::NotCompared:
        return "not compared";
    }
    return "unknown";
}

std::vector<RangeComparison> compareRanges(const TcProgram& program, const Schedule& normalized,
                                           const InferBoundResult& bounds) {
    std::vector<RangeComparison> rows;
    Comparer comparer(normalized, bounds);
    for (const StatementRanges& st : program.statements)
        comparer.addStatement(st, rows);
    return rows;
}

} // namespace bs::tc
