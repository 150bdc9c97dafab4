#include "runtime/Fiber.h"

#include <gtest/gtest.h>

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
