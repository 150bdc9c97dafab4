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

#include <unordered_map>
#include <unordered_set>

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
    /// `rootsInDom`: every root inside its dom, as the bound checks keep a loop nest (a
    /// reduction's init has no such check, ComputeStmt's makeBoundCheck with
    /// skipIterVarDomain: it writes its whole realize box).
    ConsumerEncoder(const ModelInputs& in, const ConsumerTrace& ct, RelaxMode mode,
                    NeedModel& model, bool rootsInDom = true)
        : m_in(in), m_ct(ct), m_mode(mode), m_model(model), m_consumer(in.sch.stageOf(ct.consumer)),
          m_rootsInDom(rootsInDom) {}

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
        for (size_t d = 0; d < producer->axis.size() && m_rootsInDom; ++d) {
            const Range& dom = producer->axis[d]->dom;
            if (auto c = rangeText(dims[d], dom, m_model.params.namer()))
                text += " and " + *c;
        }
        return text + " }";
    }

private:
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
        std::string p = m_model.params.name(v); // first: naming resolves the attach path
        if (m_model.params.isAlias(v) || m_model.params.isAttach(p))
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
            if (!iv->dom.defined() || !m_rootsInDom)
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
    bool m_rootsInDom;
    VarMap<std::string> m_local;
    std::vector<std::string> m_exists;
    std::vector<std::string> m_constraints;
};

/// The producer's attach path (and the threads its loops are bound to) as attach parameters,
/// with their loop ranges in the parameter domain, resolved as the model names them: a loop of
/// one iteration is an alias of its min, any other loop an attach parameter. A nest of N
/// attached stages has paths N loops long, of which a model names a few (and, through their
/// ranges, the loops those name): encoding the whole path for every stage was quadratic in the
/// nest (issue 19). A loop no set names changes no count. The loops named are placed with the
/// inputs' LoopIndex when there is one (a nest's models name its outermost loop), else by
/// reading the path as far as the loop.
class AttachPathResolver {
public:
    AttachPathResolver(const ModelInputs& in, const AttachPath& path, NeedModel& model)
        : m_in(in), m_path(path), m_model(model) {}

    /// Encodes the path loop `v` is (or the path loops bound to the thread `v` is); nothing
    /// when it is neither (a symbolic size, a thread no path loop is bound to).
    void resolve(const Var& v) {
        if (m_in.loops) {
            size_t at = 0;
            switch (m_in.loops->find(m_path, v, at)) {
            case LoopIndex::Place::On:
                encodeLoop(m_path[at]);
                return;
            case LoopIndex::Place::Off:
                return;
            case LoopIndex::Place::Unknown:
                break;
            }
        }
        // The path is read innermost first, only as far as the loop named; a thread variable
        // can be bound to several loops, so its search reads the rest of the path.
        while (m_read < m_path.size() && !m_loopAt.count(v.get()))
            readNext();
        if (auto it = m_loopAt.find(v.get()); it != m_loopAt.end()) {
            encodeLoop(m_path[it->second]);
            return;
        }
        if (auto it = m_boundTo.find(v.get()); it != m_boundTo.end()) {
            const std::vector<size_t> loops = it->second; // encoding names other loops
            for (size_t at : loops)
                encodeLoop(m_path[at]);
        }
    }

private:
    void readNext() {
        const IterVar& iv = m_path[m_read];
        m_loopAt.emplace(iv->var.get(), m_read);
        if (auto bound = m_in.bindMap.find(iv); bound != m_in.bindMap.end())
            m_boundTo[bound->second->var.get()].push_back(m_read);
        ++m_read;
    }

    void encodeLoop(const IterVar& iv) {
        if (!m_encoded.insert(iv.get()).second)
            return;
        ParamSpace& params = m_model.params;
        const Range r = loopRange(m_in, iv);
        auto bound = m_in.bindMap.find(iv);
        const bool thread = bound != m_in.bindMap.end() || !iv->threadTag.empty();
        if (!thread && isOne(r.extent)) {
            if (auto value = islAffine(r.min, params.namer())) {
                params.alias(iv->var, *value);
                return;
            }
        }
        params.markAttach(iv->var);
        if (bound != m_in.bindMap.end()) {
            params.markAttach(bound->second->var);
            add(params.name(iv->var) + " = " + params.name(bound->second->var));
        }
        if (auto c = rangeText(params.name(iv->var), r, params.namer()))
            add(*c);
        else
            m_model.domainExact = false;
    }

    void add(const std::string& c) {
        std::string& all = m_model.domainConstraints;
        all += (all.empty() ? "" : " and ") + c;
    }

    const ModelInputs& m_in;
    const AttachPath& m_path;
    NeedModel& m_model;
    size_t m_read = 0; ///< the path loops read so far
    std::unordered_map<const VarNode*, size_t> m_loopAt;
    std::unordered_map<const VarNode*, std::vector<size_t>> m_boundTo;
    std::unordered_set<const Node*> m_encoded;
};

/// Each consumer's reads of the producer, as sets; false when a consumer's loop nest is not
/// quasi-affine (or is not a compute).
bool encodeConsumers(const ModelInputs& in, const Stage& stage, const StageTrace& trace,
                     RelaxMode mode, NeedModel& model) {
    const auto* producer = stage->op.as<ComputeOpNode>();
    for (const IterVar& iv : producer->axis)
        for (const Var& v : usedVars(iv->dom.min + iv->dom.extent))
            model.params.markSize(v);
    for (const ConsumerTrace& ct : trace.consumers) {
        const auto* compute = ct.consumer.as<ComputeOpNode>();
        if (!compute)
            return false;
        ConsumerEncoder encoder(in, ct, mode, model);
        if (!encoder.encode())
            return false;
        std::vector<std::vector<Expr>> reads =
            distinctReads(compute->body, [&](const Tensor& t) { return t.op.same_as(stage->op); });
        for (size_t i = 0; i < reads.size(); ++i)
            model.accesses.push_back(
                AccessSet{ct.consumer, int(i), reads[i], encoder.accessText(reads[i], producer)});
    }
    return true;
}

/// What the stage's own loop nest writes: its output index is its axes, over a trace in which
/// it is its own consumer with every leaf relaxed (the loops inside the realize run whole). A
/// reduction's init writes its realize box whole, bound checks or not: its data roots are kept
/// in their ranges only (which hold the update's writes too).
bool encodeOwnWrites(const ModelInputs& in, const Stage& stage, RelaxMode mode, NeedModel& model) {
    const auto* producer = stage->op.as<ComputeOpNode>();
    ConsumerTrace own;
    own.consumer = stage->op;
    for (const IterVar& iv : stage->leafIterVars) {
        auto range = in.rmap.find(iv);
        if (range == in.rmap.end())
            return false;
        own.leafSets.push_back(LeafSetEntry{iv, range->second, IntSet(), LeafCase::Relax, ""});
    }
    ConsumerEncoder encoder(in, own, mode, model, /*rootsInDom=*/producer->reduceAxis.empty());
    if (!encoder.encode())
        return false;
    std::vector<Expr> indices;
    for (const IterVar& axis : producer->axis)
        indices.push_back(axis->var);
    model.accesses.push_back(
        AccessSet{stage->op, -1, indices, encoder.accessText(indices, producer)});
    return true;
}

} // namespace

LoopIndex::LoopIndex(const Schedule& sch, const BoundTrace& trace,
                     const IterVarMap<IterVar>& bindMap) {
    std::unordered_map<const Node*, size_t> pathSize;
    for (const StageTrace& st : trace.stages)
        pathSize.emplace(st.op.get(), st.attachPath.size());
    for (const Stage& stage : sch.stages()) {
        auto size = pathSize.find(stage->op.get());
        for (size_t j = 0; j < stage->leafIterVars.size() && size != pathSize.end(); ++j) {
            const IterVar& iv = stage->leafIterVars[j];
            m_leaves.emplace(iv->var.get(), Leaf{iv, size->second, j});
        }
        for (const IterVar& iv : stage->allIterVars)
            if (!m_leaves.count(iv->var.get()))
                m_otherLoops.insert(iv->var.get());
    }
    for (const auto& [leaf, thread] : bindMap)
        m_otherLoops.insert(thread->var.get());
}

LoopIndex::Place LoopIndex::find(const AttachPath& path, const Var& v, size_t& at) const {
    auto it = m_leaves.find(v.get());
    if (it == m_leaves.end())
        return m_otherLoops.count(v.get()) ? Place::Unknown : Place::Off;
    // Leaf j of a stage T precedes T's path by j + 1 loops on a path through T: the segment
    // before T's path is T's leaves from the attach point out to leaf 0.
    const Leaf& leaf = it->second;
    const size_t before = leaf.stagePathSize + leaf.index + 1;
    if (path.size() < before || !path[path.size() - before].same_as(leaf.iv))
        return Place::Unknown;
    at = path.size() - before;
    return Place::On;
}

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
                                        const StageTrace& trace, const ModelOptions& options) {
    const auto* producer = stage->op.as<ComputeOpNode>();
    if (!producer || (trace.consumers.empty() && !options.ownWrites))
        return std::nullopt;
    NeedModel model;
    model.axisExact.assign(producer->axis.size(), true);
    AttachPathResolver path(in, trace.attachPath, model);
    // The resolver knows this function's locals: it is unset before the model is returned.
    model.params.setResolver([&path](const Var& v) { path.resolve(v); });
    bool built = encodeConsumers(in, stage, trace, options.mode, model);
    if (built && options.ownWrites)
        built = encodeOwnWrites(in, stage, options.mode, model);
    for (const Expr& e : options.alsoNamed)
        for (const Var& v : usedVars(e))
            path.resolve(v);
    model.params.setResolver({});
    if (!built || model.accesses.empty())
        return std::nullopt;
    return model;
}

} // namespace bs::tight

#endif // BOUNDSCOPE_WITH_ISL
