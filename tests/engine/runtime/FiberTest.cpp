#include "runtime/Fiber.h"

#include <gtest/gtest.h>

#include <cfenv>
#include <cstdint>
#include <string>

using namespace bs;

namespace {

struct Log {
    std::string text;
    Fiber* self = nullptr;
    char name = '?';
};

/// Appends its name, yields, appends again, yields, then finishes.
void twoSteps(void* arg) {
    auto* log = static_cast<Log*>(arg);
    log->text += log->name;
    log->self->yield();
    log->text += log->name;
    log->self->yield();
    log->text += char(log->name - 'a' + 'A');
}

} // namespace

TEST(Fiber, ResumeRunsUntilTheNextYield) {
    Fiber f(64 * 1024);
    Log log;
    log.self = &f;
    log.name = 'a';
    f.start(&twoSteps, &log);
    EXPECT_FALSE(f.finished());
    f.resume();
    EXPECT_EQ(log.text, "a");
    f.resume();
    EXPECT_EQ(log.text, "aa");
    EXPECT_FALSE(f.finished());
    f.resume();
    EXPECT_EQ(log.text, "aaA");
    EXPECT_TRUE(f.finished());
}

TEST(Fiber, FibersInterleaveAndRestart) {
    Fiber f(64 * 1024), g(64 * 1024);
    Log a{"", &f, 'a'}, b{"", &g, 'b'};
    f.start(&twoSteps, &a);
    g.start(&twoSteps, &b);
    // Round-robin until both finish, as the interpreter runs the threads of a block.
    std::string order;
    while (!f.finished() || !g.finished()) {
        if (!f.finished()) {
            f.resume();
            order += a.text.back();
        }
        if (!g.finished()) {
            g.resume();
            order += b.text.back();
        }
    }
    EXPECT_EQ(order, "ababAB");
    // A finished fiber starts again from the beginning.
    a.text.clear();
    f.start(&twoSteps, &a);
    f.resume();
    EXPECT_EQ(a.text, "a");
}

namespace {

struct Counter {
    Fiber* self = nullptr;
    int64_t total = 0;
    std::string text;
};

/// Keeps locals (in registers and on its stack) across many yields, and formats a double,
/// whose SSE code needs the 16-byte stack alignment a new fiber must start with.
void countWithYields(void* arg) {
    auto* c = static_cast<Counter*>(arg);
    int64_t sum = 0;
    double scale = 0.5;
    alignas(16) double values[4] = {1.0, 2.0, 3.0, 4.0};
    for (int i = 1; i <= 1000; ++i) {
        sum += i;
        values[i % 4] += scale;
        c->self->yield();
    }
    c->total = sum;
    c->text = std::to_string(values[0] + values[1] + values[2] + values[3]);
}

} // namespace

TEST(Fiber, LocalsSurviveEveryYieldAndTheStackIsAligned) {
    Fiber f(64 * 1024), g(64 * 1024);
    Counter a, b;
    a.self = &f;
    b.self = &g;
    f.start(&countWithYields, &a);
    g.start(&countWithYields, &b);
    int64_t outside = 7; // the resumer's registers survive too
    while (!f.finished() || !g.finished()) {
        if (!f.finished())
            f.resume();
        if (!g.finished())
            g.resume();
        outside += 1;
    }
    EXPECT_EQ(a.total, 500500);
    EXPECT_EQ(b.total, 500500);
    EXPECT_EQ(a.text, "510.000000");
    EXPECT_EQ(outside, 7 + 1001);
}

TEST(Fiber, AFiberAbandonedMidwayStartsAfresh) {
    Fiber f(64 * 1024);
    Log log{"", &f, 'a'};
    f.start(&twoSteps, &log);
    f.resume();
    f.start(&twoSteps, &log); // as the interpreter does when a block stops early
    f.resume();
    f.resume();
    f.resume();
    EXPECT_EQ(log.text, "aaaA");
    EXPECT_TRUE(f.finished());
}

namespace {

struct Division {
    volatile float numerator = 1.0f;
    volatile float denominator = 3.0f;
    float quotient = 0;
};

void divide(void* arg) {
    auto* d = static_cast<Division*>(arg);
    d->quotient = d->numerator / d->denominator;
}

} // namespace

TEST(Fiber, AFiberComputesInItsStartersRoundingMode) {
    // The fibers of the stack switch started in the default mode whatever their starter's.
    const int before = std::fegetround();
    ASSERT_EQ(std::fesetround(FE_TOWARDZERO), 0);
    Division inFiber, here;
    here.quotient = here.numerator / here.denominator;
    Fiber f(64 * 1024);
    f.start(&divide, &inFiber);
    f.resume();
    std::fesetround(before);
    ASSERT_TRUE(f.finished());
    EXPECT_EQ(inFiber.quotient, here.quotient);
    Division nearest;
    nearest.quotient = nearest.numerator / nearest.denominator;
    EXPECT_NE(inFiber.quotient, nearest.quotient) << "the rounding mode made no difference";
}
