/// \file
/// Helpers of the TC tests: lowering a schedule and running it in the reference interpreter
/// on pseudo-random inputs, to compare the values a program computes.
#pragma once

#include "ir/Op.h"
#include "lower/Lower.h"
#include "runtime/Interpreter.h"
#include "tc/Tc.h"

#include <gtest/gtest.h>

#include <vector>

namespace bs::test {

/// The buffers of `args` (in order) after running `sch`: inputs filled with random values
/// seeded by their position, outputs as the program left them. Shapes must be constant.
inline std::vector<Buffer> runSchedule(const Schedule& sch, const std::vector<Tensor>& args) {
    LowerResult lowered = lower(sch, args);
    std::vector<Buffer> buffers;
    for (size_t i = 0; i < args.size(); ++i) {
        std::vector<int64_t> shape;
        for (const Expr& e : args[i].shape()) {
            auto extent = asConstInt(e);
            EXPECT_TRUE(extent.has_value()) << "symbolic shape in " << args[i].name();
            shape.push_back(extent.value_or(0));
        }
        buffers.emplace_back(args[i].name(), args[i].dtype(), shape);
        buffers.back().fillRandom(i + 11);
    }
    Interpreter interpreter;
    for (size_t i = 0; i < args.size(); ++i)
        interpreter.bindBuffer(lowered.func.argBuffers[i], buffers[i]);
    interpreter.run(lowered.func.final);
    return buffers;
}

/// Element-wise equality of two buffers of the same shape, within a float tolerance.
inline void expectSameValues(const Buffer& a, const Buffer& b, double tolerance = 1e-4) {
    ASSERT_EQ(a.size(), b.size()) << a.name() << " vs " << b.name();
    for (int64_t k = 0; k < a.size(); ++k)
        ASSERT_NEAR(a.getDouble(k), b.getDouble(k), tolerance) << a.name() << " at " << k;
}

/// The diagnostic (`file:line: error: col N: ...`) buildTc throws for `source`; a test failure
/// when it builds.
inline std::string tcErrorOf(const std::string& source, const tc::TcOptions& options = {}) {
    try {
        tc::buildTc(source, options);
    } catch (const UserError& e) {
        return e.diagnostic().toString();
    }
    ADD_FAILURE() << "no error for\n" << source;
    return "";
}

} // namespace bs::test
