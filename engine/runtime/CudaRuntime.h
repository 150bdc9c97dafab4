/// \file
/// The GPU runtime over the driver API (CudaDriver.h): compiles CUDA C with NVRTC for the
/// device's compute capability, loads it on device 0's primary context, moves buffers between
/// host and device, launches kernels and times them with CUDA events. Every failure (no driver,
/// no device, a compile error with NVRTC's log, a failed launch) is one UserError.
#pragma once

#include "runtime/CudaDriver.h"

#include <array>
#include <functional>
#include <string>
#include <vector>

namespace bs {

/// What the runtime knows of its GPU.
struct CudaDeviceInfo {
    std::string name;
    int computeMajor = 0;
    int computeMinor = 0;
    int maxThreadsPerBlock = 0;
    int maxSharedMemoryPerBlock = 0;
    int multiprocessors = 0;
    /// The driver's CUDA version, e.g. 13000 for 13.0.
    int driverVersion = 0;
    std::array<int, 3> maxBlockDim{};
    std::array<int, 3> maxGridDim{};
};

/// Code NVRTC made for one architecture.
struct CudaBinary {
    /// `sm_90` for a CUBIN, `compute_90` for PTX that the driver compiles when loading it.
    std::string arch;
    /// The CUBIN, or the PTX text with its terminating 0.
    std::string image;
    /// NVRTC's log (warnings), possibly empty.
    std::string log;
    double compileMilliseconds = 0;

    bool isPtx() const { return arch.rfind("compute_", 0) == 0; }
};

/// Compiles `source` with NVRTC for compute capability `major.minor`: a CUBIN for `sm_<XY>`
/// when this NVRTC knows the architecture, else PTX for the newest architecture it knows below
/// it. Needs libnvrtc but no GPU. Throws UserError when NVRTC is missing, cannot target the
/// architecture, or rejects the source (the message holds NVRTC's log).
CudaBinary compileCudaSource(const std::string& source, int major, int minor,
                             const std::string& fileName = "boundscope_kernels.cu");

/// Device memory, freed with the object.
class CudaDeviceBuffer {
public:
    CudaDeviceBuffer() = default;
    ~CudaDeviceBuffer();
    CudaDeviceBuffer(CudaDeviceBuffer&& other) noexcept;
    CudaDeviceBuffer& operator=(CudaDeviceBuffer&& other) noexcept;
    CudaDeviceBuffer(const CudaDeviceBuffer&) = delete;
    CudaDeviceBuffer& operator=(const CudaDeviceBuffer&) = delete;

    cuda::CUdeviceptr pointer() const { return m_pointer; }
    size_t bytes() const { return m_bytes; }
    /// Copies `bytes()` bytes from the host.
    void upload(const void* data);
    /// Copies `bytes()` bytes to the host.
    void download(void* data) const;

private:
    friend class CudaRuntime;
    CudaDeviceBuffer(cuda::CUdeviceptr pointer, size_t bytes)
        : m_pointer(pointer), m_bytes(bytes) {}
    void release();

    cuda::CUdeviceptr m_pointer = 0;
    size_t m_bytes = 0;
};

/// Compiled kernels loaded on the device, unloaded with the object.
class CudaLoadedModule {
public:
    ~CudaLoadedModule();
    CudaLoadedModule(CudaLoadedModule&& other) noexcept;
    CudaLoadedModule& operator=(CudaLoadedModule&&) = delete;
    CudaLoadedModule(const CudaLoadedModule&) = delete;
    CudaLoadedModule& operator=(const CudaLoadedModule&) = delete;

    /// The kernel called `name`; throws UserError when the module has none.
    cuda::CUfunction function(const std::string& name) const;
    const CudaBinary& binary() const { return m_binary; }

private:
    friend class CudaRuntime;
    CudaLoadedModule(cuda::CUmodule module, CudaBinary binary)
        : m_module(module), m_binary(std::move(binary)) {}

    cuda::CUmodule m_module = nullptr;
    CudaBinary m_binary;
};

/// Grid and block extents of a launch.
struct CudaLaunchDims {
    std::array<unsigned, 3> grid{1, 1, 1};
    std::array<unsigned, 3> block{1, 1, 1};
};

/// Device 0 and its primary context, for the whole process.
class CudaRuntime {
public:
    /// The runtime, started on first use (cuInit, device 0, primary context). Throws UserError
    /// when there is no driver or no device; a later call tries again.
    static CudaRuntime& instance();
    /// Whether a GPU can be used; never throws. `reason` gets the error when not.
    static bool isAvailable(std::string* reason = nullptr);

    const CudaDeviceInfo& device() const { return m_info; }
    /// Makes the primary context current on the calling thread (each entry point does).
    void makeCurrent() const;

    /// Compiles `source` for this device (compileCudaSource) and loads it.
    CudaLoadedModule load(const std::string& source) const;
    /// `bytes` of device memory, zeroed.
    CudaDeviceBuffer allocate(size_t bytes) const;
    /// Launches `function` (named `name` in messages) with `args`: one pointer per kernel
    /// parameter to its value. Throws UserError when the dims exceed the device's limits or the
    /// driver refuses the launch.
    void launch(cuda::CUfunction function, const std::string& name, const CudaLaunchDims& dims,
                std::vector<void*>& args) const;
    /// Waits for the device; throws UserError when a kernel failed while running.
    void synchronize() const;
    /// The device time in milliseconds of what `work` enqueues, between two events.
    double time(const std::function<void()>& work) const;
    /// Throws UserError `<what>: <driver's error>` unless `result` is success.
    void check(cuda::CUresult result, const std::string& what) const;

private:
    CudaRuntime();

    const cuda::DriverApi& m_api;
    cuda::CUdevice m_device = 0;
    cuda::CUcontext m_context = nullptr;
    CudaDeviceInfo m_info;
};

} // namespace bs
