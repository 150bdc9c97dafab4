// Packed-call failures (runtime/PackedFunctions.h): each thread keeps its own, so a kernel run
// on one thread neither sees nor clears another's; a chunk of a kernel's parallel loop, run by
// a worker of the pool, reports to the thread that runs the kernel.
#include "runtime/KernelRuntime.h"
#include "runtime/PackedFunctions.h"
#include "runtime/ThreadPool.h"
#include "support/Diagnostic.h"

#include <gtest/gtest.h>

#include <cstring>
#include <mutex>
#include <thread>

using namespace bs;

namespace {

/// Registers `test.packed.fail`, which always throws.
void registerFailing() {
    registerPacked(
        "test.packed.fail",
        [](const std::vector<PackedArg>&) { throw UserError("the test function failed"); },
        /*override=*/true);
}

int32_t callFailing() { return bs_call_packed("test.packed.fail", nullptr, nullptr, 0); }

using ParallelFor = int32_t (*)(BsParallelChunk, void*, int64_t, int64_t);

ParallelFor parallelFor() {
    for (const KernelRuntime::Symbol& s : cpuKernelRuntime().symbols)
        if (std::strcmp(s.name, kParallelForSymbol) == 0)
            return reinterpret_cast<ParallelFor>(s.address);
    return nullptr;
}

} // namespace

TEST(PackedError, EachThreadKeepsItsOwnFailure) {
    registerFailing();
    takePackedError();
    ASSERT_EQ(callFailing(), -1);
    // Another thread starting a kernel clears its own failures, not this thread's.
    std::string seenThere = "unset";
    std::thread other([&] {
        seenThere = takePackedError();
        takePackedError();
    });
    other.join();
    EXPECT_EQ(seenThere, "");
    EXPECT_EQ(takePackedError(), "the test function failed");
    EXPECT_EQ(takePackedError(), "");
}

TEST(PackedError, AChunkOfAParallelLoopReportsToTheKernelsThread) {
    registerFailing();
    takePackedError();
    ParallelFor run = parallelFor();
    ASSERT_NE(run, nullptr);
    if (ThreadPool::global().threadCount() < 2)
        GTEST_SKIP() << "the pool has no worker on this machine";
    // One chunk per thread of the pool; chunk 0, from 0, runs on this thread: only the others,
    // on the workers, fail.
    const int64_t n = 4 * int64_t(ThreadPool::global().threadCount());
    int32_t status = run([](int64_t begin, int64_t,
                            void*) -> int32_t { return begin > 0 && callFailing() != 0 ? 7 : 0; },
                         nullptr, 0, n);
    EXPECT_EQ(status, 7);
    EXPECT_EQ(takePackedError(), "the test function failed");
    // The workers' own slots hold nothing of it: asked outside any kernel's loop, each chunk
    // finds its thread's slot empty.
    std::mutex mutex;
    std::vector<std::string> seen;
    ThreadPool::global().parallelFor(0, n, [&](int64_t, int64_t) {
        std::string mine = takePackedError();
        std::lock_guard<std::mutex> lock(mutex);
        seen.push_back(mine);
    });
    EXPECT_EQ(seen, std::vector<std::string>(seen.size(), ""));
    EXPECT_GE(seen.size(), 2u);
}
