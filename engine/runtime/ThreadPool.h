/// \file
/// A fixed pool of worker threads with one operation, a blocking parallel-for over chunks.
/// Generated CPU kernels run their `parallel` loops on it (the LLVM code generator outlines a
/// parallel loop body into a closure and hands the iteration range to `parallelFor`).
///
/// Work is split statically: a range goes into at most `threadCount()` contiguous chunks of
/// nearly equal size, chunk 0 runs on the calling thread and chunk k on worker k-1. That is
/// how TVM's CPU runtime splits a parallel loop too, it needs no queue, and every thread of
/// the pool takes part whenever the range has at least as many iterations as threads.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace bs {

class ThreadPool {
public:
    /// The body of a parallel loop: runs iterations [begin, end).
    using ChunkFn = std::function<void(int64_t begin, int64_t end)>;

    /// A pool of `threadCount` threads in all, the caller of parallelFor included, so
    /// `threadCount - 1` workers are started. 0 means std::thread::hardware_concurrency().
    explicit ThreadPool(unsigned threadCount = 0);
    /// Stops and joins the workers.
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    /// The pool shared by every generated kernel, made on first use with one thread per
    /// hardware thread.
    static ThreadPool& global();

    /// Threads that run chunks, the caller included (at least 1).
    unsigned threadCount() const { return unsigned(m_workers.size()) + 1; }

    /// Runs `fn` over [begin, end) split into contiguous chunks, one per thread, and returns
    /// when all are done. An empty range runs nothing. A call made from inside a chunk (a
    /// nested parallel loop) or while another thread's call is running on this pool runs the
    /// whole range on the calling thread, so nesting never deadlocks. The first exception a
    /// chunk throws is rethrown here after every chunk has finished.
    void parallelFor(int64_t begin, int64_t end, const ChunkFn& fn);

    /// How many chunks the last parallelFor that used the workers split its range into (0
    /// before any); calls that ran inline are not counted. For tests and the run report.
    unsigned lastChunkCount() const;

private:
    void workerLoop(unsigned index);
    void runChunk(unsigned chunk);

    std::vector<std::thread> m_workers;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_done;
    std::mutex m_callMutex; ///< one parallelFor at a time uses the workers

    // The job being run, guarded by m_mutex.
    uint64_t m_generation = 0;
    unsigned m_pending = 0;
    bool m_stop = false;
    const ChunkFn* m_fn = nullptr;
    int64_t m_begin = 0;
    int64_t m_end = 0;
    unsigned m_chunks = 0;
    unsigned m_lastChunks = 0;
    std::exception_ptr m_error;
};

} // namespace bs
