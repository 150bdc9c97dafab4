/// \file
/// Runs a compiled Program (private to engine/runtime): a recursive evaluator over the compact
/// nodes with a frame of slots, a table of buffer slots, the storage of every allocation entry
/// (pooled, so loops allocate nothing after their first iteration), access tracing, and GPU
/// emulation (blocks one after another, the threads of a block sequentially or as fibers).
#pragma once

#include "runtime/Fiber.h"
#include "runtime/Interpreter.h"
#include "runtime/InterpreterProgram.h"

#include <exception>
#include <memory>
#include <vector>

namespace bs::interp {

/// The memory of one entry of an allocation, or of an argument buffer.
struct Storage {
    uint8_t* data = nullptr;
    int64_t size = 0;
    ElemType elem = ElemType::F32;
    /// Argument bound by Tensor or realize: the region indexed (mins are 0 for arguments);
    /// flat buffers have rank 1, min 0 and extent `size`.
    int rank = 1;
    int64_t mins[kMaxRank] = {};
    int64_t extents[kMaxRank] = {};
    const std::string* name = nullptr;
    bool isArgument = false;
    /// The allocation site (-1 for arguments) and the trace (-1 when not tracing).
    int32_t site = -1;
    int32_t trace = -1;
    /// Distinct elements read, written and touched in the current entry: element i was read
    /// in this entry when stamps[2i] == epoch and written when stamps[2i + 1] == epoch, so a
    /// new entry needs no clearing.
    uint32_t* stamps = nullptr;
    uint32_t epoch = 0;
    int64_t entryRead = 0;
    int64_t entryWritten = 0;
    int64_t entryTouched = 0;
    std::vector<uint64_t> memory;
    std::vector<uint32_t> stampMemory;
};

/// The state of one emulated GPU thread.
class Executor;

struct ThreadContext {
    Executor* owner = nullptr;
    std::vector<Value> slots;
    std::vector<Storage*> buffers;
    int64_t coord[3] = {};
    const StmtNode* stmt = nullptr;
    /// The barrier statement the thread waits at, -1 when running or finished.
    int32_t waitingAt = -1;
    bool done = false;
    std::exception_ptr error;
};

class Executor {
public:
    Executor(const Program& program, const InterpreterOptions& options);
    ~Executor();
    Executor(const Executor&) = delete;
    Executor& operator=(const Executor&) = delete;

    void run();
    RunResult takeResult();

private:
    // Expressions (InterpreterEval.cpp).
    Value eval(int32_t id);
    Value load(const XNode& n);
    Value loadND(const XNode& n);
    /// Evaluates `rank` indices listed from `first` and checks them against `s`'s region.
    int64_t flatIndex(const Storage& s, int32_t first, int32_t rank, bool isWrite);

    // Statements and storage (InterpreterExec.cpp).
    void exec(int32_t id);
    void execFor(const SNode& n);
    uint64_t m_iterations = 0; ///< loop iterations run, to check for cancellation now and then
    void execStore(const SNode& n);
    void execStoreND(const SNode& n);
    void execCallPacked(const SNode& n);
    void execAllocate(const SNode& n);
    Storage* openStorage(int32_t site);
    /// Another entry of a block's (or launch's) allocation, which all its threads share.
    void reenterKernelStorage(Storage& s, int32_t site);
    /// Evaluates a site's region: fills `mins` and `extents`, returns the element count.
    int64_t evalShape(int32_t site, int64_t* mins, int64_t* extents, int* rank);
    void closeStorage(Storage* s);
    void closeSites(const std::vector<int32_t>& sites);
    void poison(Storage& s);
    /// Records an access of element `index`; a read by the stage `reader` (Program::readers,
    /// -1 unknown) also marks that reader.
    void touch(Storage& s, int64_t index, uint8_t flag, int32_t reader = -1);
    /// The bit of `reader` (Program::readers) in the buffer `traceId`'s readers, numbering it on
    /// its first read there.
    uint32_t readerBit(int32_t traceId, int32_t reader);
    /// Starts a new entry of `s` for tracing; endEntry folds it into the trace's peaks.
    void beginEntry(Storage& s);
    void endEntry(const Storage& s);
    /// What InterpreterOptions::observer is told of an access to `s`.
    AccessObserver::Region observed(const Storage& s) const;
    void bindArguments();

    // Kernels (InterpreterGpu.cpp).
    void launch(const SNode& n);
    void runBlockSequential(const Kernel& kernel, const int64_t* dims);
    void runBlockAsFibers(const Kernel& kernel, const int64_t* dims);
    void enterThread(ThreadContext& t);
    void checkBarrierRound(int64_t threads);
    void bindThread(const SNode& n);
    void barrier(int32_t id, const SNode& n);
    /// A warp shuffle: the lanes of the block meet twice, once when every lane has put its
    /// value in the exchange and once when every lane has read its source's, so the lanes of a
    /// warp run the shuffle in lock step as on a GPU.
    Value warpShuffle(const XNode& n, int32_t id);
    /// Waits, in fiber mode, until every thread of the block reaches the meeting `id`.
    void meet(int32_t id);
    /// The running thread's warp's instance of a warp-scope allocation site.
    Storage*& warpInstance(int32_t site);
    static void fiberMain(void* arg);

    // Errors (InterpreterExec.cpp); cold paths.
    [[noreturn]] void outOfBounds(const Storage& s, const int64_t* indices, int rank,
                                  bool isWrite) const;
    [[noreturn]] void divisionByZero(const XNode& n) const;
    [[noreturn]] void fail(const std::string& message) const;
    /// ` at: <statement>`, plus the block and thread inside a kernel.
    std::string where() const;
    std::string blockText() const;
    std::string threadText(const int64_t* coord) const;

    const Program& m_p;
    const InterpreterOptions m_options;
    const XNode* m_x;
    const SNode* m_s;
    const int32_t* m_lists;
    const bool m_trace;
    AccessObserver* const m_observer; ///< null unless tracing

    // The running thread's frame (the host's outside kernels).
    Value* m_slots = nullptr;
    Storage** m_bufs = nullptr;
    const StmtNode* m_stmt = nullptr;
    std::vector<Value> m_hostSlots;
    std::vector<Storage*> m_hostBufs;

    std::vector<std::unique_ptr<Storage>> m_argStorage;
    /// Per site: every Storage made and those free for a new entry.
    std::vector<std::vector<std::unique_ptr<Storage>>> m_siteStorage;
    std::vector<std::vector<Storage*>> m_siteFree;
    /// Per site: the open per-block or per-launch instance inside the running kernel.
    std::vector<Storage*> m_kernelInstance;
    /// Per site of warp memory: the open instance of each warp of the running block.
    std::vector<std::vector<Storage*>> m_warpInstances;
    /// The running launch's block shape (threadIdx x, y, z).
    int64_t m_blockDims[3] = {1, 1, 1};
    int64_t m_gridDims[3] = {1, 1, 1};

    std::vector<BufferTrace> m_traces;

    /// Per buffer trace, each global reader's bit there (-1: not yet read by it).

    std::vector<std::vector<int8_t>> m_readerBits;
    /// Per site: the order of its first entry (for the result), -1 before.
    std::vector<int64_t> m_firstEntry;
    int64_t m_entriesSeen = 0;

    // GPU emulation.
    bool m_inKernel = false;
    bool m_fiberMode = false;
    int64_t m_coord[kThreadAxes] = {};
    int32_t m_kernelBody = -1;
    std::vector<ThreadContext> m_threads;
    /// The values the threads of a block put in a warp shuffle, by linear thread index.
    std::vector<Value> m_exchange;
    int64_t m_blockThreads = 0;
    std::vector<std::unique_ptr<Fiber>> m_fibers;
    ThreadContext* m_current = nullptr;
    Fiber* m_currentFiber = nullptr;

    int64_t m_stores = 0;
    int64_t m_loads = 0;
    int64_t m_launches = 0;
    int64_t m_barriers = 0;
};

} // namespace bs::interp
