/// \file
/// The reference interpreter: executes lowered IR on real buffers, so code generators and the
/// allocation report have something exact to compare with (issue 4, item 4).
///
/// It runs flat IR (after storage flattening: `allocate`, `B[i] = v`, `B[i]` on buffer Vars)
/// and unflattened IR (ScheduleOps output: `realize`, `T(i, j) = v`, `T(i, j)`; a realize is a
/// flat allocation of its region, indexed relative to the region's mins). Every loop kind runs
/// serially; vectors (`ramp`, `x4` broadcasts, predicated loads and stores) run lane by lane.
/// `thread_extent` nests for blockIdx/threadIdx are executed as a GPU would: every block, and
/// in each block every thread, with "shared" allocations per block ("warp" ones too, exact for
/// blocks of one warp), "local" ones per thread and "global" ones shared by all; threads of a block
/// run as cooperative fibers when the kernel has a `tvm_storage_sync` barrier, so no thread passes
/// a barrier before all reached it. Virtual threads (`vthread`) are serial loops; where two
/// attributes give one axis different extents, the launch takes the largest and the smaller one
/// guards its body (as SplitHostDevice does). As CUDA's builtins, every thread index bound in a
/// kernel holds its value throughout the kernel, also before its own thread_extent; launch
/// extents must be known at the launch, and a shared allocation entered again in a loop keeps
/// its size (its region may move: a realize at [ko*16, 16) inside the ko loop). `lower()` puts
/// the barriers into its final IR (ThreadSync, lower/ThreadSync.h); IR written or taken from an
/// earlier pass has none, and a missing barrier shows as poisoned (NaN) results.
///
/// Any access outside an allocation, an integer division by zero, a failed assertion, an
/// unbound variable or a barrier that not all threads of a block reach throws UserError naming
/// the buffer, the index and the statement, e.g.
/// `out-of-bounds read of B[200] in allocation of 200 elements at: C[i] = B[(i + 1)]`.
///
/// Optionally it traces accesses: for every allocation and argument buffer, which elements were
/// read and written, how many stores it took, and the peak number of distinct elements touched
/// during one entry of its allocation (an allocation inside a loop is entered once per iteration)
/// next to the total over all entries. These are the "really touched" counts of the allocation
/// report (DESIGN.md, "The allocation report").
///
/// Semantics follow TVM's code generators: integer arithmetic wraps to the type's width,
/// `/` and `%` truncate and `floordiv`/`floormod` round toward negative infinity (for floats
/// `/` divides, `%` is fmod, floordiv is floor(a / b)), float32 results are rounded to float32
/// after every operation, `&&` and `||` evaluate both operands while `select` (unless
/// InterpreterOptions::strictSelect) and the `if_then_else` intrinsic evaluate only the chosen
/// value, and `likely(c)` is `c`.
#pragma once

#include "ir/Stmt.h"
#include "runtime/Buffer.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace bs {

/// Sees every access of a traced run as it happens (InterpreterOptions::observer): what an
/// animation of the loop nest is recorded from (analysis/LoopAnimation.h). Called on the thread
/// that runs the interpreter; an exception it throws ends the run and leaves run().
class AccessObserver {
public:
    /// Where an access lands: one buffer, as the entry of its allocation being accessed sees it.
    struct Region {
        /// The same number for every entry of one allocation site or argument: the index of its
        /// BufferTrace before RunResult orders them (arguments first, then the sites in program
        /// order).
        int32_t buffer = -1;
        const std::string* name = nullptr;
        bool isArgument = false;
        /// The entry's region: offsets are row-major over `extents`, relative to `mins` (a flat
        /// allocation has rank 1 and min 0; a realize its region in the tensor's coordinates).
        int rank = 1;
        const int64_t* mins = nullptr;
        const int64_t* extents = nullptr;
        /// The running GPU block and thread, linear over the grid and the block (x fastest), or
        /// -1 outside a kernel.
        int64_t block = -1;
        int64_t thread = -1;
    };
    virtual ~AccessObserver() = default;
    /// An entry of an allocation begins (for a per-block allocation, each block's) or ends.
    virtual void enter(const Region& region) { (void)region; }
    virtual void leave(const Region& region) { (void)region; }
    /// Element `offset` of `region` is read or written (each vector lane, each element a packed
    /// call is given, as a read); a read names its reader, the stage whose `produce` block holds
    /// it (null when none does: BufferTrace::readers).
    virtual void access(const Region& region, int64_t offset, bool isWrite,
                        const std::string* reader) = 0;
};

struct InterpreterOptions {
    /// Record per-element reads and writes and per-entry peaks (slower; off by default).
    bool traceAccesses = false;
    /// Fill every new allocation with NaN (floats) or 0x5A5A.. (integers) on entry, so that
    /// reading an element no statement wrote shows in the result instead of passing by luck.
    bool poisonAllocations = true;
    /// Evaluate both values of `select`, so that an out-of-bounds read in the one not chosen
    /// is reported. TVM's LLVM backend evaluates both (a select instruction), its CUDA backend
    /// only the chosen one (`c ? a : b`). Off by default because TVM itself guards reads with
    /// select where a split does not divide (InjectPredicate of cache_write and rfactor), so a
    /// strict run reports reads that TVM's own lowering makes.
    bool strictSelect = false;
    /// Stack of one emulated GPU thread when a kernel has barriers (fibers). The interpreter
    /// recurses once per nesting level of the IR and of its expressions; 1 MiB fits thousands
    /// of levels, and only the pages used are committed.
    size_t fiberStackBytes = 1024 * 1024;
    /// Told of every access and allocation entry; needs traceAccesses. Not owned.
    AccessObserver* observer = nullptr;
};

/// The name of BufferTrace::readers' bit 31 once a buffer has more than 31 readers.
inline constexpr const char* kOtherReaders = "(32nd and later readers)";

/// Bits of BufferTrace::flags.
enum ElementAccess : uint8_t { kElementRead = 1, kElementWritten = 2 };

/// What one run did to one buffer: an argument bound by the caller, or an allocation site (an
/// `allocate` of a buffer Var, or a `realize` of a tensor that was not bound).
struct BufferTrace {
    std::string name;
    /// The flat buffer Var (flat IR) or the tensor (unflattened IR) it stands for.
    Var bufferVar;
    Tensor tensor;
    DataType dtype;
    /// "global", "shared", "local", ... ("" for arguments).
    std::string scope;
    bool isArgument = false;

    // Always recorded:
    /// Elements allocated: the largest size over all entries (an argument's size).
    int64_t allocatedElements = 0;
    /// The extents of that largest entry: a realize's region extents, an argument's shape, or
    /// {size} for a flat allocation; `flags` is row-major over it (offsets relative to the
    /// region's mins, which may differ from entry to entry).
    std::vector<int64_t> shape;
    /// How many times the allocation was entered: once per iteration of the loops around it,
    /// per block for "shared" and per thread for "local" allocations inside a kernel (1 for an
    /// argument, 0 for an allocation never reached).
    int64_t entries = 0;

    // Recorded by a traced run only (InterpreterOptions::traceAccesses), else 0 / empty:
    /// Stores and loads executed on this buffer (each vector lane counts); the stores are the
    /// elements computed, so a reduction counts one store per update.
    int64_t stores = 0;
    int64_t loads = 0;
    /// The most distinct elements touched (read or written) during one entry; and the most
    /// read (what the consumers needed per entry) and written (what was computed per entry).
    int64_t peakTouched = 0;
    int64_t peakRead = 0;
    int64_t peakWritten = 0;

    /// Per element, by offset within the allocation: kElementRead | kElementWritten, over all
    /// entries. Empty when the run was not traced.
    std::vector<uint8_t> flags;
    /// Per element, who read it, over all entries: bit k for readerNames[k], the stage whose
    /// `produce` block holds the load (or the packed call given the array). Readers are
    /// numbered per buffer in the order they first read it; the 32nd and later share bit 31,
    /// named kOtherReaders. A read outside any produce block sets no bit. Empty when the run
    /// was not traced.
    std::vector<uint32_t> readers;
    std::vector<std::string> readerNames;

    bool wasRead(int64_t offset) const { return (flagAt(offset) & kElementRead) != 0; }
    bool wasWritten(int64_t offset) const { return (flagAt(offset) & kElementWritten) != 0; }
    bool wasTouched(int64_t offset) const { return flagAt(offset) != 0; }
    /// Distinct elements touched over all entries (the total next to peakTouched).
    int64_t totalTouched() const;
    int64_t readElements() const;
    int64_t writtenElements() const;

private:
    uint8_t flagAt(int64_t offset) const {
        return offset >= 0 && size_t(offset) < flags.size() ? flags[size_t(offset)] : 0;
    }
};

struct RunResult {
    /// Arguments first (buffers bound by Var, then by Tensor, each in binding order), then
    /// allocation sites in order of first entry (sites never entered last).
    std::vector<BufferTrace> buffers;
    /// Totals over the whole run, traced or not.
    int64_t stores = 0;
    int64_t loads = 0;
    int64_t kernelLaunches = 0;
    /// Barriers passed, counted once per block and barrier.
    int64_t barriers = 0;

    /// The trace of a buffer by name, buffer Var or tensor; nullptr when there is none.
    const BufferTrace* find(const std::string& name) const;
    const BufferTrace* find(const Var& bufferVar) const;
    const BufferTrace* find(const Tensor& tensor) const;
};

/// Bind the arguments, then run() a statement as often as needed; bindings persist between
/// runs. Every run compiles the statement afresh (cheap next to running it). One Interpreter
/// runs one statement at a time; separate Interpreters may run on separate threads.
///
///     Interpreter interp({.traceAccesses = true});
///     interp.bindBuffer(func.argBuffers[0], a);   // flat IR, or bindTensor(A, a) for
///     interp.bindBuffer(func.argBuffers[1], c);   // ScheduleOps output
///     interp.bindScalar(n, 100);
///     RunResult r = interp.run(func.final);
///     r.find("B")->peakTouched;
class Interpreter {
public:
    explicit Interpreter(InterpreterOptions options = {});
    ~Interpreter();
    Interpreter(const Interpreter&) = delete;
    Interpreter& operator=(const Interpreter&) = delete;

    /// Binds an argument of flat IR: loads and stores of `bufferVar` use `buffer`, which must
    /// outlive run(). Rebinding a Var replaces the buffer.
    void bindBuffer(const Var& bufferVar, Buffer& buffer);
    /// Binds an argument of unflattened IR: accesses `T(i, j)` of `tensor` use `buffer`, indexed
    /// row-major over its shape; a `realize` of a bound tensor allocates nothing (as in
    /// StorageFlatten). run() checks the buffer's shape against the tensor's.
    void bindTensor(const Tensor& tensor, Buffer& buffer);
    /// Gives a free scalar variable (a symbolic shape such as `n`) its value.
    void bindScalar(const Var& var, int64_t value);
    void bindScalarFloat(const Var& var, double value);

    /// Executes `stmt` on the bound buffers. Throws UserError (see the file comment); the
    /// buffers then hold whatever was written before the error.
    RunResult run(const Stmt& stmt);

    const InterpreterOptions& options() const { return m_options; }

private:
    struct Bindings;
    InterpreterOptions m_options;
    std::unique_ptr<Bindings> m_bindings;
};

} // namespace bs
