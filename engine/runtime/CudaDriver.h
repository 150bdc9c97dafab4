/// \file
/// The CUDA driver API (libcuda) and the runtime compiler NVRTC (libnvrtc), opened with dlopen
/// when a kernel first runs on the GPU, so that Boundscope builds and runs without CUDA and
/// fails with one clear UserError when a GPU is asked for but absent. Only the entry points
/// the runtime uses are bound, by their ABI names (`cuMemAlloc_v2`, ...); the types and
/// constants below mirror `cuda.h` and `nvrtc.h`, which are not needed at build time.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace bs::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st*;
using CUmodule = struct CUmod_st*;
using CUfunction = struct CUfunc_st*;
using CUevent = struct CUevent_st*;
using CUstream = struct CUstream_st*;
using nvrtcResult = int;
using nvrtcProgram = struct _nvrtcProgram*;

inline constexpr CUresult kSuccess = 0;
inline constexpr CUresult kErrorStubLibrary = 34;
inline constexpr CUresult kErrorNoDevice = 100;

/// The `CUdevice_attribute` values the runtime reads.
enum DeviceAttribute : int {
    kMaxThreadsPerBlock = 1,
    kMaxBlockDimX = 2,
    kMaxGridDimX = 5,
    kMaxSharedMemoryPerBlock = 8,
    kMultiprocessorCount = 16,
    kComputeCapabilityMajor = 75,
    kComputeCapabilityMinor = 76,
};

/// The driver entry points, bound from libcuda.
struct DriverApi {
    std::string libraryName;
    CUresult (*cuInit)(unsigned flags) = nullptr;
    CUresult (*cuDriverGetVersion)(int* version) = nullptr;
    CUresult (*cuDeviceGetCount)(int* count) = nullptr;
    CUresult (*cuDeviceGet)(CUdevice* device, int ordinal) = nullptr;
    CUresult (*cuDeviceGetName)(char* name, int length, CUdevice device) = nullptr;
    CUresult (*cuDeviceGetAttribute)(int* value, int attribute, CUdevice device) = nullptr;
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext* context, CUdevice device) = nullptr;
    CUresult (*cuCtxSetCurrent)(CUcontext context) = nullptr;
    CUresult (*cuCtxSynchronize)() = nullptr;
    CUresult (*cuMemAlloc)(CUdeviceptr* pointer, size_t bytes) = nullptr;
    CUresult (*cuMemFree)(CUdeviceptr pointer) = nullptr;
    CUresult (*cuMemcpyHtoD)(CUdeviceptr to, const void* from, size_t bytes) = nullptr;
    CUresult (*cuMemcpyDtoH)(void* to, CUdeviceptr from, size_t bytes) = nullptr;
    CUresult (*cuMemsetD8)(CUdeviceptr pointer, unsigned char value, size_t count) = nullptr;
    CUresult (*cuModuleLoadData)(CUmodule* module, const void* image) = nullptr;
    CUresult (*cuModuleUnload)(CUmodule module) = nullptr;
    CUresult (*cuModuleGetFunction)(CUfunction* function, CUmodule module,
                                    const char* name) = nullptr;
    CUresult (*cuLaunchKernel)(CUfunction function, unsigned gridX, unsigned gridY, unsigned gridZ,
                               unsigned blockX, unsigned blockY, unsigned blockZ,
                               unsigned sharedBytes, CUstream stream, void** params,
                               void** extra) = nullptr;
    CUresult (*cuEventCreate)(CUevent* event, unsigned flags) = nullptr;
    CUresult (*cuEventRecord)(CUevent event, CUstream stream) = nullptr;
    CUresult (*cuEventSynchronize)(CUevent event) = nullptr;
    CUresult (*cuEventElapsedTime)(float* milliseconds, CUevent start, CUevent end) = nullptr;
    CUresult (*cuEventDestroy)(CUevent event) = nullptr;
    CUresult (*cuGetErrorName)(CUresult error, const char** name) = nullptr;
    CUresult (*cuGetErrorString)(CUresult error, const char** text) = nullptr;

    /// `CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected`, or the number when the
    /// driver does not know it.
    std::string errorText(CUresult error) const;
};

/// The NVRTC entry points, bound from libnvrtc. The CUBIN and architecture queries are null
/// when the library is older than they are (CUDA 11.1 and 11.2).
struct NvrtcApi {
    std::string libraryName;
    nvrtcResult (*nvrtcVersion)(int* major, int* minor) = nullptr;
    nvrtcResult (*nvrtcCreateProgram)(nvrtcProgram* program, const char* source, const char* name,
                                      int headerCount, const char* const* headers,
                                      const char* const* includeNames) = nullptr;
    nvrtcResult (*nvrtcCompileProgram)(nvrtcProgram program, int optionCount,
                                       const char* const* options) = nullptr;
    nvrtcResult (*nvrtcGetProgramLogSize)(nvrtcProgram program, size_t* size) = nullptr;
    nvrtcResult (*nvrtcGetProgramLog)(nvrtcProgram program, char* log) = nullptr;
    nvrtcResult (*nvrtcGetPTXSize)(nvrtcProgram program, size_t* size) = nullptr;
    nvrtcResult (*nvrtcGetPTX)(nvrtcProgram program, char* ptx) = nullptr;
    nvrtcResult (*nvrtcGetCUBINSize)(nvrtcProgram program, size_t* size) = nullptr;
    nvrtcResult (*nvrtcGetCUBIN)(nvrtcProgram program, char* cubin) = nullptr;
    nvrtcResult (*nvrtcGetNumSupportedArchs)(int* count) = nullptr;
    nvrtcResult (*nvrtcGetSupportedArchs)(int* archs) = nullptr;
    nvrtcResult (*nvrtcDestroyProgram)(nvrtcProgram* program) = nullptr;
    const char* (*nvrtcGetErrorString)(nvrtcResult result) = nullptr;
};

/// The names tried for the driver: `libcuda.so.1`, then `libcuda.so`.
std::vector<std::string> driverLibraryCandidates();
/// The names tried for NVRTC: `libnvrtc.so`, versioned names from CUDA 13 down to 11, then the
/// toolkit's own folders ($CUDA_HOME, $CUDA_PATH, /usr/local/cuda).
std::vector<std::string> nvrtcLibraryCandidates();

/// Binds the driver from the first candidate that opens. Throws UserError when none does
/// (`no CUDA driver found (libcuda.so.1): --target cuda needs an NVIDIA GPU; use --target
/// emulate to run the kernel on the CPU`) or when an entry point is missing.
DriverApi loadDriverApi(const std::vector<std::string>& candidates);
/// Binds NVRTC likewise; throws UserError naming the libraries tried.
NvrtcApi loadNvrtcApi(const std::vector<std::string>& candidates);

/// Starts the driver (cuInit) and returns GPU 0. Throws UserError `no CUDA device found (...):
/// --target cuda needs an NVIDIA GPU; use --target emulate ...` when the driver sees no GPU or
/// is the toolkit's stub library, and names the driver's error otherwise.
CUdevice openFirstDevice(const DriverApi& api);

/// The process-wide bindings from the default candidates, loaded on first use. A failed load
/// throws and is tried again on the next call.
const DriverApi& driverApi();
const NvrtcApi& nvrtcApi();

} // namespace bs::cuda
