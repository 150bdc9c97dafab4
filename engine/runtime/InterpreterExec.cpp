/// Executing compiled statements: loops, lets, stores, allocations with their pooled storage
/// and the access trace, and the error messages that name buffer, index and statement.
#include "runtime/InterpreterExecutor.h"
#include "runtime/PackedFunctions.h"
#include "support/Cancellation.h"

#include "ir/Printer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

namespace bs::interp {

namespace {

/// The most elements one allocation entry may have: far beyond any schedule worth
/// interpreting, low enough that a wrong symbolic extent fails clearly instead of exhausting
/// memory.
constexpr int64_t kMaxAllocationElements = int64_t(1) << 32;

/// a * b for non-negative a and b, saturating just above kMaxAllocationElements.
int64_t cappedProduct(int64_t a, int64_t b) {
    if (a == 0 || b == 0)
        return 0;
    return a > (kMaxAllocationElements + 1) / b ? kMaxAllocationElements + 1 : a * b;
}

/// Whether `buffer` is one of the buffers of stage `stage`: its name, or a value of it
/// (`C.v0`).
bool computesBuffer(const std::string& stage, const std::string& buffer) {
    if (buffer == stage)
        return true;
    const std::string prefix = stage + ".v";
    return buffer.size() > prefix.size() && buffer.compare(0, prefix.size(), prefix) == 0 &&
           std::all_of(buffer.begin() + std::ptrdiff_t(prefix.size()), buffer.end(),
                       [](char c) { return c >= '0' && c <= '9'; });
}

} // namespace

Executor::Executor(const Program& program, const InterpreterOptions& options)
    : m_p(program), m_options(options), m_x(program.exprs.data()), m_s(program.stmts.data()),
      m_lists(program.lists.data()), m_trace(options.traceAccesses),
      m_observer(options.traceAccesses ? options.observer : nullptr) {
    m_hostSlots.assign(size_t(program.numSlots), intValue(0));
    m_hostBufs.assign(size_t(program.numBufferSlots), nullptr);
    for (const ScalarInit& init : program.scalars)
        m_hostSlots[size_t(init.slot)] = init.value;
    m_slots = m_hostSlots.data();
    m_bufs = m_hostBufs.data();
    m_siteStorage.resize(program.sites.size());
    m_siteFree.resize(program.sites.size());
    m_kernelInstance.assign(program.sites.size(), nullptr);
    m_firstEntry.assign(program.sites.size(), -1);
    bindArguments();
}

Executor::~Executor() = default;

void Executor::bindArguments() {
    for (const ArgBinding& arg : m_p.args) {
        auto s = std::make_unique<Storage>();
        Buffer& buffer = *arg.buffer;
        s->data = static_cast<uint8_t*>(buffer.data());
        s->size = buffer.size();
        elemTypeOf(buffer.dtype(), &s->elem);
        s->isArgument = true;
        if (arg.tensor.defined()) {
            s->rank = int(buffer.shape().size());
            std::copy(buffer.shape().begin(), buffer.shape().end(), s->extents);
            s->name = &arg.tensor.name();
        } else {
            s->extents[0] = s->size;
            s->name = &arg.bufferVar.name();
        }
        BufferTrace trace;
        trace.name = *s->name;
        trace.bufferVar = arg.bufferVar;
        trace.tensor = arg.tensor;
        trace.dtype = buffer.dtype();
        trace.isArgument = true;
        trace.allocatedElements = s->size;
        trace.shape.assign(s->extents, s->extents + s->rank);
        trace.entries = 1;
        if (m_trace) {
            trace.flags.assign(size_t(s->size), 0);
            trace.readers.assign(size_t(s->size), 0);
            s->trace = int32_t(m_traces.size());
        }
        m_traces.push_back(std::move(trace));
        if (m_trace)
            beginEntry(*s); // an argument has one entry: the whole run
        m_hostBufs[size_t(arg.bufferSlot)] = s.get();
        m_argStorage.push_back(std::move(s));
    }
    for (const AllocSite& site : m_p.sites) {
        BufferTrace trace;
        trace.name = site.name;
        trace.bufferVar = site.bufferVar;
        trace.tensor = site.tensor;
        trace.dtype = site.dtype;
        trace.scope = site.scope;
        m_traces.push_back(std::move(trace));
    }
}

void Executor::run() { exec(m_p.root); }

RunResult Executor::takeResult() {
    RunResult result;
    result.stores = m_stores;
    result.loads = m_loads;
    result.kernelLaunches = m_launches;
    result.barriers = m_barriers;
    for (size_t i = 0; i < m_argStorage.size(); ++i) {
        if (m_trace)
            endEntry(*m_argStorage[i]);
        result.buffers.push_back(std::move(m_traces[i]));
    }
    // Allocation sites in the order they were first entered; sites never entered last.
    std::vector<size_t> order(m_p.sites.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        auto key = [&](size_t s) { return m_firstEntry[s] < 0 ? INT64_MAX : m_firstEntry[s]; };
        return key(a) < key(b);
    });
    for (size_t site : order)
        result.buffers.push_back(std::move(m_traces[m_argStorage.size() + site]));
    return result;
}

void Executor::exec(int32_t id) {
    const SNode& n = m_s[id];
    switch (n.op) {
    case SOp::NoOp:
        return;
    case SOp::Seq:
        for (int32_t k = 0; k < n.b; ++k)
            exec(m_lists[n.a + k]);
        return;
    case SOp::For:
        execFor(n);
        return;
    case SOp::Let:
        m_stmt = n.source;
        for (int32_t k = 0; k < n.b; ++k)
            m_slots[n.slot + k] = eval(m_lists[n.a + k]);
        exec(n.body);
        return;
    case SOp::If:
        m_stmt = n.source;
        if (eval(n.a).i)
            exec(n.body);
        else if (n.other >= 0)
            exec(n.other);
        return;
    case SOp::Assert:
        m_stmt = n.source;
        if (!eval(n.a).i)
            fail("assertion failed: " + m_p.strings[size_t(n.aux)]);
        exec(n.body);
        return;
    case SOp::Evaluate:
        m_stmt = n.source;
        eval(n.a);
        return;
    case SOp::Barrier:
        barrier(id, n);
        return;
    case SOp::Store:
        execStore(n);
        return;
    case SOp::StoreND:
        execStoreND(n);
        return;
    case SOp::Allocate:
        execAllocate(n);
        return;
    case SOp::Launch:
        launch(n);
        return;
    case SOp::BindThread:
        bindThread(n);
        return;
    case SOp::CallPacked:
        execCallPacked(n);
        return;
    }
    BS_UNREACHABLE("unknown statement opcode " << int(n.op));
}

void Executor::execFor(const SNode& n) {
    m_stmt = n.source;
    const int64_t begin = eval(n.a).i;
    const int64_t end = begin + eval(n.b).i;
    for (int64_t i = begin; i < end; ++i) {
        m_slots[n.slot].i = i;
        exec(n.body);
        if ((++m_iterations & 0xFFFF) == 0) // a run nobody waits for stops (Cancellation.h)
            throwIfCancelled();
    }
}

void Executor::execStore(const SNode& n) {
    m_stmt = n.source;
    if (n.c >= 0 && eval(n.c).i == 0)
        return;
    Value value = eval(n.b);
    int64_t index = eval(n.a).i;
    Storage& s = *m_bufs[n.slot];
    if (uint64_t(index) >= uint64_t(s.size))
        outOfBounds(s, &index, 1, true);
    ++m_stores;
    if (m_trace)
        touch(s, index, kElementWritten);
    if (n.floatValue)
        writeElemDouble(s.data, s.elem, index, value.f);
    else
        writeElemInt(s.data, s.elem, index, value.i);
}

void Executor::execCallPacked(const SNode& n) {
    m_stmt = n.source;
    const PackedCall& call = m_p.packedCalls[size_t(n.aux)];
    size_t count = call.args.size();
    std::vector<PackedArg> args(count);
    std::vector<PackedArray> arrays(count);
    std::vector<std::vector<int64_t>> shapes(count), strides(count);
    for (size_t i = 0; i < count; ++i) {
        const PackedCallArg& a = call.args[i];
        switch (a.kind) {
        case PackedCallArg::Kind::Int:
            args[i] = {PackedCode::Int, eval(a.expr).i};
            break;
        case PackedCallArg::Kind::Float: {
            double d = eval(a.expr).f;
            int64_t bits;
            std::memcpy(&bits, &d, sizeof bits);
            args[i] = {PackedCode::Float, bits};
            break;
        }
        case PackedCallArg::Kind::String:
            args[i] = {PackedCode::String, int64_t(reinterpret_cast<intptr_t>(a.text.c_str()))};
            break;
        case PackedCallArg::Kind::Handle:
            args[i] = {PackedCode::Handle,
                       int64_t(reinterpret_cast<intptr_t>(m_bufs[a.bufferSlot]->data))};
            break;
        case PackedCallArg::Kind::Array: {
            Storage& s = *m_bufs[a.bufferSlot];
            // The span of elements the array reaches: one past its last element, row-major
            // or by its strides.
            int64_t elements = 1;
            for (int32_t e : a.shape)
                elements *= shapes[i].emplace_back(eval(e).i);
            const int64_t offset = eval(a.elemOffset).i;
            int64_t first = offset; // the lowest element reached (a stride may be negative)
            if (!a.strides.empty() && elements > 0) {
                int64_t low = 0, high = 0;
                for (size_t d = 0; d < a.strides.size(); ++d) {
                    int64_t reach =
                        (shapes[i][d] - 1) * strides[i].emplace_back(eval(a.strides[d]).i);
                    (reach < 0 ? low : high) += reach;
                }
                first += low;
                elements = high - low + 1;
            }
            if (first < 0 || first + elements > s.size)
                throw UserError("packed function '" + call.name + "': array " + std::to_string(i) +
                                " (" + std::to_string(elements) + " elements from " +
                                std::to_string(first) + ") does not fit its buffer '" +
                                (s.name ? *s.name : "?") + "' of " + std::to_string(s.size) +
                                " elements");
            PackedArray& array = arrays[i];
            array.data = s.data;
            array.shape = shapes[i].data();
            array.strides = strides[i].empty() ? nullptr : strides[i].data();
            array.ndim = int32_t(a.shape.size());
            array.typeCode = uint8_t(a.dtype.code());
            array.typeBits = uint8_t(a.dtype.bits());
            array.typeLanes = uint16_t(a.dtype.lanes());
            array.elemOffset = offset;
            args[i] = {PackedCode::Array, int64_t(reinterpret_cast<intptr_t>(&array))};
            // A packed function may touch any element of the arrays it is given; which it
            // reads and which it writes the interpreter cannot see. The call computes the
            // buffers of the stage whose produce block holds it (an extern op's outputs, a
            // tensorized stage's), so those count as written, once per element; the others
            // as read.
            if (m_trace) {
                const bool computes = call.reader >= 0 && s.name &&
                                      computesBuffer(m_p.readers[size_t(call.reader)], *s.name);
                for (int64_t k = first; k < first + elements; ++k)
                    touch(s, k, computes ? kElementWritten : kElementRead, call.reader);
            }
            break;
        }
        }
    }
    callPacked(call.name, args);
}

void Executor::execStoreND(const SNode& n) {
    m_stmt = n.source;
    Value value = eval(n.c);
    Storage& s = *m_bufs[n.slot];
    int64_t index = flatIndex(s, n.a, n.b, true);
    ++m_stores;
    if (m_trace)
        touch(s, index, kElementWritten);
    if (n.floatValue)
        writeElemDouble(s.data, s.elem, index, value.f);
    else
        writeElemInt(s.data, s.elem, index, value.i);
}

void Executor::execAllocate(const SNode& n) {
    m_stmt = n.source;
    const AllocSite& site = m_p.sites[size_t(n.aux)];
    // Inside a kernel, shared memory lives per block and global memory per launch: the first
    // thread to get here opens it, the others use it, and the block or launch closes it.
    const bool perKernel = site.inKernel && site.kind != ScopeKind::PerThread;
    Storage* s = nullptr;
    if (perKernel) {
        Storage*& instance =
            site.kind == ScopeKind::PerWarp ? warpInstance(n.aux) : m_kernelInstance[size_t(n.aux)];
        if (!instance)
            instance = openStorage(n.aux);
        else
            reenterKernelStorage(*instance, n.aux);
        s = instance;
    } else {
        s = openStorage(n.aux);
    }
    Storage* previous = m_bufs[site.bufferSlot];
    m_bufs[site.bufferSlot] = s;
    exec(n.body);
    // m_bufs is re-read: a barrier in the body may have switched threads and back.
    m_bufs[site.bufferSlot] = previous;
    if (!perKernel)
        closeStorage(s);
}

void Executor::reenterKernelStorage(Storage& s, int32_t siteId) {
    int64_t mins[kMaxRank] = {};
    int64_t extents[kMaxRank] = {};
    int rank = 1;
    int64_t size = evalShape(siteId, mins, extents, &rank);
    // A region that moves (a realize at [ko*16, 16) inside the ko loop) is the same memory
    // indexed from its new mins; a size that changes has no GPU equivalent.
    if (size != s.size)
        fail("allocation " + m_p.sites[size_t(siteId)].name +
             " of a block changes size between "
             "entries (" +
             std::to_string(s.size) + " elements, then " + std::to_string(size) +
             "): shared memory has one constant size per kernel");
    // Every thread of the block enters it; the observer hears only of a move.
    const bool moved = m_observer && !std::equal(mins, mins + kMaxRank, s.mins);
    if (moved)
        m_observer->leave(observed(s));
    std::copy(mins, mins + kMaxRank, s.mins);
    std::copy(extents, extents + kMaxRank, s.extents);
    if (moved)
        m_observer->enter(observed(s));
}

int64_t Executor::evalShape(int32_t siteId, int64_t* mins, int64_t* extents, int* rankOut) {
    const AllocSite& site = m_p.sites[size_t(siteId)];
    int rank = 1;
    int64_t size = 1;
    if (site.mins.empty()) {
        for (int32_t e : site.extents) {
            int64_t extent = eval(e).i;
            if (extent < 0)
                fail("allocation of " + site.name + " with negative extent " +
                     std::to_string(extent));
            size = cappedProduct(size, extent);
        }
        extents[0] = size;
    } else {
        rank = int(site.extents.size());
        for (int d = 0; d < rank; ++d) {
            mins[d] = eval(site.mins[size_t(d)]).i;
            extents[d] = eval(site.extents[size_t(d)]).i;
            if (extents[d] < 0)
                fail("realize of " + site.name + " with negative extent " +
                     std::to_string(extents[d]));
            size = cappedProduct(size, extents[d]);
        }
    }
    *rankOut = rank;
    return size;
}

Storage* Executor::openStorage(int32_t siteId) {
    const AllocSite& site = m_p.sites[size_t(siteId)];
    int64_t mins[kMaxRank] = {};
    int64_t extents[kMaxRank] = {};
    int rank = 1;
    int64_t size = evalShape(siteId, mins, extents, &rank);
    if (size > kMaxAllocationElements)
        fail("allocation of " + site.name + " is too large to interpret (more than " +
             std::to_string(kMaxAllocationElements) + " elements)");

    std::vector<Storage*>& freeList = m_siteFree[size_t(siteId)];
    Storage* s = nullptr;
    if (freeList.empty()) {
        m_siteStorage[size_t(siteId)].push_back(std::make_unique<Storage>());
        s = m_siteStorage[size_t(siteId)].back().get();
    } else {
        s = freeList.back();
        freeList.pop_back();
    }
    s->size = size;
    s->elem = site.elem;
    s->rank = rank;
    std::copy(mins, mins + kMaxRank, s->mins);
    std::copy(extents, extents + kMaxRank, s->extents);
    s->name = &site.name;
    s->site = siteId;
    size_t words = (size_t(size) * size_t(elemBytes(site.elem)) + 7) / 8;
    if (s->memory.size() < words)
        s->memory.resize(words);
    s->data = reinterpret_cast<uint8_t*>(s->memory.data());
    if (m_options.poisonAllocations)
        poison(*s);

    if (m_firstEntry[size_t(siteId)] < 0)
        m_firstEntry[size_t(siteId)] = m_entriesSeen++;
    BufferTrace& trace = m_traces[m_argStorage.size() + size_t(siteId)];
    ++trace.entries;
    if (trace.shape.empty() || size > trace.allocatedElements) {
        trace.allocatedElements = size;
        trace.shape.assign(extents, extents + rank);
    }
    if (m_trace) {
        s->trace = int32_t(m_argStorage.size()) + siteId;
        if (trace.flags.size() < size_t(size)) {
            trace.flags.resize(size_t(size), 0);
            trace.readers.resize(size_t(size), 0);
        }
        beginEntry(*s);
        if (m_observer)
            m_observer->enter(observed(*s));
    }
    return s;
}

void Executor::closeStorage(Storage* s) {
    if (m_trace)
        endEntry(*s);
    if (m_observer)
        m_observer->leave(observed(*s));
    m_siteFree[size_t(s->site)].push_back(s);
}

void Executor::beginEntry(Storage& s) {
    if (s.stampMemory.size() < 2 * size_t(s.size))
        s.stampMemory.resize(2 * size_t(s.size), 0);
    s.stamps = s.stampMemory.data();
    ++s.epoch; // stamps of earlier entries are all below the new epoch
    s.entryRead = 0;
    s.entryWritten = 0;
    s.entryTouched = 0;
}

void Executor::endEntry(const Storage& s) {
    BufferTrace& trace = m_traces[size_t(s.trace)];
    trace.peakRead = std::max(trace.peakRead, s.entryRead);
    trace.peakWritten = std::max(trace.peakWritten, s.entryWritten);
    trace.peakTouched = std::max(trace.peakTouched, s.entryTouched);
}

void Executor::closeSites(const std::vector<int32_t>& sites) {
    for (int32_t site : sites) {
        if (Storage*& instance = m_kernelInstance[size_t(site)]) {
            closeStorage(instance);
            instance = nullptr;
        }
        if (size_t(site) < m_warpInstances.size()) {
            for (Storage*& instance : m_warpInstances[size_t(site)])
                if (instance) {
                    closeStorage(instance);
                    instance = nullptr;
                }
        }
    }
}

void Executor::poison(Storage& s) {
    // Quiet NaN for floats, a recognisable byte pattern for integers and bools.
    switch (s.elem) {
    case ElemType::F32:
    case ElemType::F64:
        for (int64_t i = 0; i < s.size; ++i)
            writeElemDouble(s.data, s.elem, i, std::nan(""));
        return;
    default:
        std::memset(s.data, 0x5A, size_t(s.size) * size_t(elemBytes(s.elem)));
        return;
    }
}

uint32_t Executor::readerBit(int32_t traceId, int32_t reader) {
    // Readers are numbered per buffer, in the order they first read it, so a program of many
    // stages still tells a buffer's few readers apart; past 31 they share the last bit.
    if (m_readerBits.size() <= size_t(traceId))
        m_readerBits.resize(size_t(traceId) + 1);
    std::vector<int8_t>& bits = m_readerBits[size_t(traceId)];
    if (bits.empty())
        bits.assign(m_p.readers.size(), -1);
    int8_t& bit = bits[size_t(reader)];
    if (bit < 0) {
        BufferTrace& trace = m_traces[size_t(traceId)];
        if (trace.readerNames.size() < 31) {
            bit = int8_t(trace.readerNames.size());
            trace.readerNames.push_back(m_p.readers[size_t(reader)]);
        } else {
            bit = 31;
            if (trace.readerNames.size() == 31)
                trace.readerNames.push_back(kOtherReaders);
        }
    }
    return uint32_t(1) << bit;
}

AccessObserver::Region Executor::observed(const Storage& s) const {
    AccessObserver::Region region;
    region.buffer = s.trace;
    region.name = s.name;
    region.isArgument = s.isArgument;
    region.rank = s.rank;
    region.mins = s.mins;
    region.extents = s.extents;
    if (m_inKernel) {
        region.block = m_coord[0] + m_gridDims[0] * (m_coord[1] + m_gridDims[1] * m_coord[2]);
        region.thread = m_coord[3] + m_blockDims[0] * (m_coord[4] + m_blockDims[1] * m_coord[5]);
    }
    return region;
}

void Executor::touch(Storage& s, int64_t index, uint8_t flag, int32_t reader) {
    if (m_observer)
        m_observer->access(observed(s), index, flag == kElementWritten,
                           reader >= 0 ? &m_p.readers[size_t(reader)] : nullptr);
    BufferTrace& trace = m_traces[size_t(s.trace)];
    trace.flags[size_t(index)] |= flag;
    if (reader >= 0)
        trace.readers[size_t(index)] |= readerBit(s.trace, reader);
    const bool isRead = flag == kElementRead;
    ++(isRead ? trace.loads : trace.stores);
    uint32_t& mine = s.stamps[2 * index + (isRead ? 0 : 1)];
    if (mine == s.epoch)
        return;
    mine = s.epoch;
    ++(isRead ? s.entryRead : s.entryWritten);
    const uint32_t other = s.stamps[2 * index + (isRead ? 1 : 0)];
    if (other != s.epoch)
        ++s.entryTouched; // first access of this element in this entry
}

// Errors ------------------------------------------------------------------------------------

std::string Executor::threadText(const int64_t* coord) const {
    return "(" + std::to_string(coord[0]) + ", " + std::to_string(coord[1]) + ", " +
           std::to_string(coord[2]) + ")";
}

std::string Executor::blockText() const { return "block " + threadText(m_coord); }

std::string Executor::where() const {
    std::string text = " at: " + describeStmt(m_stmt);
    if (m_inKernel)
        text += " (" + blockText() + ", thread " + threadText(m_coord + 3) + ")";
    return text;
}

void Executor::fail(const std::string& message) const { throw UserError(message + where()); }

void Executor::outOfBounds(const Storage& s, const int64_t* indices, int rank, bool isWrite) const {
    std::string text =
        std::string("out-of-bounds ") + (isWrite ? "write" : "read") + " of " + *s.name;
    if (s.rank == 1 && s.mins[0] == 0 && rank == 1) {
        text += "[" + std::to_string(indices[0]) + "] in " +
                (s.isArgument ? "argument buffer" : "allocation") + " of " +
                std::to_string(s.size) + " elements";
        fail(text);
    }
    text += "(";
    for (int d = 0; d < rank; ++d)
        text += (d ? ", " : "") + std::to_string(indices[d]);
    text += s.isArgument ? ") in argument of shape (" : ") in realize of region (";
    for (int d = 0; d < s.rank; ++d) {
        text += d ? ", " : "";
        text += s.isArgument
                    ? std::to_string(s.extents[d])
                    : "[" + std::to_string(s.mins[d]) + ", " + std::to_string(s.extents[d]) + "]";
    }
    fail(text + ")");
}

void Executor::divisionByZero(const XNode& n) const {
    fail("division by zero in " + (n.source ? toString(Expr(n.source)) : std::string("?")));
}

} // namespace bs::interp
