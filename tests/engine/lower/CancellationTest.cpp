// support/Cancellation.h: a flag installed for a thread stops the engine's long work.
#include "support/Cancellation.h"

#include "lower/Lower.h"
#include "te/Compute.h"

#include <gtest/gtest.h>

namespace bs {
namespace {

LowerResult lowerTwoStages() {
    Tensor a = placeholder({64}, DataType::float32(), "A");
    Tensor b = compute(
        {64}, [&](const std::vector<Var>& v) { return a({v[0]}); }, "B");
    Tensor c = compute(
        {64}, [&](const std::vector<Var>& v) { return b({v[0]}); }, "C");
    return lower(createSchedule(c.op), {a, c});
}

TEST(Cancellation, ASetFlagStopsLoweringAndAScopeRestoresTheOuterFlag) {
    std::atomic<bool> set{true};
    std::atomic<bool> clear{false};
    {
        CancellationScope outer(&set);
        EXPECT_THROW(lowerTwoStages(), Cancelled);
        {
            CancellationScope inner(&clear);
            EXPECT_NO_THROW(lowerTwoStages());
        }
        EXPECT_THROW(throwIfCancelled(), Cancelled);
    }
    EXPECT_NO_THROW(lowerTwoStages()); // no flag outside the scopes
}

} // namespace
} // namespace bs
