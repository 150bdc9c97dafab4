/// \file
/// SplitHostDevice (TVM's `split_host_device.cc`): cuts a lowered, flattened function body into
/// host code and the GPU kernels it launches. Each outermost `thread_extent` nest becomes one
/// kernel `<name>_kernel0`, `<name>_kernel1`, ... with the buffers and scalars it uses as its
/// parameters and its launch configuration read off its `thread_extent` attributes; the host
/// keeps everything else (global allocations, loops and lets around the kernels) and launches
/// each kernel where its nest was. The code generators and runtimes consume the result.
#pragma once

#include "ir/Stmt.h"
#include "ir/ThreadTag.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace bs {

/// The host intrinsic that launches a kernel, as TVM 0.6 prints it:
/// `tvm_call_packed("f_kernel0", A, C, 100, 200)`: the kernel's name, its parameters in order,
/// then the extents of the thread axes it binds, in `kThreadTags` order.
inline constexpr const char* kCallPackedIntrinsic = "tvm_call_packed";

/// One parameter of a kernel: a buffer (a handle-typed Var) or a scalar.
struct KernelParam {
    Var var;
    /// A buffer's element type (from the loads, stores or allocation that use it); a scalar's
    /// own type.
    DataType type;

    bool isBuffer() const { return var.type().isHandle(); }
};

/// A device kernel split out of a function body.
struct DeviceKernel {
    /// `<function>_kernel<k>`.
    std::string name;
    /// Buffers first, then scalars. Within each group the function's arguments come first, in
    /// the order given to splitHostDevice, then the others in order of first use.
    std::vector<KernelParam> params;
    /// Extents of blockIdx.x/y/z and threadIdx.x/y/z; 1 for an axis the kernel does not bind.
    /// They may use host variables (symbolic shapes), never variables defined in the kernel.
    std::array<Expr, 3> gridDim;
    std::array<Expr, 3> blockDim;
    /// Which of the kThreadTags axes the kernel binds.
    std::array<bool, 6> boundAxes{};
    /// The outermost `thread_extent` attribute and everything under it (shared and local
    /// allocations included).
    Stmt body;

    /// The launch extent of axis `index` (kThreadTags order).
    const Expr& launchExtent(int index) const;
    /// The number of threads in a block when it is a constant.
    std::optional<int64_t> threadsPerBlock() const;
    /// The parameter for `var`, or nullptr.
    const KernelParam* findParam(const Var& var) const;
};

/// The host part of a function and the kernels it launches.
struct HostDeviceSplit {
    /// The function body with each kernel's nest replaced by its `tvm_call_packed` launch.
    Stmt host;
    std::vector<DeviceKernel> kernels;

    /// The kernel called `name`, or nullptr.
    const DeviceKernel* findKernel(const std::string& name) const;
};

/// Splits `body` (flattened IR) into host code and kernels named after `functionName`.
/// `arguments` are the function's buffer and scalar arguments, which kernels take in this order.
/// Where two `thread_extent` attributes of one kernel give the same axis different extents, the
/// launch uses the largest when all are constants (the code generator guards the smaller
/// ones); throws UserError when they are symbolic and differ, when a launch extent depends on a
/// variable defined inside the kernel, or when a kernel binds an axis other than blockIdx and
/// threadIdx.
HostDeviceSplit splitHostDevice(const Stmt& body, const std::string& functionName,
                                const std::vector<Var>& arguments = {});

} // namespace bs
