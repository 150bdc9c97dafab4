// The per-stage part of RandomScheduler: loop transforms, annotations and compute_at.
#include "RandomSchedule.h"

#include "ir/Op.h"
#include "ir/Printer.h"
#include "ir/Substitute.h"
#include "schedule/InferBound.h"
#include "te/Compute.h"

#include <algorithm>
#include <optional>

namespace bs::test {

void RandomScheduler::transformLoops(const Stage& stage) {
    static const int kFactors[] = {1, 2, 3, 4, 5, 7, 8};
    static const int kParts[] = {2, 3, 4};
    std::string self = stageName(stage);
    for (int n = pick(4); n-- > 0;) {
        std::vector<IterVar> leaves = unboundLeaves(stage);
        if (leaves.empty())
            return;
        IterVar iv = leaves[size_t(pick(int(leaves.size())))];
        std::string name = ivName(stage, iv);
        int choice = pick(4);
        if (choice <= 1) {
            bool nparts = choice == 1;
            int factor = nparts ? kParts[pick(3)] : kFactors[pick(7)];
            apply([&] {
                auto [outer, inner] =
                    nparts ? stage.splitByNParts(iv, factor) : stage.split(iv, factor);
                return newName(outer) + ", " + newName(inner) + " = " + self + ".split(" + name +
                       (nparts ? ", nparts=" : ", factor=") + std::to_string(factor) + ")";
            });
        } else if (choice == 2) {
            fuseWithNext(stage, iv);
        } else {
            reorderLeaves(stage, leaves);
        }
    }
}

void RandomScheduler::fuseWithNext(const Stage& stage, const IterVar& iv) {
    size_t pos = size_t(stage.leafIndex(iv));
    const auto& all = stage->leafIterVars;
    if (pos + 1 >= all.size() || isBound(stage, all[pos + 1]))
        return;
    IterVar next = all[pos + 1];
    std::string names = ivName(stage, iv) + ", " + ivName(stage, next);
    apply([&] {
        IterVar fused = stage.fuse(iv, next);
        return newName(fused) + " = " + stageName(stage) + ".fuse(" + names + ")";
    });
}

void RandomScheduler::reorderLeaves(const Stage& stage, std::vector<IterVar> leaves) {
    std::shuffle(leaves.begin(), leaves.end(), m_rng);
    std::vector<std::string> names;
    for (const IterVar& leaf : leaves)
        names.push_back(ivName(stage, leaf));
    apply([&] {
        stage.reorder(leaves);
        return stageName(stage) + ".reorder(" + joinPython(names) + ")";
    });
}

void RandomScheduler::annotate(const Stage& stage) {
    std::vector<IterVar> leaves = unboundLeaves(stage);
    if (leaves.empty())
        return;
    std::string self = stageName(stage);
    const IterVar& inner = stage->leafIterVars.back();
    bool vectorized = false;
    if (!isBound(stage, inner) && inner->iterType == IterVarType::DataPar && chance(0.25))
        vectorized = apply([&] {
            stage.vectorize(inner);
            return self + ".vectorize(" + ivName(stage, inner) + ")";
        });
    IterVar pickd = leaves[size_t(pick(int(leaves.size())))];
    if (chance(0.2) && !(vectorized && pickd.same_as(inner)))
        apply([&] {
            stage.unroll(pickd);
            return self + ".unroll(" + ivName(stage, pickd) + ")";
        });
    // A virtual thread: a serial loop whose variable is bound like a thread's.
    IterVar virt = leaves[size_t(pick(int(leaves.size())))];
    if (m_case.gpu && virt->iterType == IterVarType::DataPar && !stage.attrOf(virt) && chance(0.15))
        apply([&] { return bindLine(stage, virt, "vthread"); });
    const IterVar& outer = stage->leafIterVars.front();
    if (!m_case.gpu && outer->iterType == IterVarType::DataPar && !stage.attrOf(outer) &&
        chance(0.15))
        apply([&] {
            stage.parallel(outer);
            return self + ".parallel(" + ivName(stage, outer) + ")";
        });
}

void RandomScheduler::attachProducers(const Stage& consumer) {
    for (const Stage& producer : std::vector<Stage>(m_case.schedule->stages)) {
        if (!producer->op.as<ComputeOpNode>() || producer->isOutput ||
            producer->attachType != AttachType::GroupRoot)
            continue;
        std::vector<Stage> consumers = consumersOf(producer);
        if (consumers.size() != 1 || !consumers[0].same_as(consumer) || !chance(0.65))
            continue;
        const auto& leaves = consumer->leafIterVars;
        int pos = pick(int(leaves.size()));
        IterVar leaf = leaves[size_t(pos)];
        // A reduction shared by a block would be updated by every thread the stage does not
        // bind (a race TVM's code has too): keep reductions out of block-level attachment.
        bool reduces = !producer->op.as<ComputeOpNode>()->reduceAxis.empty();
        if (m_case.gpu && reduces && gpuLevel(consumer, pos) == 1)
            continue;
        bool attached = apply([&] {
            producer.computeAt(consumer, leaf);
            return stageName(producer) + ".compute_at(" + stageName(consumer) + ", " +
                   ivName(consumer, leaf) + ")";
        });
        if (attached)
            placeAttached(producer, consumer, leaf);
    }
}

void RandomScheduler::placeAttached(const Stage& producer, const Stage& consumer,
                                    const IterVar& leaf) {
    int level = gpuLevel(consumer, consumer.leafIndex(leaf));
    m_attachLevel[producer.get()] = level;
    if (!m_case.gpu || level == 0)
        return;
    std::string scope = level == 2 ? "local" : "shared";
    apply([&] {
        producer.setScope(scope);
        return stageName(producer) + ".set_scope(\"" + scope + "\")";
    });
    if (level == 1)
        bindCooperatively(producer);
    else
        shareVirtualThread(producer, consumer, consumer.leafIndex(leaf));
}

std::optional<IterVarMap<Range>> RandomScheduler::currentBounds() const {
    try {
        return inferBound(m_case.schedule.normalize()).bounds;
    } catch (const UserError&) {
        return std::nullopt;
    }
}

bool RandomScheduler::isPointCandidate(const Stage& stage, const IterVar& leaf,
                                       const IterVarMap<Range>& bounds) const {
    // A root axis or the inner part of a split adds its value to its axis unscaled, so a
    // consumer read at that axis asks one point of the producer per thread value; a loop of
    // one iteration asks its min and needs no thread.
    auto range = bounds.find(leaf);
    if (isBound(stage, leaf) || leaf->iterType != IterVarType::DataPar || range == bounds.end() ||
        !isZero(range->second.min) || asConstInt(range->second.extent).value_or(1) <= 1)
        return false;
    const auto& axes = stage->op.as<ComputeOpNode>()->axis;
    if (std::any_of(axes.begin(), axes.end(), [&](const IterVar& a) { return a.same_as(leaf); }))
        return true;
    return std::any_of(stage->relations.begin(), stage->relations.end(),
                       [&](const IterVarRelation& rel) {
                           const auto* split = rel.as<SplitNode>();
                           return split && split->inner.same_as(leaf);
                       });
}

void RandomScheduler::shareVirtualThread(const Stage& producer, const Stage& consumer, int pos) {
    // A vthread-bound consumer loop inside the attach point: one the consumer has, else a new
    // one on its innermost candidate leaf.
    std::optional<IterVarMap<Range>> bounds = currentBounds();
    if (!bounds)
        return;
    const auto& leaves = consumer->leafIterVars;
    IterVar thread, threadLeaf, candidate;
    for (size_t i = size_t(pos) + 1; i < leaves.size(); ++i) {
        const IterVarAttr* attr = consumer.attrOf(leaves[i]);
        if (attr && attr->bindThread.defined() && attr->bindThread->threadTag == "vthread") {
            thread = attr->bindThread;
            threadLeaf = leaves[i];
        } else if (isPointCandidate(consumer, leaves[i], *bounds)) {
            candidate = leaves[i];
        }
    }
    std::string threadName = "vt" + std::to_string(m_nextName++);
    if (thread.defined()) {
        m_case.lines.push_back(threadName + " = " + stageName(consumer) + ".iter_var_attrs[" +
                               ivName(consumer, threadLeaf) + "].bind_thread");
    } else if (candidate.defined()) {
        thread = threadAxis("vthread");
        m_case.lines.push_back(threadName + " = te.thread_axis(\"vthread\")");
        m_case.lines.push_back(stageName(consumer) + ".bind(" + ivName(consumer, candidate) + ", " +
                               threadName + ")");
        consumer.bind(candidate, thread);
    } else {
        return;
    }
    bindThreadOfPointAxis(producer, thread, threadName);
}

void RandomScheduler::bindThreadOfPointAxis(const Stage& producer, const IterVar& thread,
                                            const std::string& threadName) {
    std::optional<IterVarMap<Range>> bounds = currentBounds();
    if (!bounds || !bounds->count(thread))
        return;
    Expr factor = bounds->at(thread).extent;
    const auto& axes = producer->op.as<ComputeOpNode>()->axis;
    for (size_t d = 0; d < axes.size(); ++d) {
        auto range = bounds->find(axes[d]);
        if (range == bounds->end() || !isOne(range->second.extent) ||
            !usesVar(range->second.min, thread->var))
            continue;
        apply([&] {
            std::string axis = stageName(producer) + ".op.axis[" + std::to_string(d) + "]";
            auto [outer, inner] = producer.split(axes[d], factor);
            producer.bind(inner, thread);
            return newName(outer) + ", " + newName(inner) + " = " + stageName(producer) +
                   ".split(" + axis + ", factor=" + toString(factor) + ")\n" + stageName(producer) +
                   ".bind(" + m_ivNames[inner.get()] + ", " + threadName + ")";
        });
        return;
    }
}

void RandomScheduler::bindCooperatively(const Stage& stage) {
    std::vector<IterVar> axes = stage->op.as<ComputeOpNode>()->axis;
    if (chance(0.5)) {
        // A root axis bound straight to a thread: its range starts at the attach region's min.
        apply([&] { return bindLine(stage, axes.back(), "threadIdx.x"); });
        return;
    }
    int threads = chance(0.5) ? 4 : 8;
    apply(
        [&] { return bindLine(stage, fuseAndSplit(stage, axes, threads).second, "threadIdx.x"); });
}

} // namespace bs::test
