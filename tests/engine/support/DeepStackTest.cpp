// Threads with a deep stack (support/DeepStack.h): results and exceptions come back, and
// recursion far deeper than a default 8 MiB stack allows completes.
#include "support/DeepStack.h"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>

using namespace bs;

namespace {

/// About 1 KiB of stack per level, which the compiler cannot fold away.
size_t recurse(size_t depth) {
    volatile char frame[1024];
    frame[0] = char(depth);
    return depth == 0 ? size_t(frame[0]) : recurse(depth - 1) + 1;
}

} // namespace

TEST(DeepStack, ReturnsTheValueOfTheBody) {
    EXPECT_EQ(callOnDeepStack([] { return 42; }), 42);
    EXPECT_NE(callOnDeepStack([] { return std::this_thread::get_id(); }),
              std::this_thread::get_id());
}

TEST(DeepStack, RethrowsWhatTheBodyThrew) {
    EXPECT_THROW(callOnDeepStack([]() -> int { throw std::invalid_argument("bad"); }),
                 std::invalid_argument);
    EXPECT_THROW(callOnDeepStack([] { throw std::runtime_error("void body"); }),
                 std::runtime_error);
}

TEST(DeepStack, RecursionFarBeyondADefaultStackCompletes) {
    // 100,000 levels of 1 KiB: about 100 MiB of stack, twelve times a default thread's.
    EXPECT_EQ(callOnDeepStack([] { return recurse(100000); }), 100000u);
}

TEST(DeepStack, DetachedThreadsRun) {
    std::atomic<bool> ran{false};
    startDeepStackThread([&ran] { ran = recurse(20000) == 20000; });
    for (int i = 0; i < 500 && !ran; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_TRUE(ran);
}
