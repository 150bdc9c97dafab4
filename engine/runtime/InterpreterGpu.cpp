/// GPU emulation: a kernel (an outermost blockIdx/threadIdx thread_extent nest) runs block
/// after block, and in each block every thread runs the whole nest with its own frame, as in
/// CUDA. A kernel without barriers runs its threads one after the other; a kernel with
/// barriers runs them as fibers in rounds: each round resumes every thread until it reaches a
/// barrier or finishes, and the round is only legal when all threads wait at the same barrier
/// (then they pass it together) or all have finished.
#include "runtime/InterpreterExecutor.h"

#include <algorithm>

namespace bs::interp {

namespace {

/// More threads per block than CUDA allows (1024), fewer than would make the fibers' stacks a
/// burden.
constexpr int64_t kMaxFiberThreads = 4096;

/// A new thread starts from the launching (host) frame: it sees the host's variables and
/// buffers, and binds its own. Every thread variable of the kernel holds its coordinate from
/// the start, as CUDA's builtins do.
void resetThread(ThreadContext& t, const std::vector<Value>& slots,
                 const std::vector<Storage*>& buffers, const Kernel& kernel, const int64_t* block,
                 int64_t tx, int64_t ty, int64_t tz) {
    t.slots.assign(slots.begin(), slots.end());
    t.buffers.assign(buffers.begin(), buffers.end());
    t.coord[0] = tx;
    t.coord[1] = ty;
    t.coord[2] = tz;
    for (const auto& [axis, slot] : kernel.threadSlots)
        t.slots[size_t(slot)].i = axis < 3 ? block[axis] : t.coord[axis - 3];
    t.stmt = nullptr;
    t.waitingAt = -1;
    t.done = false;
    t.error = nullptr;
}

} // namespace

void Executor::launch(const SNode& n) {
    const Kernel& kernel = m_p.kernels[size_t(n.aux)];
    m_stmt = n.source;
    // Where attributes give one axis different extents the launch takes the largest, and the
    // smaller ones guard their bodies (BindThread), as SplitHostDevice and the code generators do.
    int64_t dims[kThreadAxes];
    for (int axis = 0; axis < kThreadAxes; ++axis) {
        dims[axis] = kernel.extents[axis].empty() ? 1 : 0;
        for (int32_t e : kernel.extents[axis]) {
            int64_t extent = eval(e).i;
            if (extent < 0)
                fail(std::string("negative launch extent of ") + kThreadTags[size_t(axis)] + ": " +
                     std::to_string(extent));
            dims[axis] = std::max(dims[axis], extent);
        }
    }
    ++m_launches;
    std::copy(dims, dims + 3, m_gridDims);
    std::copy(dims + 3, dims + 6, m_blockDims);
    const int64_t threads = dims[3] * dims[4] * dims[5];
    if (threads == 0 || dims[0] * dims[1] * dims[2] == 0)
        return;
    const bool asFibers = kernel.hasBarrier && threads > 1;
    if (asFibers && threads > kMaxFiberThreads)
        fail("a block of " + std::to_string(threads) + " threads with barriers is too large to " +
             "emulate (at most " + std::to_string(kMaxFiberThreads) + ")");
    m_inKernel = true;
    m_kernelBody = kernel.body;
    for (int64_t bz = 0; bz < dims[2]; ++bz) {
        for (int64_t by = 0; by < dims[1]; ++by) {
            for (int64_t bx = 0; bx < dims[0]; ++bx) {
                m_coord[0] = bx;
                m_coord[1] = by;
                m_coord[2] = bz;
                if (asFibers)
                    runBlockAsFibers(kernel, dims);
                else
                    runBlockSequential(kernel, dims);
                closeSites(kernel.perBlockSites);
            }
        }
    }
    closeSites(kernel.perLaunchSites);
    m_inKernel = false;
    m_current = nullptr;
    m_slots = m_hostSlots.data();
    m_bufs = m_hostBufs.data();
}

void Executor::enterThread(ThreadContext& t) {
    m_current = &t;
    m_slots = t.slots.data();
    m_bufs = t.buffers.data();
    std::copy(t.coord, t.coord + 3, m_coord + 3);
    m_stmt = t.stmt;
}

void Executor::runBlockSequential(const Kernel& kernel, const int64_t* dims) {
    if (m_threads.empty())
        m_threads.emplace_back();
    ThreadContext& t = m_threads[0];
    for (int64_t tz = 0; tz < dims[5]; ++tz) {
        for (int64_t ty = 0; ty < dims[4]; ++ty) {
            for (int64_t tx = 0; tx < dims[3]; ++tx) {
                resetThread(t, m_hostSlots, m_hostBufs, kernel, m_coord, tx, ty, tz);
                enterThread(t);
                exec(kernel.body);
            }
        }
    }
}

void Executor::fiberMain(void* arg) {
    auto* t = static_cast<ThreadContext*>(arg);
    try {
        t->owner->exec(t->owner->m_kernelBody);
    } catch (...) {
        t->error = std::current_exception();
    }
    t->done = true;
}

void Executor::runBlockAsFibers(const Kernel& kernel, const int64_t* dims) {
    const int64_t threads = dims[3] * dims[4] * dims[5];
    m_blockThreads = threads;
    m_exchange.assign(size_t(threads), Value{});
    if (m_threads.size() < size_t(threads))
        m_threads.resize(size_t(threads));
    while (m_fibers.size() < size_t(threads))
        m_fibers.push_back(std::make_unique<Fiber>(m_options.fiberStackBytes));
    size_t k = 0;
    for (int64_t tz = 0; tz < dims[5]; ++tz) {
        for (int64_t ty = 0; ty < dims[4]; ++ty) {
            for (int64_t tx = 0; tx < dims[3]; ++tx, ++k) {
                resetThread(m_threads[k], m_hostSlots, m_hostBufs, kernel, m_coord, tx, ty, tz);
                m_threads[k].owner = this;
                m_fibers[k]->start(&Executor::fiberMain, &m_threads[k]);
            }
        }
    }
    m_fiberMode = true;
    for (;;) {
        bool allDone = true;
        for (size_t i = 0; i < size_t(threads); ++i) {
            ThreadContext& t = m_threads[i];
            if (t.done)
                continue;
            enterThread(t);
            t.waitingAt = -1;
            m_currentFiber = m_fibers[i].get();
            m_currentFiber->resume();
            if (t.error) {
                m_fiberMode = false;
                std::rethrow_exception(t.error);
            }
            allDone = allDone && t.done;
        }
        if (allDone)
            break;
        checkBarrierRound(threads);
        ++m_barriers;
    }
    m_fiberMode = false;
}

void Executor::checkBarrierRound(int64_t threads) {
    const ThreadContext* first = nullptr;
    int64_t waiting = 0;
    for (size_t i = 0; i < size_t(threads); ++i) {
        const ThreadContext& t = m_threads[i];
        if (t.done)
            continue;
        ++waiting;
        if (!first) {
            first = &t;
            continue;
        }
        if (t.waitingAt != first->waitingAt) {
            m_fiberMode = false;
            throw UserError("threads of " + blockText() +
                            " wait at different barriers (a barrier in divergent control flow): "
                            "thread " +
                            threadText(first->coord) + " at: " + describeStmt(first->stmt) +
                            ", thread " + threadText(t.coord) + " at: " + describeStmt(t.stmt));
        }
    }
    if (waiting == threads)
        return;
    m_fiberMode = false;
    throw UserError("barrier reached by " + std::to_string(waiting) + " of " +
                    std::to_string(threads) + " threads of " + blockText() +
                    ", the others finished without it (a barrier in divergent control flow) " +
                    "at: " + describeStmt(first->stmt));
}

void Executor::bindThread(const SNode& n) {
    m_stmt = n.source;
    const int64_t coord = m_coord[n.aux];
    if (coord >= eval(n.a).i)
        return; // a smaller extent than the launch's: this thread has no iteration here
    m_slots[n.slot].i = coord;
    exec(n.body);
}

void Executor::barrier(int32_t id, const SNode& n) {
    m_stmt = n.source;
    if (!m_inKernel)
        return; // host code is one thread
    if (!m_fiberMode) {
        ++m_barriers; // one thread per block: nothing to wait for
        return;
    }
    meet(id);
}

void Executor::meet(int32_t id) {
    m_current->waitingAt = id;
    m_current->stmt = m_stmt;
    m_currentFiber->yield();
    // Resumed by runBlockAsFibers with this thread's frame entered again.
}

Value Executor::warpShuffle(const XNode& n, int32_t id) {
    const Value value = eval(n.a);
    const int64_t laneArg = eval(n.b).i;
    const int64_t width = eval(n.c).i;
    if (width < 1 || width > 32 || (width & (width - 1)) != 0)
        fail("warp shuffle of width " + std::to_string(width) +
             ": the width must be a power of two of at most 32");
    if (!m_inKernel || !m_fiberMode)
        return value; // a block of one thread: no other lane to read
    const int64_t self = m_current - m_threads.data();
    // Meetings are told apart from barriers (statement ids, >= 0) and from running (-1).
    const int32_t meeting = -2 - id;
    m_exchange[size_t(self)] = value;
    meet(meeting);
    const int64_t segment = self - (self % 32) % width;
    // A source lane outside the segment is taken modulo its width, as CUDA's __shfl_sync does.
    const int64_t source = n.imm ? self + laneArg : segment + ((laneArg % width) + width) % width;
    const bool inSegment = source >= segment && source < segment + width;
    const Value result = inSegment && source < m_blockThreads ? m_exchange[size_t(source)] : value;
    meet(meeting);
    return result;
}

Storage*& Executor::warpInstance(int32_t site) {
    // The lanes that share a warp buffer are threadIdx.x's, as TVM's LowerWarpMemory groups them:
    // with 16 lanes in x, each threadIdx.y row has its own buffer.
    const int64_t width = m_blockDims[0];
    if (width < 1 || 32 % width != 0)
        fail("a warp buffer needs a threadIdx.x extent that divides 32, got " +
             std::to_string(width));
    const int64_t linear = m_coord[3] + m_blockDims[0] * (m_coord[4] + m_blockDims[1] * m_coord[5]);
    const auto warp = size_t(linear / width);
    if (m_warpInstances.size() <= size_t(site))
        m_warpInstances.resize(size_t(site) + 1);
    std::vector<Storage*>& instances = m_warpInstances[size_t(site)];
    if (instances.size() <= warp)
        instances.resize(warp + 1, nullptr);
    return instances[warp];
}

} // namespace bs::interp
