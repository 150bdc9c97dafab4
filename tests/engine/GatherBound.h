/// \file
/// The GatherBound problem of the InferBound seed (resources/examples/gather_disjoint.py), which
/// the schedule, differential and analysis tests all use: T = A + 1 over 4 x 4; CA reads
/// T[0:2, 0:2], CB reads T[2:4, 2:4], and Out = CA + CB.
#pragma once

#include "ir/Op.h"
#include "schedule/Schedule.h"
#include "te/Compute.h"

namespace bs::test {

struct GatherBound {
    Tensor A, T, CA, CB, Out;

    /// `input`: the placeholder T gathers from (default a 4 x 4 `A`).
    explicit GatherBound(Tensor input = Tensor()) {
        const auto f32 = [](double v) { return makeConst(DataType::float32(), v); };
        A = input.defined() ? input : placeholder({4, 4}, DataType::float32(), "A");
        T = compute(
            {4, 4},
            [&](const std::vector<Var>& v) {
                return A({v[0], v[1]}) + f32(1);
            },
            "T");
        CA = compute(
            {2, 2},
            [&](const std::vector<Var>& v) {
                return T({v[0], v[1]}) * f32(2);
            },
            "CA");
        CB = compute(
            {2, 2},
            [&](const std::vector<Var>& v) {
                return T({v[0] + 2, v[1] + 2}) * f32(3);
            },
            "CB");
        Out = compute(
            {2, 2},
            [&](const std::vector<Var>& v) {
                return CA({v[0], v[1]}) + CB({v[0], v[1]});
            },
            "Out");
    }

    Schedule schedule() const { return createSchedule(Out.op); }
};

} // namespace bs::test
