/// \file
/// The warp example the schedule, lowering and analysis tests share: B = A + 1 and C = B * 2,
/// both 4 x 32, with nothing scheduled yet. The tests give B warp storage and bind its loops
/// (or C's) to threadIdx.x, the lanes of a warp, and threadIdx.y, other warps.
#pragma once

#include "ir/Op.h"
#include "schedule/Schedule.h"
#include "te/Compute.h"

namespace bs::test {

struct WarpPair {
    Tensor A, B, C;
    Schedule s;

    WarpPair() {
        const auto f32 = [](double v) { return makeConst(DataType::float32(), v); };
        A = placeholder({4, 32}, DataType::float32(), "A");
        B = compute(
            {4, 32},
            [&](const std::vector<Var>& v) {
                return A({v[0], v[1]}) + f32(1);
            },
            "B");
        C = compute(
            {4, 32},
            [&](const std::vector<Var>& v) {
                return B({v[0], v[1]}) * f32(2);
            },
            "C");
        s = createSchedule(C.op);
    }
    const std::vector<IterVar>& axis(const Tensor& t) const {
        return t.op.as<ComputeOpNode>()->axis;
    }
};

} // namespace bs::test
