// runtime/ThreadPool, which the parallel loops of generated CPU kernels run on.
#include "runtime/ThreadPool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

using namespace bs;

namespace {

struct Chunk {
    int64_t begin;
    int64_t end;
    std::thread::id thread;
};

std::vector<Chunk> recordChunks(ThreadPool& pool, int64_t begin, int64_t end) {
    std::mutex mutex;
    std::vector<Chunk> chunks;
    pool.parallelFor(begin, end, [&](int64_t lo, int64_t hi) {
        std::lock_guard lock(mutex);
        chunks.push_back({lo, hi, std::this_thread::get_id()});
    });
    std::sort(chunks.begin(), chunks.end(),
              [](const Chunk& x, const Chunk& y) { return x.begin < y.begin; });
    return chunks;
}

} // namespace

TEST(ThreadPool, SplitsTheRangeIntoOneContiguousChunkPerThread) {
    ThreadPool pool(4);
    EXPECT_EQ(pool.threadCount(), 4u);
    std::vector<Chunk> chunks = recordChunks(pool, 5, 15);
    ASSERT_EQ(chunks.size(), 4u);
    // 10 iterations over 4 threads: 3, 3, 2, 2.
    std::vector<std::pair<int64_t, int64_t>> ranges;
    std::set<std::thread::id> threads;
    for (const Chunk& c : chunks) {
        ranges.emplace_back(c.begin, c.end);
        threads.insert(c.thread);
    }
    EXPECT_EQ(ranges,
              (std::vector<std::pair<int64_t, int64_t>>{{5, 8}, {8, 11}, {11, 13}, {13, 15}}));
    EXPECT_EQ(threads.size(), 4u);
    EXPECT_EQ(chunks[0].thread, std::this_thread::get_id());
    EXPECT_EQ(pool.lastChunkCount(), 4u);
}

TEST(ThreadPool, ShortRangeUsesOneChunkPerIteration) {
    ThreadPool pool(4);
    std::vector<Chunk> chunks = recordChunks(pool, 0, 2);
    ASSERT_EQ(chunks.size(), 2u);
    EXPECT_EQ(chunks[1].begin, 1);
    EXPECT_NE(chunks[0].thread, chunks[1].thread);
}

TEST(ThreadPool, EmptyRangeRunsNothing) {
    ThreadPool pool(2);
    EXPECT_TRUE(recordChunks(pool, 3, 3).empty());
    EXPECT_TRUE(recordChunks(pool, 3, -1).empty());
}

TEST(ThreadPool, NestedCallRunsInlineOnTheChunkThread) {
    ThreadPool pool(3);
    std::atomic<int> inlineCalls{0};
    std::atomic<int64_t> total{0};
    pool.parallelFor(0, 3, [&](int64_t, int64_t) {
        std::thread::id outer = std::this_thread::get_id();
        pool.parallelFor(0, 100, [&](int64_t lo, int64_t hi) {
            if (lo == 0 && hi == 100 && std::this_thread::get_id() == outer)
                ++inlineCalls;
            total += hi - lo;
        });
    });
    EXPECT_EQ(inlineCalls.load(), 3);
    EXPECT_EQ(total.load(), 300);
}

TEST(ThreadPool, RethrowsTheExceptionOfAChunkAfterAllFinish) {
    ThreadPool pool(4);
    std::atomic<int> finished{0};
    EXPECT_THROW(pool.parallelFor(0, 4,
                                  [&](int64_t lo, int64_t) {
                                      ++finished;
                                      if (lo == 2)
                                          throw std::runtime_error("chunk 2 failed");
                                  }),
                 std::runtime_error);
    EXPECT_EQ(finished.load(), 4);
    // The pool still works.
    EXPECT_EQ(recordChunks(pool, 0, 8).size(), 4u);
}

TEST(ThreadPool, ManyConsecutiveCallsCoverEveryIterationOnce) {
    ThreadPool pool(3);
    for (int call = 0; call < 500; ++call) {
        std::vector<std::atomic<int>> hits(37);
        pool.parallelFor(0, 37, [&](int64_t lo, int64_t hi) {
            for (int64_t i = lo; i < hi; ++i)
                ++hits[size_t(i)];
        });
        for (const auto& h : hits)
            ASSERT_EQ(h.load(), 1) << "call " << call;
    }
}

TEST(ThreadPool, CallsFromSeveralThreadsAllComplete) {
    ThreadPool pool(2);
    std::atomic<int64_t> total{0};
    std::vector<std::thread> callers;
    for (int t = 0; t < 4; ++t)
        callers.emplace_back([&] {
            for (int call = 0; call < 100; ++call)
                pool.parallelFor(0, 10, [&](int64_t lo, int64_t hi) { total += hi - lo; });
        });
    for (std::thread& caller : callers)
        caller.join();
    EXPECT_EQ(total.load(), 4 * 100 * 10);
}
