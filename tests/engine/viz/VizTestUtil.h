/// \file
/// The seed's example schedules (seed 000, Ex. 4-6), built in C++ for the viz tests, with
/// their normalized schedule and InferBound result.
#pragma once

#include "ir/Op.h"
#include "schedule/InferBound.h"
#include "te/Compute.h"
#include "te/Reduce.h"
#include "viz/ScheduleGraphs.h"

#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace bs::viz::test {

/// A schedule, its normalized copy and InferBound's result on that copy.
struct Bounded {
    Schedule schedule;
    Schedule normalized;
    std::shared_ptr<InferBoundResult> result;

    explicit Bounded(const Schedule& s)
        : schedule(s), normalized(s.normalize()),
          result(std::make_shared<InferBoundResult>(inferBound(normalized))) {}
    /// The input for graphs of the normalized schedule with its bounds and trace.
    GraphInput input() const { return {normalized, &result->bounds, &result->trace}; }
    Stage stage(const Tensor& t) const { return normalized[t]; }
};

inline const ComputeOpNode* computeOf(const Tensor& t) { return t.op.as<ComputeOpNode>(); }

/// Seed 000, Ex. 4: C (5, 16) computed at D.dk of D (4, 5, 16).
struct Ex4 {
    Tensor C =
        compute({5, 16}, [](const std::vector<Var>&) { return Expr(5); }, "C", "", {"i", "j"});
    Tensor D = compute({4, 5, 16},
                       [this](const std::vector<Var>& v) {
                           return C({v[1], v[2]}) * 2;
                       },
                       "D", "", {"di", "dj", "dk"});
    Schedule s = createSchedule(D.op);
    Ex4() { s[C].computeAt(s[D], computeOf(D)->axis[2]); }
};

/// Seed 000, Ex. 5: D's j split by 8, C computed at j.inner.
struct Ex5 {
    Tensor C =
        compute({5, 16}, [](const std::vector<Var>&) { return Expr(5); }, "C", "", {"i", "j"});
    Tensor D = compute({5, 16},
                       [this](const std::vector<Var>& v) {
                           return C({v[0], v[1]}) * 2;
                       },
                       "D", "", {"i", "j"});
    Schedule s = createSchedule(D.op);
    IterVar outer;
    IterVar inner;
    Ex5() {
        std::tie(outer, inner) = s[D].split(computeOf(D)->axis[1], 8);
        s[C].computeAt(s[D], inner);
    }
};

/// Seed 000, Ex. 6: A (200, 400) -> B (shared, at C.i) -> C (100, 200) bound to
/// blockIdx.x/threadIdx.x; B's j bound to threadIdx.x. `setShared = false` is Ex. 8, where
/// InferBound infers the scope.
struct Ex6 {
    Tensor A = placeholder({200, 400}, DataType::float32(), "A");
    Tensor B = compute({200, 400},
                       [this](const std::vector<Var>& v) {
                           return makeConst(DataType::float32(), 3.14) * A({v[0], v[1]});
                       },
                       "B", "", {"i", "j"});
    Tensor C = compute({100, 200},
                       [this](const std::vector<Var>& v) {
                           return makeConst(DataType::float32(), 2.72) * B({v[0], v[1]});
                       },
                       "C", "", {"i", "j"});
    IterVar blockX = threadAxis("blockIdx.x");
    IterVar threadX = threadAxis("threadIdx.x");
    Schedule s = createSchedule(C.op);
    explicit Ex6(bool setShared = true) {
        s[C].bind(computeOf(C)->axis[0], blockX);
        s[C].bind(computeOf(C)->axis[1], threadX);
        if (setShared)
            s[B].setScope("shared");
        s[B].computeAt(s[C], computeOf(C)->axis[0]);
        s[B].bind(computeOf(B)->axis[1], threadX);
    }
};

/// C(i, j) = sum over k of A(i, j, k): j split by 4, then i fused with j.outer; k is still a
/// root leaf, so normalize rebases it.
struct SplitFuse {
    Tensor A = placeholder({16, 32, 8}, DataType::float32(), "A");
    IterVar k = reduceAxis(Range(0, 8), "k");
    Tensor C = compute({16, 32},
                       [this](const std::vector<Var>& v) {
                           return sum(A({v[0], v[1], k}), {k});
                       },
                       "C", "", {"i", "j"});
    Schedule s = createSchedule(C.op);
    IterVar fused;
    SplitFuse() {
        auto [jo, ji] = s[C].split(computeOf(C)->axis[1], 4);
        fused = s[C].fuse(computeOf(C)->axis[0], jo);
        s[C].vectorize(ji);
    }
};

inline std::vector<std::string> titles(const std::vector<const GraphNode*>& nodes) {
    std::vector<std::string> out;
    for (const GraphNode* n : nodes)
        out.push_back(n->title);
    return out;
}

/// The texts of a row's cells joined by " | ".
inline std::string rowText(const LabelRow& row) {
    std::string out;
    for (const LabelCell& c : row.cells)
        out += (out.empty() ? "" : " | ") + c.text;
    return out;
}

using Names = std::vector<std::string>;

} // namespace bs::viz::test
