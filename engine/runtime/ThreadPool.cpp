/// The fixed thread pool behind `parallel` loops (see ThreadPool.h for the splitting rule).
#include "runtime/ThreadPool.h"

#include <algorithm>
#include <utility>

namespace bs {

namespace {

/// Set while this thread runs a chunk: a parallelFor from inside a chunk runs inline, since
/// every worker may already be busy with the outer loop.
thread_local bool tInsideChunk = false;

class ChunkScope {
public:
    ChunkScope() : m_previous(tInsideChunk) { tInsideChunk = true; }
    ~ChunkScope() { tInsideChunk = m_previous; }
    ChunkScope(const ChunkScope&) = delete;
    ChunkScope& operator=(const ChunkScope&) = delete;

private:
    bool m_previous;
};

/// The first iteration of chunk `k` of `chunks` over `count` iterations: the first
/// `count % chunks` chunks get one extra iteration. Written without `k * count`, which could
/// overflow for huge ranges.
int64_t chunkStart(int64_t count, unsigned chunks, unsigned k) {
    int64_t base = count / chunks;
    int64_t extra = count % chunks;
    return int64_t(k) * base + std::min<int64_t>(k, extra);
}

} // namespace

ThreadPool::ThreadPool(unsigned threadCount) {
    if (threadCount == 0)
        threadCount = std::max(1u, std::thread::hardware_concurrency());
    m_workers.reserve(threadCount - 1);
    for (unsigned i = 0; i + 1 < threadCount; ++i)
        m_workers.emplace_back([this, i] { workerLoop(i); });
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    for (std::thread& t : m_workers)
        t.join();
}

ThreadPool& ThreadPool::global() {
    // Never destroyed: kernels may still run from other static destructors at exit.
    static ThreadPool* pool = new ThreadPool();
    return *pool;
}

unsigned ThreadPool::lastChunkCount() const {
    std::lock_guard lock(m_mutex);
    return m_lastChunks;
}

void ThreadPool::runChunk(unsigned chunk) {
    int64_t count = m_end - m_begin;
    int64_t lo = m_begin + chunkStart(count, m_chunks, chunk);
    int64_t hi = m_begin + chunkStart(count, m_chunks, chunk + 1);
    try {
        ChunkScope scope;
        (*m_fn)(lo, hi);
    } catch (...) {
        std::lock_guard lock(m_mutex);
        if (!m_error)
            m_error = std::current_exception();
    }
}

void ThreadPool::workerLoop(unsigned index) {
    uint64_t seen = 0;
    for (;;) {
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [&] { return m_stop || m_generation != seen; });
            if (m_stop)
                return;
            seen = m_generation;
            // Worker i runs chunk i + 1; workers beyond the chunk count sit this job out and
            // are not counted in m_pending.
            if (index + 1 >= m_chunks)
                continue;
        }
        runChunk(index + 1);
        std::lock_guard lock(m_mutex);
        if (--m_pending == 0)
            m_done.notify_all();
    }
}

void ThreadPool::parallelFor(int64_t begin, int64_t end, const ChunkFn& fn) {
    if (end <= begin)
        return;
    int64_t count = end - begin;
    unsigned chunks = unsigned(std::min<int64_t>(count, threadCount()));
    std::unique_lock callLock(m_callMutex, std::defer_lock);
    if (chunks <= 1 || tInsideChunk || !callLock.try_lock()) {
        ChunkScope scope;
        fn(begin, end);
        return;
    }
    {
        std::lock_guard lock(m_mutex);
        m_fn = &fn;
        m_begin = begin;
        m_end = end;
        m_chunks = chunks;
        m_lastChunks = chunks;
        m_pending = chunks - 1;
        m_error = nullptr;
        ++m_generation;
    }
    m_wake.notify_all();
    runChunk(0);
    std::exception_ptr error;
    {
        std::unique_lock lock(m_mutex);
        m_done.wait(lock, [&] { return m_pending == 0; });
        m_fn = nullptr;
        error = std::exchange(m_error, nullptr);
    }
    if (error)
        std::rethrow_exception(error);
}

} // namespace bs
