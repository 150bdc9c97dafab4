#include "runtime/PackedFunctions.h"

#include "support/Check.h"
#include "support/Diagnostic.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <map>
#include <mutex>

#ifdef BOUNDSCOPE_WITH_OPENBLAS
#include <cblas.h>
#endif

namespace bs {

DataType PackedArray::dtype() const {
    return DataType(DataType::Code(typeCode), typeBits, typeLanes);
}

void* PackedArray::elements() const {
    return static_cast<char*>(data) + elemOffset * int64_t(dtype().bytes());
}

int64_t PackedArray::size() const {
    int64_t n = 1;
    for (int32_t d = 0; d < ndim; ++d)
        n *= shape[d];
    return n;
}

int64_t PackedArg::asInt() const {
    if (code != PackedCode::Int)
        throw UserError("packed argument: expected an integer");
    return value;
}

double PackedArg::asDouble() const {
    if (code == PackedCode::Int)
        return double(value);
    if (code != PackedCode::Float)
        throw UserError("packed argument: expected a number");
    double d;
    std::memcpy(&d, &value, sizeof d);
    return d;
}

const PackedArray& PackedArg::asArray() const {
    if (code != PackedCode::Array)
        throw UserError("packed argument: expected an array (a buffer)");
    return *reinterpret_cast<const PackedArray*>(value);
}

const char* PackedArg::asString() const {
    if (code != PackedCode::String)
        throw UserError("packed argument: expected a string");
    return reinterpret_cast<const char*>(value);
}

namespace {

struct Entry {
    PackedFunction fn;
    int owner = 0;
};

#ifdef BOUNDSCOPE_WITH_OPENBLAS
/// `tvm.contrib.cblas.matmul`: C = op(A) * op(B) for 2-d float32 or float64 arrays, row-major
/// (TVM's contrib/cblas, backed here by OpenBLAS).
void cblasMatmul(const std::vector<PackedArg>& args) {
    if (args.size() != 5)
        throw UserError("tvm.contrib.cblas.matmul takes (A, B, C, transa, transb), got " +
                        std::to_string(args.size()) + " arguments");
    const PackedArray& a = args[0].asArray();
    const PackedArray& b = args[1].asArray();
    const PackedArray& c = args[2].asArray();
    bool transa = args[3].asInt() != 0;
    bool transb = args[4].asInt() != 0;
    if (a.ndim != 2 || b.ndim != 2 || c.ndim != 2)
        throw UserError("tvm.contrib.cblas.matmul: A, B and C must be 2-d");
    if (a.strides || b.strides || c.strides)
        throw UserError("tvm.contrib.cblas.matmul: the arrays must be row-major");
    DataType type = c.dtype();
    if (a.dtype() != type || b.dtype() != type ||
        (type != DataType::float32() && type != DataType::float64()))
        throw UserError("tvm.contrib.cblas.matmul: A, B and C must all be float32 or all float64");
    int64_t m = transa ? a.shape[1] : a.shape[0];
    int64_t k = transa ? a.shape[0] : a.shape[1];
    int64_t kb = transb ? b.shape[1] : b.shape[0];
    int64_t n = transb ? b.shape[0] : b.shape[1];
    if (k != kb || c.shape[0] != m || c.shape[1] != n)
        throw UserError("tvm.contrib.cblas.matmul: shapes do not agree (A " +
                        std::to_string(a.shape[0]) + "x" + std::to_string(a.shape[1]) + ", B " +
                        std::to_string(b.shape[0]) + "x" + std::to_string(b.shape[1]) + ", C " +
                        std::to_string(c.shape[0]) + "x" + std::to_string(c.shape[1]) + ")");
    auto ta = transa ? CblasTrans : CblasNoTrans;
    auto tb = transb ? CblasTrans : CblasNoTrans;
    if (type == DataType::float32())
        cblas_sgemm(CblasRowMajor, ta, tb, int(m), int(n), int(k), 1.0f,
                    static_cast<const float*>(a.elements()), int(a.shape[1]),
                    static_cast<const float*>(b.elements()), int(b.shape[1]), 0.0f,
                    static_cast<float*>(c.elements()), int(n));
    else
        cblas_dgemm(CblasRowMajor, ta, tb, int(m), int(n), int(k), 1.0,
                    static_cast<const double*>(a.elements()), int(a.shape[1]),
                    static_cast<const double*>(b.elements()), int(b.shape[1]), 0.0,
                    static_cast<double*>(c.elements()), int(n));
}
#endif

/// Each name's registrations, the one in force last: a script's `override=True` of a built-in
/// function shadows it until the script's functions are removed.
struct Registry {
    std::mutex mutex;
    std::map<std::string, std::vector<Entry>> functions;

    Registry() {
#ifdef BOUNDSCOPE_WITH_OPENBLAS
        functions["tvm.contrib.cblas.matmul"].push_back(Entry{cblasMatmul, 0});
#endif
    }
};

Registry& registry() {
    static Registry* instance = new Registry(); // never destroyed: kernels may run at exit
    return *instance;
}

/// This thread's own slot, and the slot its failures go to: its own, or while it runs a chunk
/// of a kernel's parallel loop (PackedErrorBinding), that of the thread running the kernel.
thread_local PackedErrorSlot t_ownSlot;
thread_local PackedErrorSlot* t_boundSlot = nullptr;

PackedErrorSlot& currentSlot() { return t_boundSlot ? *t_boundSlot : t_ownSlot; }

void keepError(std::string message) {
    PackedErrorSlot& slot = currentSlot();
    std::lock_guard<std::mutex> lock(slot.mutex);
    if (slot.error.empty())
        slot.error = std::move(message);
}

} // namespace

void registerPacked(const std::string& name, PackedFunction fn, bool override, int owner) {
    if (name.empty())
        throw UserError("register_func: the name is empty");
    Registry& r = registry();
    std::vector<Entry> replaced; // destroyed outside the lock
    std::lock_guard<std::mutex> lock(r.mutex);
    std::vector<Entry>& entries = r.functions[name];
    if (!entries.empty() && !override)
        throw UserError("register_func: a function named '" + name +
                        "' is already registered (pass override=True to replace it)");
    if (!entries.empty() && entries.back().owner == owner) {
        replaced.push_back(std::move(entries.back()));
        entries.back() = Entry{std::move(fn), owner};
    } else {
        entries.push_back(Entry{std::move(fn), owner});
    }
}

bool hasPacked(const std::string& name) {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.functions.find(name);
    return it != r.functions.end() && !it->second.empty();
}

void removePackedOwnedBy(int owner) {
    if (owner == 0)
        return; // the built-in functions stay
    Registry& r = registry();
    std::vector<Entry> removed; // destroyed outside the lock
    std::lock_guard<std::mutex> lock(r.mutex);
    for (auto it = r.functions.begin(); it != r.functions.end();) {
        std::vector<Entry>& entries = it->second;
        for (auto e = entries.begin(); e != entries.end();) {
            if (e->owner == owner) {
                removed.push_back(std::move(*e));
                e = entries.erase(e);
            } else {
                ++e;
            }
        }
        it = entries.empty() ? r.functions.erase(it) : std::next(it);
    }
}

std::vector<std::string> packedNames() {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    std::vector<std::string> names;
    for (const auto& [name, entries] : r.functions)
        names.push_back(name);
    return names;
}

void callPacked(const std::string& name, const std::vector<PackedArg>& args) {
    PackedFunction fn;
    {
        Registry& r = registry();
        std::lock_guard<std::mutex> lock(r.mutex);
        auto it = r.functions.find(name);
        if (it == r.functions.end() || it->second.empty())
            throw UserError("packed function '" + name +
                            "' is not registered (tvm.register_func registers it; a function a "
                            "script registers lives until the next script starts)");
        fn = it->second.back().fn;
    }
    fn(args);
}

std::string takePackedError() {
    PackedErrorSlot& slot = currentSlot();
    std::lock_guard<std::mutex> lock(slot.mutex);
    std::string error = std::move(slot.error);
    slot.error.clear();
    return error;
}

PackedErrorSlot& PackedErrorBinding::callerSlot() { return currentSlot(); }

PackedErrorBinding::PackedErrorBinding(PackedErrorSlot& slot) : m_previous(t_boundSlot) {
    t_boundSlot = &slot;
}

PackedErrorBinding::~PackedErrorBinding() { t_boundSlot = m_previous; }

} // namespace bs

extern "C" int32_t bs_call_packed(const char* name, const int64_t* args, const int32_t* codes,
                                  int32_t count) {
    try {
        std::vector<bs::PackedArg> packed;
        packed.reserve(size_t(count));
        for (int32_t i = 0; i < count; ++i)
            packed.push_back(bs::PackedArg{bs::PackedCode(codes[i]), args[i]});
        bs::callPacked(name, packed);
        return 0;
    } catch (const std::exception& e) {
        bs::keepError(e.what());
    } catch (...) {
        bs::keepError("packed function '" + std::string(name) + "' failed");
    }
    return -1;
}
