#include "lower/CompactStorage.h"

#include "arith/Analyzer.h"
#include "arith/ModularSet.h"
#include "ir/Equality.h"
#include "ir/Functor.h"
#include "ir/Op.h"
#include "ir/OperationNode.h"
#include "ir/Printer.h"
#include "ir/Substitute.h"
#include "support/Check.h"
#include "te/Operation.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace bs {

namespace {

/// A read or write of the realized tensor, with the loops around it inside the realize.
struct Access {
    const ProducerLoadNode* load = nullptr;
    const ProducerStoreNode* store = nullptr;
    std::vector<const ForNode*> loops; ///< outermost first
    bool inProducer = false;           ///< inside `produce T` (its writes, a reduction's reads)

    const std::vector<Expr>& indices() const { return load ? load->indices : store->indices; }
};

/// The accesses of `tensor` in a realize's body, and what forbids changing its layout.
class AccessCollector : public IRVisitor {
public:
    explicit AccessCollector(const Tensor& tensor) : m_tensor(tensor) {}

    std::vector<Access> accesses;
    std::string blocker; ///< why the layout must stay: "" when nothing forbids it

protected:
    using IRVisitor::visit;

    void visit(const ForNode* op) override {
        visitExpr(op->min);
        visitExpr(op->extent);
        m_loops.push_back(op);
        visitStmt(op->body);
        m_loops.pop_back();
    }
    void visit(const ProducerConsumerNode* op) override {
        const bool mine = op->isProducer && op->op.same_as(m_tensor.op);
        m_inProducer += mine;
        IRVisitor::visit(op);
        m_inProducer -= mine;
    }
    void visit(const ProducerStoreNode* op) override {
        if (op->tensor.same_as(m_tensor))
            accesses.push_back({nullptr, op, m_loops, m_inProducer > 0});
        IRVisitor::visit(op);
    }
    void visit(const ProducerLoadNode* op) override {
        if (op->tensor.same_as(m_tensor))
            accesses.push_back({op, nullptr, m_loops, m_inProducer > 0});
        IRVisitor::visit(op);
    }
    void visit(const AttrStmtNode* op) override {
        if (op->node.same_as(m_tensor.op) && op->key != attr::kRealizeScope)
            block("its stage has " + op->key);
        if (op->key == attr::kBufferBindScope && readsTensor(op->value))
            block("a tensor intrinsic or extern stage binds it as a buffer");
        IRVisitor::visit(op);
    }
    void visit(const CallNode* op) override {
        // An address of an element (a prefetch, a packed call's buffer) needs the layout; a value
        // read through an intrinsic (if_then_else, isnan) is a read like any other.
        if (op->isIntrinsic("address_of"))
            for (const Expr& a : op->args)
                if (const auto* load = a.as<ProducerLoadNode>();
                    load && load->tensor.same_as(m_tensor))
                    block("address_of takes the address of an element");
        IRVisitor::visit(op);
    }

private:
    void block(const std::string& why) {
        if (blocker.empty())
            blocker = why;
    }
    bool readsTensor(const Expr& e) const {
        bool found = false;
        struct Finder : IRVisitor {
            const Tensor* tensor;
            bool* found;
            using IRVisitor::visit;
            void visit(const ProducerLoadNode* op) override {
                *found |= op->tensor.same_as(*tensor);
                IRVisitor::visit(op);
            }
        } finder;
        finder.tensor = &m_tensor;
        finder.found = &found;
        finder.visitExpr(e);
        return found;
    }

    const Tensor& m_tensor;
    std::vector<const ForNode*> m_loops;
    int m_inProducer = 0;
};

/// `e - min`, simplified: where in the realized region an index falls.
Expr offsetIn(const Expr& e, const Expr& min) {
    Analyzer analyzer;
    return analyzer.simplify(e - min);
}

/// [min, max] per axis, from the realize's min.
using Box = std::vector<std::pair<int64_t, int64_t>>;

/// The box a read at `indices` covers over `loops` (those inside the realize); nullopt where an
/// axis has no constant bounds (it depends on a loop outside, or one of symbolic extent).
std::optional<Box> readBox(const ProducerRealizeNode* realize, const std::vector<Expr>& indices,
                           const std::vector<const ForNode*>& loops) {
    Analyzer analyzer;
    for (const ForNode* loop : loops)
        analyzer.bind(loop->loopVar, Range(loop->min, loop->extent));
    Box box;
    for (size_t d = 0; d < indices.size(); ++d) {
        ConstIntBound b = analyzer.constIntBound(offsetIn(indices[d], realize->bounds[d].min));
        if (b.minValue == ConstIntBound::kNegInf || b.maxValue == ConstIntBound::kPosInf)
            return std::nullopt;
        box.emplace_back(b.minValue, b.maxValue);
    }
    return box;
}

/// The elements of a box.
int64_t boxSize(const Box& box) {
    int64_t size = 1;
    for (const auto& [lo, hi] : box)
        size *= hi - lo + 1;
    return size;
}

bool overlap(const Box& x, const Box& y) {
    for (size_t d = 0; d < x.size(); ++d)
        if (x[d].second < y[d].first || y[d].second < x[d].first)
            return false;
    return true;
}

bool contains(const Box& outer, const Box& inner) {
    for (size_t d = 0; d < outer.size(); ++d)
        if (inner[d].first < outer[d].first || inner[d].second > outer[d].second)
            return false;
    return true;
}

/// How a producer loop is rewritten: along `axis` it stores at `v + offset` from the realize's
/// min (`offset` a constant, `v` its variable).
struct AxisLoop {
    int axis = -1;
    int64_t offset = 0;
    int64_t min = 0; ///< the loop's own min (a constant)
};

/// What one realize compacts to, or why not.
struct Plan {
    Compaction compaction;
    std::unordered_map<const ForNode*, AxisLoop> loops;
    std::string kept; ///< the reason a lattice or boxes were found but not used
};

class Compactor {
public:
    Compactor(const std::vector<Tensor>& args, BoundSteps* steps) : m_args(args), m_steps(steps) {}

    /// Operations whose storage is aligned (`buffer_dim_align`, around their realize).
    std::unordered_set<const Node*> aligned;

    std::vector<Compaction> compactions;

    Stmt compact(const ProducerRealizeNode* realize, Stmt body);

private:
    std::optional<Plan> plan(const ProducerRealizeNode* realize, const Stmt& body);
    bool latticePlan(const ProducerRealizeNode* realize, const std::vector<Access>& accesses,
                     Plan& plan);
    bool boxesPlan(const ProducerRealizeNode* realize, const std::vector<Access>& accesses,
                   Plan& plan);
    bool producerLoops(const ProducerRealizeNode* realize, const std::vector<Access>& accesses,
                       const std::vector<bool>& axes, Plan& plan);
    Stmt rewriteLattice(const ProducerRealizeNode* realize, const Stmt& body, const Plan& plan);
    Stmt rewriteBoxes(const ProducerRealizeNode* realize, const Stmt& body, const Plan& plan);
    int addStep(const ProducerRealizeNode* realize, const Plan& plan, const std::string& text);

    const std::vector<Tensor>& m_args;
    BoundSteps* m_steps;
};

bool Compactor::latticePlan(const ProducerRealizeNode* realize, const std::vector<Access>& accesses,
                            Plan& plan) {
    const size_t dims = realize->bounds.size();
    Compaction& c = plan.compaction;
    c.kind = Compaction::Kind::Lattice;
    c.strides.assign(dims, 1);
    c.offsets.assign(dims, 0);
    std::vector<bool> strided(dims, false);
    Analyzer analyzer;
    for (size_t d = 0; d < dims; ++d) {
        std::optional<ModularSet> lattice;
        for (const Access& a : accesses) {
            if (a.inProducer)
                continue;
            ModularSet m = analyzer.modularSet(offsetIn(a.indices()[d], realize->bounds[d].min));
            if (!lattice) {
                lattice = m;
                continue;
            }
            lattice = lattice->unionWith(m);
        }
        if (!lattice || lattice->coeff < 2)
            continue;
        const Expr& extent = realize->bounds[d].extent;
        if (analyzer.canProve(extent <= Expr(int(lattice->base) + 1)))
            continue; // one point at most: nothing to gain
        strided[d] = true;
        c.strides[d] = lattice->coeff;
        c.offsets[d] = lattice->base;
    }
    if (std::none_of(strided.begin(), strided.end(), [](bool b) { return b; }))
        return false;
    c.after = realize->bounds;
    for (size_t d = 0; d < dims; ++d) {
        if (!strided[d])
            continue;
        const Expr& extent = realize->bounds[d].extent;
        Expr count =
            floordiv(extent - int(c.offsets[d]) + int(c.strides[d] - 1), Expr(int(c.strides[d])));
        c.after[d] = Range(makeZero(extent.type()), analyzer.simplify(count));
    }
    return producerLoops(realize, accesses, strided, plan);
}

bool Compactor::boxesPlan(const ProducerRealizeNode* realize, const std::vector<Access>& accesses,
                          Plan& plan) {
    const size_t dims = realize->bounds.size();
    std::vector<Box> groups;
    for (const Access& a : accesses) {
        if (a.inProducer)
            continue;
        std::optional<Box> box = readBox(realize, a.indices(), a.loops);
        if (!box)
            return false;
        groups.push_back(*box);
    }
    for (bool merged = true; merged;) {
        merged = false;
        for (size_t i = 0; i < groups.size() && !merged; ++i)
            for (size_t j = i + 1; j < groups.size() && !merged; ++j) {
                if (!overlap(groups[i], groups[j]))
                    continue;
                for (size_t d = 0; d < dims; ++d) {
                    groups[i][d].first = std::min(groups[i][d].first, groups[j][d].first);
                    groups[i][d].second = std::max(groups[i][d].second, groups[j][d].second);
                }
                groups.erase(groups.begin() + std::ptrdiff_t(j));
                merged = true;
            }
    }
    if (groups.size() < 2)
        return false;
    int64_t packed = 0, whole = 1;
    for (const Box& box : groups)
        packed += boxSize(box);
    for (const Range& r : realize->bounds) {
        std::optional<int64_t> extent = asConstInt(r.extent);
        if (!extent)
            return false; // tight's rectangle varies: boxes of constant size would not fit it
        whole *= *extent;
    }
    if (packed >= whole)
        return false;
    Compaction& c = plan.compaction;
    c.kind = Compaction::Kind::Boxes;
    std::sort(groups.begin(), groups.end());
    c.boxes = groups;
    // Packed along the first axis; the others keep extent 1 (a tensor's reads have all its axes).
    c.after = {Range(makeZero(realize->bounds[0].min.type()), Expr(int(packed)))};
    for (size_t d = 1; d < dims; ++d)
        c.after.push_back(Range(makeZero(realize->bounds[d].min.type()), Expr(1)));
    return producerLoops(realize, accesses, std::vector<bool>(dims, true), plan);
}

/// Checks that the producer's writes along each marked axis are `v + offset` from the realize's
/// min, `v` the variable of a loop with a constant min that indexes that axis only, and records
/// those loops; plan.kept says why not otherwise.
bool Compactor::producerLoops(const ProducerRealizeNode* realize,
                              const std::vector<Access>& accesses, const std::vector<bool>& axes,
                              Plan& plan) {
    const std::string& name = realize->tensor.name();
    std::vector<const Access*> stores;
    for (const Access& a : accesses)
        if (a.store)
            stores.push_back(&a);
    if (stores.empty()) {
        plan.kept = "nothing in the realize writes " + name;
        return false;
    }
    for (const Access* s : stores) {
        for (size_t d = 0; d < axes.size(); ++d) {
            if (!axes[d])
                continue;
            Expr at = offsetIn(s->indices()[d], realize->bounds[d].min);
            const ForNode* loop = nullptr;
            int uses = 0;
            for (const ForNode* l : s->loops)
                if (usesVar(at, l->loopVar)) {
                    loop = l;
                    ++uses;
                }
            // Boxes: an axis the producer writes at one point (an extent-1 axis, whose loop
            // lowering removed) needs no loop when every box holds that point alone.
            const std::optional<int64_t> point = uses == 0 ? asConstInt(at) : std::nullopt;
            const auto& boxes = plan.compaction.boxes;
            if (point && plan.compaction.kind == Compaction::Kind::Boxes &&
                std::all_of(boxes.begin(), boxes.end(), [&](const Box& b) {
                    return b[d].first == *point && b[d].second == *point;
                }))
                continue;
            std::optional<int64_t> offset =
                uses == 1 ? asConstInt(Analyzer().simplify(at - loop->loopVar)) : std::nullopt;
            std::optional<int64_t> min = loop ? asConstInt(loop->min) : std::nullopt;
            if (!offset || !min) {
                plan.kept =
                    "the producer writes axis " + std::to_string(d) + " of " + name + " at " +
                    toString(at) + " from the realize's min, not one of its loops (of constant " +
                    "min) plus a constant: the axis is split, fused or bound to a thread, or one " +
                    "loop indexes it with another";
                return false;
            }
            if (plan.compaction.kind == Compaction::Kind::Boxes && !asConstInt(loop->extent)) {
                plan.kept = "the producer's loop " + loop->loopVar->name + " has a symbolic extent";
                return false;
            }
            AxisLoop want{int(d), *offset, *min};
            auto [it, fresh] = plan.loops.emplace(loop, want);
            if (!fresh && (it->second.axis != want.axis || it->second.offset != want.offset)) {
                plan.kept =
                    "the producer's loop " + loop->loopVar->name + " indexes two axes of " + name;
                return false;
            }
        }
    }
    // A reduction reads what it writes: each read inside the producer must be one of its writes.
    for (const Access& a : accesses) {
        if (!a.load || !a.inProducer)
            continue;
        bool same = false;
        for (const Access* s : stores) {
            bool equal = s->indices().size() == a.indices().size();
            for (size_t d = 0; equal && d < a.indices().size(); ++d)
                equal = structuralEqual(s->indices()[d], a.indices()[d]);
            same |= equal;
        }
        if (!same) {
            plan.kept = "the producer reads " + name + " where it does not write it";
            return false;
        }
    }
    return true;
}

/// `B(x0) -> B((x0 - threadIdx.x)/32)`.
std::string latticeMapText(const ProducerRealizeNode* realize, const Compaction& c) {
    std::string from, to;
    for (size_t d = 0; d < c.strides.size(); ++d) {
        std::string x = "x" + std::to_string(d);
        from += (d ? ", " : "") + x;
        Analyzer analyzer;
        Expr origin = analyzer.simplify(realize->bounds[d].min + int(c.offsets[d]));
        std::string shifted = isZero(origin) ? x : "(" + x + " - " + toString(origin) + ")";
        to += (d ? ", " : "") +
              (c.strides[d] == 1 ? shifted : shifted + "/" + std::to_string(c.strides[d]));
    }
    const std::string& name = realize->tensor.name();
    return name + "(" + from + ") -> " + name + "(" + to + ")";
}

std::string boxText(const Box& box) {
    std::string s;
    for (const auto& [lo, hi] : box)
        s += (s.empty() ? "" : ", ") + std::to_string(lo) + ":" + std::to_string(hi + 1);
    return "[" + s + "]";
}

/// The position in the packed buffer of the element at `at` in box `k`.
Expr packedIndex(const Compaction& c, size_t k, const std::vector<Expr>& at) {
    int64_t offset = 0;
    for (size_t j = 0; j < k; ++j)
        offset += boxSize(c.boxes[j]);
    const auto& box = c.boxes[k];
    Expr index = Expr(0);
    for (size_t d = 0; d < box.size(); ++d)
        index = index * int(box[d].second - box[d].first + 1) + (at[d] - int(box[d].first));
    Analyzer analyzer;
    return analyzer.simplify(index + int(offset));
}

/// The packed indices of the element at `at` (offsets from the realize's min) in box `k`: the
/// position in the packed buffer, then 0 for every other axis.
std::vector<Expr> packedIndices(const Compaction& c, size_t k, const std::vector<Expr>& at) {
    std::vector<Expr> indices{packedIndex(c, k, at)};
    for (size_t d = 1; d < at.size(); ++d)
        indices.push_back(makeZero(at[d].type()));
    return indices;
}

/// `T(x0, x1) -> T(x0*2 + x1) in [0:2, 0:2], T(4 + (x0 - 2)*2 + (x1 - 2)) in [2:4, 2:4]`.
std::string boxesMapText(const ProducerRealizeNode* realize, const Compaction& c) {
    const std::string& name = realize->tensor.name();
    std::vector<Expr> xs;
    std::string from;
    for (size_t d = 0; d < c.boxes[0].size(); ++d) {
        Var x("x" + std::to_string(d));
        Expr min = realize->bounds[d].min;
        xs.push_back(isZero(min) ? Expr(x) : Expr(x) - min);
        from += (d ? ", " : "") + x->name;
    }
    std::string text = name + "(" + from + ") -> ";
    for (size_t k = 0; k < c.boxes.size(); ++k)
        text += (k ? ", " : "") + name + "[" + toString(packedIndex(c, k, xs)) + "] in " +
                boxText(c.boxes[k]);
    return text;
}

/// Every access of `tensor` gets its indices from `map` (given its indices and the loops around
/// it, outermost first); an access the map returns nothing for is left as it is.
class AccessMapper : public IRMutator {
public:
    using Map = std::function<std::optional<std::vector<Expr>>(
        const std::vector<Expr>& indices, const std::vector<const ForNode*>& loops)>;
    AccessMapper(const Tensor& tensor, Map map) : m_tensor(tensor), m_map(std::move(map)) {}

protected:
    using IRMutator::visit;
    Stmt visit(const ForNode* op) override {
        m_loops.push_back(op);
        Stmt s = IRMutator::visit(op);
        m_loops.pop_back();
        return s;
    }
    Stmt visit(const ProducerStoreNode* op) override {
        std::optional<std::vector<Expr>> mapped;
        if (op->tensor.same_as(m_tensor))
            mapped = m_map(op->indices, m_loops);
        Stmt s = IRMutator::visit(op);
        if (!mapped)
            return s;
        const auto* store = s.as<ProducerStoreNode>();
        return ProducerStoreNode::make(m_tensor, store->value, *mapped);
    }
    Expr visit(const ProducerLoadNode* op) override {
        std::optional<std::vector<Expr>> mapped;
        if (op->tensor.same_as(m_tensor))
            mapped = m_map(op->indices, m_loops);
        return mapped ? ProducerLoadNode::make(m_tensor, *mapped) : IRMutator::visit(op);
    }

    const Tensor& m_tensor;

private:
    Map m_map;
    std::vector<const ForNode*> m_loops;
};

Stmt Compactor::rewriteLattice(const ProducerRealizeNode* realize, const Stmt& body,
                               const Plan& plan) {
    const Compaction& c = plan.compaction;
    // The producer's loops run the lattice's points: `for (v, lo, n)` becomes
    // `for (v, 0, ceil((n - f)/stride))` with v = lo + f + stride*v, f the first point's offset.
    class LoopRewriter : public IRMutator {
    public:
        LoopRewriter(const Plan& plan) : m_plan(plan) {}

    protected:
        using IRMutator::visit;
        Stmt visit(const ForNode* op) override {
            auto found = m_plan.loops.find(op);
            Stmt s = IRMutator::visit(op);
            if (found == m_plan.loops.end())
                return s;
            const AxisLoop& axis = found->second;
            const int64_t stride = m_plan.compaction.strides[size_t(axis.axis)];
            if (stride == 1)
                return s;
            const auto* loop = s.as<ForNode>();
            const int64_t first = floorModInt(
                m_plan.compaction.offsets[size_t(axis.axis)] - (axis.min + axis.offset), stride);
            Expr value = Expr(int(axis.min + first)) + Expr(int(stride)) * loop->loopVar;
            Stmt inner = substitute(loop->body, VarMap<Expr>{{loop->loopVar, value}});
            Analyzer analyzer;
            Expr extent = analyzer.simplify(
                floordiv(loop->extent - int(first) + int(stride - 1), Expr(int(stride))));
            return carryStep(s, ForNode::make(loop->loopVar, makeZero(loop->min.type()), extent,
                                              loop->kind, inner, loop->threadBinding));
        }

    private:
        const Plan& m_plan;
    };
    Stmt looped = LoopRewriter(plan).visitStmt(body);
    // Strided axes are indexed from 0 by (x - min - offset) / stride; the others keep their min.
    return AccessMapper(realize->tensor,
                        [&](const std::vector<Expr>& indices, const std::vector<const ForNode*>&) {
                            std::vector<Expr> out;
                            Analyzer analyzer;
                            for (size_t d = 0; d < indices.size(); ++d) {
                                Expr at = indices[d] - realize->bounds[d].min - int(c.offsets[d]);
                                out.push_back(
                                    c.strides[d] == 1
                                        ? indices[d]
                                        : analyzer.simplify(floordiv(at, Expr(int(c.strides[d])))));
                            }
                            return std::optional<std::vector<Expr>>(out);
                        })
        .visitStmt(looped);
}

Stmt Compactor::rewriteBoxes(const ProducerRealizeNode* realize, const Stmt& body,
                             const Plan& plan) {
    const Compaction& c = plan.compaction;
    const Tensor& tensor = realize->tensor;
    auto offsets = [&](const std::vector<Expr>& indices) {
        std::vector<Expr> at;
        for (size_t d = 0; d < indices.size(); ++d)
            at.push_back(indices[d] - realize->bounds[d].min);
        return at;
    };
    // The producer once per box: its axis loops restricted to the box, its writes (and a
    // reduction's reads of them) into the box's part of the packed buffer.
    class ProducerCopies : public IRMutator {
    public:
        ProducerCopies(const Compaction& c, const Plan& plan, const Tensor& tensor,
                       std::function<std::vector<Expr>(const std::vector<Expr>&)> offsets)
            : m_c(c), m_plan(plan), m_tensor(tensor), m_offsets(std::move(offsets)) {}

    protected:
        using IRMutator::visit;
        Stmt visit(const ProducerConsumerNode* op) override {
            if (!op->isProducer || !op->op.same_as(m_tensor.op))
                return IRMutator::visit(op);
            std::vector<Stmt> copies;
            for (size_t k = 0; k < m_c.boxes.size(); ++k) {
                const size_t box = k;
                Stmt copy = AccessMapper(m_tensor, [&](const std::vector<Expr>& indices,
                                                       const std::vector<const ForNode*>&) {
                                return std::optional<std::vector<Expr>>(
                                    packedIndices(m_c, box, m_offsets(indices)));
                            }).visitStmt(limitToBox(op->body, box));
                copies.push_back(copy);
            }
            return carryStep(Stmt(op),
                             ProducerConsumerNode::make(op->op, true, SeqNode::make(copies)));
        }

    private:
        Stmt limitToBox(const Stmt& body, size_t box) {
            struct LimitToBox : IRMutator {
                const Compaction* c;
                const Plan* plan;
                size_t box;
                using IRMutator::visit;
                Stmt visit(const ForNode* op) override {
                    auto found = plan->loops.find(op);
                    Stmt s = IRMutator::visit(op);
                    if (found == plan->loops.end())
                        return s;
                    const auto* loop = s.as<ForNode>();
                    const AxisLoop& axis = found->second;
                    const auto& [lo, hi] = c->boxes[box][size_t(axis.axis)];
                    const int64_t extent = *asConstInt(loop->extent);
                    const int64_t begin = std::max(axis.min, lo - axis.offset);
                    const int64_t end = std::min(axis.min + extent, hi + 1 - axis.offset);
                    return carryStep(s, ForNode::make(loop->loopVar, Expr(int(begin)),
                                                      Expr(int(std::max<int64_t>(0, end - begin))),
                                                      loop->kind, loop->body, loop->threadBinding));
                }
            } limit;
            limit.c = &m_c;
            limit.plan = &m_plan;
            limit.box = box;
            return limit.visitStmt(body);
        }

        const Compaction& m_c;
        const Plan& m_plan;
        const Tensor& m_tensor;
        std::function<std::vector<Expr>(const std::vector<Expr>&)> m_offsets;
    };
    // The consumers' reads first, then the producer's copies. A read is in the box that holds what
    // it reads over the loops around it (found again here, not by node: one read may sit in several
    // places, as in another buffer's producer copies).
    class ReadMapper : public AccessMapper {
    public:
        using AccessMapper::AccessMapper;

    protected:
        using AccessMapper::visit;
        Stmt visit(const ProducerConsumerNode* op) override {
            const bool producer = op->isProducer && op->op.same_as(m_tensor.op);
            return producer ? Stmt(op) : AccessMapper::visit(op); // the producer's: per copy below
        }
    };
    Stmt read =
        ReadMapper(tensor, [&](const std::vector<Expr>& indices,
                               const std::vector<const ForNode*>& loops) {
            std::optional<Box> box = readBox(realize, indices, loops);
            BS_CHECK(box) << "compact storage: a read of " << tensor.name() << " has no box";
            for (size_t k = 0; k < c.boxes.size(); ++k)
                if (contains(c.boxes[k], *box))
                    return std::optional<std::vector<Expr>>(packedIndices(c, k, offsets(indices)));
            BS_UNREACHABLE("compact storage: a read outside every box");
        }).visitStmt(body);
    return ProducerCopies(c, plan, tensor, offsets).visitStmt(read);
}

std::optional<Plan> Compactor::plan(const ProducerRealizeNode* realize, const Stmt& body) {
    const Tensor& tensor = realize->tensor;
    for (const Tensor& arg : m_args)
        if (arg.same_as(tensor))
            return std::nullopt;
    if (!tensor.op.as<ComputeOpNode>() || tensor.op->numOutputs() != 1 || realize->bounds.empty())
        return std::nullopt;
    AccessCollector collector(tensor);
    collector.visitStmt(body);
    const std::vector<Access>& accesses = collector.accesses;
    if (std::none_of(accesses.begin(), accesses.end(),
                     [](const Access& a) { return a.load && !a.inProducer; }))
        return std::nullopt;
    auto fresh = [&] {
        Plan p;
        p.compaction.tensor = tensor;
        p.compaction.before = realize->bounds;
        return p;
    };
    Plan plan = fresh();
    bool found = latticePlan(realize, accesses, plan);
    if (!found && plan.kept.empty()) {
        plan = fresh();
        found = boxesPlan(realize, accesses, plan);
    }
    if (!found && plan.kept.empty())
        return std::nullopt; // a rectangle is what the reads need
    if (found && aligned.count(tensor.op.get()))
        plan.kept = "its stage has storage_align, which pads its rectangle's rows";
    if (found && !collector.blocker.empty())
        plan.kept = collector.blocker;
    return plan;
}

int Compactor::addStep(const ProducerRealizeNode* realize, const Plan& plan,
                       const std::string& text) {
    if (!m_steps)
        return -1;
    const Compaction& c = plan.compaction;
    BoundStep step;
    step.phase = StepPhase::Compact;
    step.rule = !plan.kept.empty()                    ? "kept"
                : c.kind == Compaction::Kind::Lattice ? "lattice"
                                                      : "boxes";
    step.tensor = c.tensor;
    // The stage whose realize this is: for a cache_write, the stage's op realizes the original
    // op's tensor; its realize step names the stage.
    Operation stage = c.tensor.op;
    if (realize->stepId() >= 0) {
        const BoundStep& realized = m_steps->at(realize->stepId());
        step.from = {realized.id};
        step.location = realized.location;
        if (realized.stage.defined())
            stage = realized.stage;
    }
    step.stage = stage;
    for (size_t d = 0; d < c.before.size(); ++d)
        step.inputs.push_back({c.tensor.name() + "[axis " + std::to_string(d) + "]", IterVar(),
                               std::nullopt, c.before[d], Expr()});
    if (plan.kept.empty())
        for (size_t d = 0; d < c.after.size(); ++d)
            step.outputs.push_back({c.tensor.name() + "'[axis " + std::to_string(d) + "]",
                                    IterVar(), std::nullopt, c.after[d], Expr()});
    step.text = text;
    const int id = m_steps->add(std::move(step));
    // The compact region is the one realized from now on (the heatmap's and the IR's).
    if (plan.kept.empty())
        m_steps->setRealizeStep(stage, c.tensor.valueIndex, id);
    return id;
}

/// The element count of a region, `97` or `(n*4)`.
std::string count(const Region& region) {
    Expr size = Expr(1);
    for (const Range& r : region)
        size = size * r.extent;
    Analyzer analyzer;
    return toString(analyzer.simplify(size));
}

Stmt Compactor::compact(const ProducerRealizeNode* realize, Stmt body) {
    std::optional<Plan> found = plan(realize, body);
    if (!found)
        return Stmt();
    Plan& p = *found;
    Compaction& c = p.compaction;
    const std::string& name = realize->tensor.name();
    const std::string region = name + "(" + regionToString(realize->bounds) + ")";
    if (!p.kept.empty()) {
        std::string what = c.kind == Compaction::Kind::Lattice ? "a lattice" : "disjoint boxes";
        addStep(realize, p,
                "Compact " + name + ": its consumers read " + what + " of " + region + ", but " +
                    name + " keeps its rectangle: " + p.kept + ".");
        return Stmt();
    }
    Stmt rewritten;
    std::string text;
    if (c.kind == Compaction::Kind::Lattice) {
        c.indexMap = latticeMapText(realize, c);
        rewritten = rewriteLattice(realize, body, p);
        std::string strides, loops;
        for (size_t d = 0; d < c.strides.size(); ++d)
            if (c.strides[d] > 1)
                strides += std::string(strides.empty() ? "" : ", ") + "axis " + std::to_string(d) +
                           " every " + std::to_string(c.strides[d]) + " from offset " +
                           std::to_string(c.offsets[d]);
        for (const auto& [loop, axis] : p.loops)
            if (c.strides[size_t(axis.axis)] > 1)
                loops += std::string(loops.empty() ? "" : ", ") + loop->loopVar->name;
        text = "Compact " + name + ": its consumers read " + region + " only on a lattice (" +
               strides + "), " + count(c.after) + " of its " + count(c.before) + " elements. " +
               name + " stores those: " + c.indexMap + "; the producer's loop" +
               (p.loops.size() > 1 ? "s " : " ") + loops + (p.loops.size() > 1 ? " run" : " runs") +
               " the lattice's points only.";
    } else {
        c.indexMap = boxesMapText(realize, c);
        rewritten = rewriteBoxes(realize, body, p);
        std::string boxes;
        for (size_t k = 0; k < c.boxes.size(); ++k)
            boxes += (k == 0                    ? ""
                      : k + 1 == c.boxes.size() ? " and "
                                                : ", ") +
                     name + boxText(c.boxes[k]);
        text = "Compact " + name + ": its consumers read " + std::to_string(c.boxes.size()) +
               " disjoint boxes of " + region + " (offsets from its min), " + boxes + ": " +
               count(c.after) + " of its " + count(c.before) + " elements. " + name +
               " stores them packed, one after the other: " + c.indexMap +
               "; the producer runs once per box.";
    }
    c.step = addStep(realize, p, text);
    compactions.push_back(c);
    return withStep(ProducerRealizeNode::make(realize->tensor, c.after, realize->condition,
                                              rewritten, realize->storageScope),
                    c.step);
}

class CompactMutator : public IRMutator {
public:
    explicit CompactMutator(Compactor& compactor) : m_compactor(compactor) {}

protected:
    using IRMutator::visit;
    Stmt visit(const ProducerRealizeNode* op) override {
        Stmt s = IRMutator::visit(op);
        const auto* realize = s.as<ProducerRealizeNode>();
        Stmt compacted = m_compactor.compact(realize, realize->body);
        return compacted.defined() ? compacted : s;
    }

private:
    Compactor& m_compactor;
};

} // namespace

CompactResult compactStorage(const Stmt& afterScheduleOps, const std::vector<Tensor>& args,
                             BoundSteps* steps) {
    Compactor compactor(args, steps);
    postOrderVisit(afterScheduleOps, [&](const NodeRef& node) {
        if (const auto* attr = node.as<AttrStmtNode>(); attr && attr->key == attr::kBufferDimAlign)
            compactor.aligned.insert(attr->node.get());
    });
    CompactMutator mutator(compactor);
    CompactResult result;
    result.body = mutator.visitStmt(afterScheduleOps);
    result.compactions = std::move(compactor.compactions);
    return result;
}

} // namespace bs
