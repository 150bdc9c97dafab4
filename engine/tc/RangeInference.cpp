// TC's range inference (seed 003): rounds over the unresolved variables, maximal intervals from
// the "no out-of-bounds read" conditions, intersections within a round, then the preconditions.

#include "tc/RangeInference.h"

#include "tc/TcParser.h"

#include "arith/Analyzer.h"
#include "arith/EvalSet.h"
#include "ir/Functor.h"
#include "ir/Op.h"
#include "ir/Printer.h"
#include "ir/Substitute.h"

#include <map>
#include <set>

namespace bs::tc {

namespace {

/// `coeff * v + rest`, rest free of v.
struct Linear {
    int64_t coeff = 0;
    Expr rest;
};

/// Decomposes `e` as an affine function of `v` with a constant coefficient; otherwise sets
/// `why` (the seed's dynamic stride `S(0)*i`, or `v` under a division or inside a read).
std::optional<Linear> linearize(const Expr& e, const Var& v, std::string* why) {
    if (!usesVar(e, v))
        return Linear{0, e};
    if (e.same_as(v))
        return Linear{1, makeZero(v.type())};
    auto combine = [&](const Expr& a, const Expr& b, int sign) -> std::optional<Linear> {
        auto la = linearize(a, v, why);
        auto lb = la ? linearize(b, v, why) : std::nullopt;
        if (!lb)
            return std::nullopt;
        return Linear{la->coeff + sign * lb->coeff,
                      sign > 0 ? la->rest + lb->rest : la->rest - lb->rest};
    };
    if (const auto* add = e.as<AddNode>())
        return combine(add->a, add->b, 1);
    if (const auto* sub = e.as<SubNode>())
        return combine(sub->a, sub->b, -1);
    if (const auto* mul = e.as<MulNode>()) {
        bool varOnLeft = usesVar(mul->a, v);
        const Expr& inner = varOnLeft ? mul->a : mul->b;
        const Expr& factor = varOnLeft ? mul->b : mul->a;
        auto c = asConstInt(factor);
        if (usesVar(factor, v) || !c) {
            *why = "the stride '" + formatIndexExpr(factor) + "' of '" + v.name() + "' in '" +
                   formatIndexExpr(e) + "' is not a constant";
            return std::nullopt;
        }
        auto l = linearize(inner, v, why);
        if (!l)
            return std::nullopt;
        return Linear{l->coeff * *c, l->rest * factor};
    }
    *why = "'" + v.name() + "' appears inside '" + formatIndexExpr(e) + "'";
    return std::nullopt;
}

/// The interval [lo, end) of `v` for which `0 <= coeff*v + r < size` holds for every r in
/// [rlo, rhi] (the other variables' ranges): the lower end is bound by rlo, the upper by rhi.
std::pair<Expr, Expr> solveInterval(int64_t coeff, const Expr& rlo, const Expr& rhi,
                                    const Expr& size, Analyzer& analyzer) {
    if (coeff > 0) {
        Expr a = makeConst(rlo.type(), coeff);
        Expr lo = floordiv(0 - rlo + (a - 1), a);
        Expr end = floordiv(size - 1 - rhi + a, a);
        return {analyzer.simplify(lo), analyzer.simplify(end)};
    }
    Expr b = makeConst(rlo.type(), -coeff);
    Expr lo = floordiv(rhi - size + b, b);
    Expr end = floordiv(rlo + b, b);
    return {analyzer.simplify(lo), analyzer.simplify(end)};
}

/// `a <= b` provable, also for floordivs by one constant whose numerators compare (floordiv is
/// monotone), which the simplifier does not always see: `I/2 <= (I + 1)/2`.
bool provablyLessEqual(const Expr& a, const Expr& b, Analyzer& analyzer) {
    if (analyzer.canProve(a <= b))
        return true;
    const auto* da = a.as<FloorDivNode>();
    const auto* db = b.as<FloorDivNode>();
    if (!da || !db || !analyzer.canProveEqual(da->b, db->b) || !analyzer.canProve(da->b > 0))
        return false;
    return analyzer.canProve(da->a <= db->a);
}

Expr tightest(const std::vector<Expr>& values, bool wantMax, Analyzer& analyzer) {
    Expr best = values[0];
    for (size_t k = 1; k < values.size(); ++k) {
        const Expr& v = values[k];
        bool vIsTighter =
            wantMax ? provablyLessEqual(best, v, analyzer) : provablyLessEqual(v, best, analyzer);
        bool bestIsTighter =
            wantMax ? provablyLessEqual(v, best, analyzer) : provablyLessEqual(best, v, analyzer);
        if (vIsTighter)
            best = v;
        else if (!bestIsTighter)
            best = analyzer.simplify(wantMax ? max(best, v) : min(best, v));
    }
    return best;
}

bool readsTensor(const Expr& e) {
    bool found = false;
    postOrderVisit(e, [&found](const NodeRef& n) { found = found || n.as<ProducerLoadNode>(); });
    return found;
}

struct Candidate {
    Expr min;
    Expr end;
    std::string access;
};

class Inference {
public:
    Inference(const std::vector<IndexVariable>& vars, const std::vector<Access>& accesses,
              const std::string& file)
        : m_vars(vars), m_accesses(accesses), m_file(file), m_checked(accesses.size()) {
        for (size_t k = 0; k < accesses.size(); ++k)
            m_checked[k].assign(accesses[k].indices.size(), false);
    }

    RangeInferenceResult run() {
        for (const IndexVariable& v : m_vars) {
            if (v.whereMin.defined())
                resolve(v.var, v.whereMin, v.whereEnd, 0, "where clause");
            else
                m_unresolved.insert(v.var.get());
        }
        for (int round = 1; !m_unresolved.empty(); ++round)
            if (!runRound(round))
                failUnresolved();
        RangeInferenceResult result;
        for (const IndexVariable& v : m_vars)
            result.ranges.push_back(m_ranges.at(v.var));
        result.warnings = checkPreconditions();
        return result;
    }

private:
    void resolve(const Var& v, Expr min, Expr end, int round, std::string origin) {
        m_ranges[v] = InferredRange{v, std::move(min), std::move(end), round, std::move(origin)};
        m_dom[v] = IntSet::interval(m_ranges[v].min, m_analyzer.simplify(m_ranges[v].end - 1));
    }

    /// The single unresolved variable of `index`, if it has exactly one.
    const VarNode* singleUnresolved(const Expr& index) const {
        std::vector<Var> used = usedVars(index);
        const VarNode* found = nullptr;
        for (const Var& v : used) {
            if (!m_unresolved.count(v.get()))
                continue;
            if (found && found != v.get())
                return nullptr;
            found = v.get();
        }
        return found;
    }

    bool runRound(int round) {
        std::map<const VarNode*, std::vector<Candidate>> found;
        std::vector<std::pair<size_t, size_t>> used;
        for (size_t a = 0; a < m_accesses.size(); ++a) {
            const Access& access = m_accesses[a];
            for (size_t d = 0; d < access.indices.size(); ++d) {
                const VarNode* v = singleUnresolved(access.indices[d]);
                if (!v)
                    continue;
                std::optional<Candidate> c = solve(access, d, Var(v));
                if (!c)
                    continue;
                found[v].push_back(*c);
                used.emplace_back(a, d);
            }
        }
        for (const auto& [v, candidates] : found) {
            std::vector<Expr> mins, ends;
            std::string origin;
            for (const Candidate& c : candidates) {
                mins.push_back(c.min);
                ends.push_back(c.end);
                if (origin.find(c.access) == std::string::npos)
                    origin += (origin.empty() ? "" : ", ") + c.access;
            }
            resolve(Var(v), tightest(mins, true, m_analyzer), tightest(ends, false, m_analyzer),
                    round, origin);
            m_unresolved.erase(v);
        }
        for (const auto& [a, d] : used)
            m_checked[a][d] = true;
        return !found.empty();
    }

    std::optional<Candidate> solve(const Access& access, size_t d, const Var& v) {
        std::string why;
        std::optional<Linear> linear = linearize(access.indices[d], v, &why);
        if (linear && linear->coeff == 0)
            why = "'" + v.name() + "' cancels out of '" + formatIndexExpr(access.indices[d]) + "'";
        if (!linear || linear->coeff == 0) {
            m_reasons[v.get()].push_back(why + " (in " + access.text + ")");
            return std::nullopt;
        }
        IntSet rest = evalSet(m_analyzer.simplify(linear->rest), m_dom, m_analyzer);
        if (!rest.hasLowerBound() || !rest.hasUpperBound()) {
            m_reasons[v.get()].push_back("the rest of '" + formatIndexExpr(access.indices[d]) +
                                         "' is not bounded (in " + access.text + ")");
            return std::nullopt;
        }
        auto [lo, end] =
            solveInterval(linear->coeff, rest.min(), rest.max(), access.shape[d], m_analyzer);
        return Candidate{lo, end, access.text};
    }

    [[noreturn]] void failUnresolved() {
        for (const IndexVariable& v : m_vars) {
            if (!m_unresolved.count(v.var.get()))
                continue;
            std::string text = "cannot infer the range of '" + v.var.name() + "'";
            const auto& reasons = m_reasons[v.var.get()];
            if (reasons.empty())
                text += ": no tensor index uses it as the only unresolved variable";
            for (size_t k = 0; k < reasons.size(); ++k)
                text += (k ? "; " : ": ") + reasons[k];
            text += "; add a clause 'where " + v.var.name() + " in LB:UB'";
            failAt(m_file, v.pos, text);
        }
        BS_UNREACHABLE("no unresolved variable to report");
    }

    std::vector<Diagnostic> checkPreconditions() {
        std::vector<Diagnostic> warnings;
        for (size_t a = 0; a < m_accesses.size(); ++a) {
            const Access& access = m_accesses[a];
            if (access.fromExists)
                continue;
            for (size_t d = 0; d < access.indices.size(); ++d) {
                if (m_checked[a][d])
                    continue;
                std::optional<std::string> problem = precondition(access, d);
                if (problem)
                    warnings.push_back(
                        tcDiagnostic(m_file, access.pos, *problem, Severity::Warning));
            }
        }
        return warnings;
    }

    /// Why index `d` of `access` may read out of bounds, or nothing when it provably cannot.
    std::optional<std::string> precondition(const Access& access, size_t d) {
        const Expr& index = access.indices[d];
        const Expr& size = access.shape[d];
        IntSet set = evalSet(index, m_dom, m_analyzer);
        if (set.hasLowerBound() && set.hasUpperBound() && m_analyzer.canProve(set.min() >= 0) &&
            m_analyzer.canProve(set.max() < size))
            return std::nullopt;
        std::string where = "dimension " + std::to_string(d) + " of " + access.tensorName +
                            " (size " + formatIndexExpr(size) + ")";
        if (readsTensor(index))
            return "unchecked precondition: the values of '" + formatIndexExpr(index) + "' index " +
                   where + " and must lie in [0, " + formatIndexExpr(size) + ")";
        std::string span = set.hasLowerBound() && set.hasUpperBound()
                               ? "[" + formatIndexExpr(m_analyzer.simplify(set.min())) + ", " +
                                     formatIndexExpr(m_analyzer.simplify(set.max())) + "]"
                               : "an unbounded range";
        return "unchecked precondition: '" + formatIndexExpr(index) + "' in " + access.text +
               " takes values in " + span + ", which must lie within " + where;
    }

    const std::vector<IndexVariable>& m_vars;
    const std::vector<Access>& m_accesses;
    const std::string& m_file;
    Analyzer m_analyzer;
    std::set<const VarNode*> m_unresolved;
    VarMap<InferredRange> m_ranges;
    VarMap<IntSet> m_dom;
    std::map<const VarNode*, std::vector<std::string>> m_reasons;
    /// Per access and dimension: used to infer a range, so in bounds by construction.
    std::vector<std::vector<bool>> m_checked;
};

/// Operator precedence for formatIndexExpr: sums 1, products 2, atoms 3.
int precedence(const Expr& e) {
    if (e.as<AddNode>() || e.as<SubNode>())
        return 1;
    if (e.as<MulNode>() || e.as<FloorDivNode>() || e.as<FloorModNode>())
        return 2;
    if (auto c = asConstInt(e); c && *c < 0)
        return 1;
    return 3;
}

std::string formatAt(const Expr& e, int minPrecedence) {
    std::string text = formatIndexExpr(e);
    return precedence(e) < minPrecedence ? "(" + text + ")" : text;
}

} // namespace

std::string formatIndexExpr(const Expr& e) {
    if (const auto* add = e.as<AddNode>()) {
        if (auto c = asConstInt(add->b); c && *c < 0)
            return formatAt(add->a, 1) + " - " + std::to_string(-*c);
        return formatAt(add->a, 1) + " + " + formatAt(add->b, 1);
    }
    if (const auto* sub = e.as<SubNode>())
        return formatAt(sub->a, 1) + " - " + formatAt(sub->b, 2);
    if (const auto* mul = e.as<MulNode>())
        return formatAt(mul->a, 2) + "*" + formatAt(mul->b, 3);
    if (const auto* div = e.as<FloorDivNode>())
        return formatAt(div->a, 2) + "/" + formatAt(div->b, 3);
    if (const auto* mod = e.as<FloorModNode>())
        return formatAt(mod->a, 2) + "%" + formatAt(mod->b, 3);
    if (const auto* mn = e.as<MinNode>())
        return "min(" + formatIndexExpr(mn->a) + ", " + formatIndexExpr(mn->b) + ")";
    if (const auto* mx = e.as<MaxNode>())
        return "max(" + formatIndexExpr(mx->a) + ", " + formatIndexExpr(mx->b) + ")";
    if (const auto* load = e.as<ProducerLoadNode>()) {
        std::string text = load->tensor.name() + "(";
        for (size_t k = 0; k < load->indices.size(); ++k)
            text += (k ? ", " : "") + formatIndexExpr(load->indices[k]);
        return text + ")";
    }
    if (const auto* v = e.as<VarNode>())
        return v->name;
    if (auto c = asConstInt(e))
        return std::to_string(*c);
    return toString(e);
}

std::string InferredRange::toString() const {
    return formatIndexExpr(min) + " <= " + var.name() + " < " + formatIndexExpr(end);
}

RangeInferenceResult inferRanges(const std::vector<IndexVariable>& variables,
                                 const std::vector<Access>& accesses, const std::string& fileName) {
    return Inference(variables, accesses, fileName).run();
}

} // namespace bs::tc
