/// \file
/// Helpers for the schedule tests: names of IterVars and stages, and small programs.
#pragma once

#include "ir/Op.h"
#include "schedule/AttachPath.h"
#include "schedule/Schedule.h"
#include "te/Compute.h"
#include "te/Reduce.h"

#include <string>
#include <vector>

namespace bs::test {

inline std::vector<std::string> names(const std::vector<IterVar>& ivs) {
    std::vector<std::string> out;
    for (const IterVar& iv : ivs)
        out.push_back(iv->var.name());
    return out;
}

/// The names of the loops of `path`, innermost first.
inline std::vector<std::string> names(const AttachPath& path) { return names(path.loops()); }

inline std::vector<std::string> stageNames(const Schedule& sch) {
    std::vector<std::string> out;
    for (const Stage& s : sch.stages())
        out.push_back(s->op->name);
    return out;
}

inline std::vector<std::string> relationStrings(const Stage& stage) {
    std::vector<std::string> out;
    for (const IterVarRelation& rel : stage->relations)
        out.push_back(toString(rel));
    return out;
}

using Names = std::vector<std::string>;

/// A(m, n) placeholder, C = A * 2 over (m, n) with axes (i, j, ...).
struct Elementwise {
    Tensor a;
    Tensor c;
    Schedule sch;

    explicit Elementwise(std::vector<Expr> shape = {64, 32}) {
        a = placeholder(shape, DataType::float32(), "A");
        c = compute(
            shape,
            [this](const std::vector<Var>& v) {
                return a(std::vector<Expr>(v.begin(), v.end())) * 2.0f;
            },
            "C");
        sch = createSchedule(c.op);
    }
    const ComputeOpNode* op() const { return c.op.as<ComputeOpNode>(); }
    IterVar axis(size_t i) const { return op()->axis[i]; }
};

/// B(i) = sum over k of A(i, k), with A (n, m).
struct RowSum {
    Tensor a;
    IterVar k;
    Tensor b;
    Schedule sch;

    explicit RowSum(Expr n = 32, Expr m = 128) {
        a = placeholder({n, m}, DataType::float32(), "A");
        k = reduceAxis(Range(0, m), "k");
        b = compute(
            {n},
            [this](const std::vector<Var>& v) {
                return sum(a({v[0], k}), {k});
            },
            "B");
        sch = createSchedule(b.op);
    }
    IterVar axis() const { return b.op.as<ComputeOpNode>()->axis[0]; }
};

} // namespace bs::test
