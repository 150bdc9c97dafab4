// The exact model of a producer's per-iteration need (the tight rules, DESIGN.md "InferBound,
// faithful first"). Each consumer's loop nest becomes an ISL set: its leaves with the ranges
// they really run (split remainders included), every relation between its IterVars as an
// equality (split: parent = outer*factor + inner + min; fuse: outer = floor(fused/E), inner =
// fused mod E; rebase; singleton), and every IterVar inside its range and every root inside its
// dom (what the bound checks guarantee). Phase 1's decisions come from the trace: a single-point
// leaf is a parameter, a relaxed one is existential, as are the relaxed attach-path loops.
#ifdef BOUNDSCOPE_WITH_ISL

#include "schedule/InferBoundTightModel.h"

#include "ir/Equality.h"
#include "ir/Functor.h"
#include "ir/Op.h"
#include "ir/Substitute.h"
#include "schedule/MessagePassing.h"
#include "te/Operation.h"

namespace bs::tight {

namespace {

/// The range a loop really runs: a split remainder's extent under the tight rules, else its
/// range.
Range loopRange(const ModelInputs& in, const IterVar& iv) {
    const Range& r = in.rmap.at(iv);
    auto it = in.loopExtents.find(iv);
    return it == in.loopExtents.end() ? r : Range(r.min, it->second);
}

Var threadVarOf(const IterVar& iv, const IterVarMap<IterVar>& bindMap) {
    auto it = bindMap.find(iv);
    return it != bindMap.end() ? it->second->var : iv->var;
}

/// `min <= x < min + extent` in ISL text, or nullopt.
std::optional<std::string> rangeText(const std::string& x, const Range& r, const IslNamer& namer) {
    auto lo = islAffine(r.min, namer);
    auto hi = islAffine(r.min + r.extent, namer);
    if (!lo || !hi)
        return std::nullopt;
    return *lo + " <= " + x + " < " + *hi;
}

/// Encodes one consumer's iteration domain as ISL constraints over local (existential) names
/// for its IterVars and its relaxed attach-path loops; everything else is a parameter.
class ConsumerEncoder {
public:
    ConsumerEncoder(const ModelInputs& in, const ConsumerTrace& ct, RelaxMode mode,
                    NeedModel& model)
        : m_in(in), m_ct(ct), m_mode(mode), m_model(model),
          m_consumer(in.sch.stageOf(ct.consumer)) {}

    /// False when some part of the loop nest is not quasi-affine (or has no range: stages
    /// InferBound leaves partly unbounded).
    bool encode() {
        for (const IterVar& iv : m_consumer->allIterVars) {
            if (!m_in.rmap.count(iv))
                return false;
            m_local[iv->var] = "x" + std::to_string(m_exists.size());
            m_exists.push_back(m_local[iv->var]);
        }
        return encodeRelaxSet() && encodeLeaves() && encodeRelations() && encodeRanges();
    }

    /// The set of elements `indices` reads, `{ [a0, ...] : ... }`; axes whose index is not
    /// quasi-affine are left free and marked inexact.
    std::string accessText(const std::vector<Expr>& indices, const ComputeOpNode* producer) {
        std::vector<std::string> dims, constraints = m_constraints;
        for (size_t d = 0; d < indices.size(); ++d) {
            std::string a = "a" + std::to_string(d);
            dims.push_back(a);
            if (auto idx = islAffine(indices[d], namer()))
                constraints.push_back(a + " = " + *idx);
            else
                m_model.axisExact[d] = false;
        }
        std::string text = "{ [" + join(dims, ", ") + "] : ";
        if (!m_exists.empty())
            text += "exists (" + join(m_exists, ", ") + " : ";
        text += constraints.empty() ? "true" : join(constraints, " and ");
        if (!m_exists.empty())
            text += ")";
        for (size_t d = 0; d < producer->axis.size(); ++d) {
            const Range& dom = producer->axis[d]->dom;
            if (auto c = rangeText(dims[d], dom, m_model.params.namer()))
                text += " and " + *c;
        }
        return text + " }";
    }

private:
    static std::string join(const std::vector<std::string>& parts, const char* sep) {
        std::string out;
        for (size_t i = 0; i < parts.size(); ++i)
            out += (i ? sep : "") + parts[i];
        return out;
    }

    IslNamer namer() {
        return [this](const Var& v) -> std::optional<std::string> {
            auto it = m_local.find(v);
            if (it != m_local.end())
                return it->second;
            return m_model.params.name(v);
        };
    }

    bool add(std::optional<std::string> c) {
        if (!c)
            return false;
        m_constraints.push_back(*c);
        return true;
    }

    bool addEq(const std::string& x, const Expr& value) {
        auto v = islAffine(value, namer());
        return add(v ? std::optional<std::string>(x + " = " + *v) : std::nullopt);
    }

    /// A loop outside the relaxed ones that is not on the producer's attach path (a thread the
    /// storage keeps private) still iterates around the realize: it joins the attach domain.
    void addAttachParam(const Var& v, const Range& r) {
        if (m_model.params.isAlias(v))
            return;
        std::string p = m_model.params.name(v);
        if (m_model.params.isAttach(p))
            return;
        m_model.params.markAttach(v);
        auto c = rangeText(p, r, m_model.params.namer());
        if (!c) {
            m_model.domainExact = false;
            return;
        }
        m_model.domainConstraints += (m_model.domainConstraints.empty() ? "" : " and ") + *c;
    }

    bool encodeRelaxSet() {
        for (const RelaxEntry& e : m_ct.relaxSet) {
            if (m_mode == RelaxMode::PerThread && isThreadBound(e.iv, m_in.bindMap)) {
                addAttachParam(e.var, loopRange(m_in, e.iv));
                continue;
            }
            auto known = m_local.find(e.iv->var);
            std::string r =
                known != m_local.end() ? known->second : "x" + std::to_string(m_exists.size());
            if (known == m_local.end()) {
                m_local[e.iv->var] = r;
                m_exists.push_back(r);
            }
            m_local[e.var] = r;
            auto lo = islAffine(e.set.min(), namer()), hi = islAffine(e.set.max(), namer());
            if (!e.set.hasLowerBound() || !e.set.hasUpperBound() || !lo || !hi)
                return false;
            m_constraints.push_back(*lo + " <= " + r + " <= " + *hi);
        }
        return true;
    }

    bool encodeLeaves() {
        for (const LeafSetEntry& e : m_ct.leafSets) {
            const std::string& x = m_local.at(e.iv->var);
            bool threadBound = isThreadBound(e.iv, m_in.bindMap);
            if (e.leafCase == LeafCase::ExtentOne || e.leafCase == LeafCase::ThreadInRegion) {
                if (!addEq(x, e.set.pointValue()))
                    return false;
                continue;
            }
            bool point =
                e.leafCase == LeafCase::NoRelax || (m_mode == RelaxMode::PerThread && threadBound);
            Range r = loopRange(m_in, e.iv);
            if (!point) {
                if (!add(rangeText(x, r, namer())))
                    return false;
                continue;
            }
            Var v = threadVarOf(e.iv, m_in.bindMap);
            addAttachParam(v, r);
            m_constraints.push_back(x + " = " + m_model.params.name(v));
        }
        return true;
    }

    /// Each relation as PassUpIndex writes it, `parent = value`, with its children as their
    /// own variables. A child that runs once stands at its min (a split's outer of extent 1
    /// then drops out of `inner + outer*factor`, which keeps a symbolic factor quasi-affine);
    /// its range constraint still holds its variable there.
    bool encodeRelations() {
        const IterVarMap<Range>& rmap = m_in.rmap;
        IterVarMap<Expr> children;
        for (const IterVar& iv : m_consumer->allIterVars) {
            const Range& r = rmap.at(iv);
            children[iv] = isOne(r.extent) ? r.min : Expr(iv->var);
        }
        IterVarMap<Expr> parents;
        for (const IterVarRelation& rel : m_consumer->relations) {
            passUpIndexOf(rel, rmap, children, &parents);
            for (const IterVar& parent : relationInputs(rel))
                if (!addEq(m_local.at(parent->var), parents.at(parent)))
                    return false;
        }
        return true;
    }

    /// Every IterVar inside its range, every root inside its dom: the loops either cannot leave
    /// them or the bound checks keep the body from running there.
    bool encodeRanges() {
        for (const IterVar& iv : m_consumer->allIterVars) {
            if (m_consumer.isLeaf(iv))
                continue;
            const std::string& x = m_local.at(iv->var);
            auto it = m_in.rmap.find(iv);
            if (it != m_in.rmap.end() && !add(rangeText(x, it->second, namer())))
                return false;
        }
        for (const IterVar& iv : m_consumer->op->rootIterVars()) {
            if (!iv->dom.defined())
                continue;
            for (const Var& v : usedVars(iv->dom.min + iv->dom.extent))
                if (!m_local.count(v))
                    m_model.params.markSize(v);
            if (!add(rangeText(m_local.at(iv->var), iv->dom, namer())))
                return false;
        }
        return true;
    }

    const ModelInputs& m_in;
    const ConsumerTrace& m_ct;
    RelaxMode m_mode;
    NeedModel& m_model;
    Stage m_consumer;
    VarMap<std::string> m_local;
    std::vector<std::string> m_exists;
    std::vector<std::string> m_constraints;
};

/// The producer's attach path (and the threads it is bound to) as the attach parameters, with
/// their loop ranges as the parameter domain.
void encodeAttachPath(const ModelInputs& in, const StageTrace& trace, NeedModel& model) {
    // A loop of one iteration is its min (outer loops first, so that an alias's value is over
    // the parameters that remain).
    for (auto it = trace.attachPath.rbegin(); it != trace.attachPath.rend(); ++it) {
        const IterVar& iv = *it;
        if (in.bindMap.count(iv) || !iv->threadTag.empty() || !isOne(loopRange(in, iv).extent))
            continue;
        if (auto value = islAffine(loopRange(in, iv).min, model.params.namer()))
            model.params.alias(iv->var, *value);
    }
    std::vector<std::string> constraints;
    for (const IterVar& iv : trace.attachPath) {
        if (model.params.isAlias(iv->var))
            continue;
        model.params.markAttach(iv->var);
        auto bound = in.bindMap.find(iv);
        if (bound != in.bindMap.end()) {
            model.params.markAttach(bound->second->var);
            constraints.push_back(model.params.name(iv->var) + " = " +
                                  model.params.name(bound->second->var));
        }
    }
    for (const IterVar& iv : trace.attachPath) {
        if (model.params.isAlias(iv->var))
            continue;
        auto c = rangeText(model.params.name(iv->var), loopRange(in, iv), model.params.namer());
        if (c)
            constraints.push_back(*c);
        else
            model.domainExact = false;
    }
    for (const std::string& c : constraints)
        model.domainConstraints += (model.domainConstraints.empty() ? "" : " and ") + c;
}

} // namespace

bool isThreadBound(const IterVar& iv, const IterVarMap<IterVar>& bindMap) {
    return bindMap.count(iv) != 0 || !iv->threadTag.empty();
}

isl::set NeedModel::paramDomain(isl::ctx ctx) const {
    std::string constraints = domainConstraints;
    std::string sizes = params.sizeConstraints();
    if (!sizes.empty())
        constraints += (constraints.empty() ? "" : " and ") + sizes;
    return isl::set(ctx,
                    params.header() + "{ : " + (constraints.empty() ? "true" : constraints) + " }");
}

isl::set NeedModel::accessSet(isl::ctx ctx, size_t i) const {
    return accessSet(ctx, i, paramDomain(ctx));
}

isl::set NeedModel::accessSet(isl::ctx ctx, size_t i, const isl::set& domain) const {
    return isl::set(ctx, params.header() + accesses.at(i).text).intersect_params(domain);
}

isl::set NeedModel::unionSet(isl::ctx ctx) const {
    const isl::set domain = paramDomain(ctx);
    isl::set u = accessSet(ctx, 0, domain);
    for (size_t i = 1; i < accesses.size(); ++i)
        u = u.unite(accessSet(ctx, i, domain));
    return u;
}

std::optional<NeedModel> buildNeedModel(const ModelInputs& in, const Stage& stage,
                                        const StageTrace& trace, RelaxMode mode) {
    const auto* producer = stage->op.as<ComputeOpNode>();
    if (!producer || trace.consumers.empty())
        return std::nullopt;
    NeedModel model;
    model.axisExact.assign(producer->axis.size(), true);
    encodeAttachPath(in, trace, model);
    for (const IterVar& iv : producer->axis)
        for (const Var& v : usedVars(iv->dom.min + iv->dom.extent))
            model.params.markSize(v);
    for (const ConsumerTrace& ct : trace.consumers) {
        const auto* compute = ct.consumer.as<ComputeOpNode>();
        if (!compute)
            return std::nullopt;
        ConsumerEncoder encoder(in, ct, mode, model);
        if (!encoder.encode())
            return std::nullopt;
        std::vector<std::vector<Expr>> reads =
            distinctReads(compute->body, [&](const Tensor& t) { return t.op.same_as(stage->op); });
        for (size_t i = 0; i < reads.size(); ++i)
            model.accesses.push_back(
                AccessSet{ct.consumer, int(i), reads[i], encoder.accessText(reads[i], producer)});
    }
    if (model.accesses.empty())
        return std::nullopt;
    return model;
}

} // namespace bs::tight

#endif // BOUNDSCOPE_WITH_ISL
