/// \file
/// TVM's packed functions on the host: functions registered by name (`tvm.register_func` in a
/// script, `tvm.contrib.cblas.matmul` built in) that generated code calls through
/// `tvm_call_packed("name", args...)`. An argument is an integer, a float, an opaque handle, a
/// string or an array (TVM's DLTensor: data, shape, strides, element type, element offset),
/// which is how `tvm_stack_make_array` passes a buffer.
#pragma once

#include "ir/KernelAbi.h"
#include "ir/Type.h"

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace bs {

/// TVM's DLTensor as generated code builds it on the stack (`tvm_stack_make_array`). Field
/// order and sizes are part of the ABI with the LLVM backend (CodeGenLlvmCall.cpp).
struct PackedArray {
    void* data;
    const int64_t* shape;
    const int64_t* strides; ///< null: row-major
    int32_t ndim;
    uint8_t typeCode; ///< DataType::Code
    uint8_t typeBits;
    uint16_t typeLanes;
    int64_t elemOffset; ///< in elements

    DataType dtype() const;
    /// The address of element 0: `data` plus the element offset.
    void* elements() const;
    int64_t size() const;
};

/// One argument as generated code passes it: the value's 64 bits and its code.
struct PackedArg {
    PackedCode code;
    int64_t value; ///< an integer, a double's bits, or a pointer

    int64_t asInt() const;
    double asDouble() const;
    const PackedArray& asArray() const;
    const char* asString() const;
};

using PackedFunction = std::function<void(const std::vector<PackedArg>& args)>;

/// Registers `fn` under `name`; throws UserError when the name is taken and `override` is
/// false. `owner` groups registrations so a script's can be removed when it ends (0: built in).
void registerPacked(const std::string& name, PackedFunction fn, bool override, int owner = 0);
/// Whether `name` is registered (the built-in functions included).
bool hasPacked(const std::string& name);
/// Removes every function registered by `owner`.
void removePackedOwnedBy(int owner);
/// The names of the registered functions, sorted.
std::vector<std::string> packedNames();
/// Calls `name` with `args`; throws UserError when it is not registered, or what it threw.
void callPacked(const std::string& name, const std::vector<PackedArg>& args);

/// Why the first `bs_call_packed` of this thread since its last call failed (empty when none
/// did), cleared by the call. Each thread keeps its own, so kernels run at once on several
/// threads (the app, a script's threads) neither see nor clear each other's failures; a chunk of
/// a kernel's parallel loop reports to the thread running the kernel (PackedErrorBinding).
std::string takePackedError();

/// Where one thread's packed-call failures are kept.
struct PackedErrorSlot {
    std::mutex mutex; ///< chunks of one parallel loop fail at once
    std::string error;
};

/// While alive, this thread's packed-call failures go to `slot`: a worker running a chunk of a
/// parallel loop binds the slot of the thread that started the loop (callerSlot()).
class PackedErrorBinding {
public:
    /// The slot this thread's failures go to now.
    static PackedErrorSlot& callerSlot();
    explicit PackedErrorBinding(PackedErrorSlot& slot);
    ~PackedErrorBinding();
    PackedErrorBinding(const PackedErrorBinding&) = delete;
    PackedErrorBinding& operator=(const PackedErrorBinding&) = delete;

private:
    PackedErrorSlot* m_previous;
};

} // namespace bs

extern "C" {
/// The entry generated code calls: `args` and `codes` hold `count` arguments. Returns 0, or -1
/// with the reason kept for takePackedError().
int32_t bs_call_packed(const char* name, const int64_t* args, const int32_t* codes, int32_t count);
}
