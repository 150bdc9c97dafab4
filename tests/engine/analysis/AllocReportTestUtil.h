/// \file
/// Helpers for the allocation report's tests: a buffer's numbers and causes by name.
#pragma once

#include "analysis/AllocReport.h"
#include "engine/GatherBound.h"
#include "ir/Op.h"
#include "schedule/InferBoundTight.h"
#include "te/Compute.h"

#include <gtest/gtest.h>

#define REQUIRE_ISL()                                                                              \
    if (!::bs::hasIsl())                                                                           \
    GTEST_SKIP() << "built without ISL"

namespace bs::test {

inline Expr f32(double v) { return makeConst(DataType::float32(), v); }
inline const ComputeOpNode* opOf(const Tensor& t) { return t.op.as<ComputeOpNode>(); }

inline std::optional<int64_t> allocated(const BufferReport& b, BoundRules rules) {
    return b.allocation(rules)->allocated;
}
inline std::optional<int64_t> computed(const BufferReport& b, BoundRules rules) {
    return b.allocation(rules)->computed;
}

inline const AllocCause* causeOf(const BufferReport& b, WasteCause kind) {
    for (const AllocCause& c : b.causes)
        if (c.kind == kind)
            return &c;
    return nullptr;
}

inline std::vector<WasteCause> kinds(const BufferReport& b) {
    std::vector<WasteCause> out;
    for (const AllocCause& c : b.causes)
        out.push_back(c.kind);
    return out;
}

/// The GatherBound example: CA reads T[0:2, 0:2], CB reads T[2:4, 2:4], Out reads both.
inline Schedule gatherDisjoint() { return GatherBound().schedule(); }

/// Two stages with te.compute's default name, "compute": B = A * 2 (32 x 32), computed four rows
/// at a time inside C's outer loop, and C = B[i, j] + B[i, j + 16] (32 x 16), which the
/// schedule names `compute_1`.
struct TwoComputes {
    Tensor A = placeholder({32, 32}, DataType::float32(), "A");
    Tensor B = compute(
        {32, 32},
        [this](const std::vector<Var>& v) {
            return A({v[0], v[1]}) * f32(2);
        },
        "compute");
    Tensor C = compute(
        {32, 16},
        [this](const std::vector<Var>& v) {
            return B({v[0], v[1]}) + B({v[0], v[1] + 16});
        },
        "compute");
    Schedule s = createSchedule(C.op);

    TwoComputes() { s[B].computeAt(s[C], s[C].split(opOf(C)->axis[0], 4).first); }
    AllocReport report() const {
        AllocReportOptions options;
        options.args = {A, C};
        return allocReport(s, options);
    }
};

inline const BufferReport& buffer(const AllocReport& r, const std::string& name) {
    const BufferReport* b = r.find(name);
    EXPECT_NE(b, nullptr) << name;
    return *b;
}

} // namespace bs::test
