#include "runtime/CudaDriver.h"

#include "support/Diagnostic.h"

#include <dlfcn.h>

#include <cstdlib>
#include <memory>
#include <mutex>

namespace bs::cuda {

namespace {

/// An opened library; closed again unless released (bound libraries stay for the process, as
/// the driver must).
class Library {
public:
    Library(void* handle, std::string name) : m_handle(handle), m_name(std::move(name)) {}
    ~Library() {
        if (m_handle)
            dlclose(m_handle);
    }
    Library(const Library&) = delete;
    Library& operator=(const Library&) = delete;

    const std::string& name() const { return m_name; }
    void release() { m_handle = nullptr; }

    /// Binds `function` to `symbol`; a missing optional symbol leaves it null.
    template <typename F>
    void bind(F& function, const char* symbol, const char* what, bool required = true) {
        function = reinterpret_cast<F>(dlsym(m_handle, symbol));
        if (!function && required) {
            throw UserError(std::string(what) + " " + m_name + " lacks " + symbol +
                            ": it is too old for Boundscope's cuda target");
        }
    }

private:
    void* m_handle;
    std::string m_name;
};

/// Opens the first candidate that loads; the errors of all tries when none does.
std::unique_ptr<Library> openFirst(const std::vector<std::string>& candidates) {
    for (const std::string& name : candidates) {
        if (void* handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL))
            return std::make_unique<Library>(handle, name);
    }
    return nullptr;
}

std::string joined(const std::vector<std::string>& names) {
    std::string text;
    for (const std::string& n : names)
        text += (text.empty() ? "" : ", ") + n;
    return text;
}

} // namespace

namespace {

/// Names of the errors a user may meet, for drivers that cannot name them (the stub library).
const char* knownErrorName(CUresult error) {
    switch (error) {
    case 1:
        return "CUDA_ERROR_INVALID_VALUE: invalid argument";
    case 2:
        return "CUDA_ERROR_OUT_OF_MEMORY: out of memory";
    case 3:
        return "CUDA_ERROR_NOT_INITIALIZED: initialization error";
    case kErrorStubLibrary:
        return "CUDA_ERROR_STUB_LIBRARY: the CUDA driver is the toolkit's stub library";
    case 35:
        return "CUDA_ERROR_INSUFFICIENT_DRIVER: the driver is older than the CUDA runtime";
    case kErrorNoDevice:
        return "CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected";
    case 209:
        return "CUDA_ERROR_NO_BINARY_FOR_GPU: no kernel image is available for the device";
    case 222:
        return "CUDA_ERROR_UNSUPPORTED_PTX_VERSION: the PTX is newer than the driver";
    case 700:
        return "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered";
    default:
        return nullptr;
    }
}

/// NVRTC opens libnvrtc-builtins.so.<major>.<minor> by name when it compiles; when NVRTC itself
/// was found by its path (the toolkit folder is not in the loader's search path), load the
/// builtins from beside it first, so that NVRTC's lookup finds them already loaded.
void preloadNvrtcBuiltins(const NvrtcApi& api) {
    Dl_info info{};
    int major = 0, minor = 0;
    if (!dladdr(reinterpret_cast<void*>(api.nvrtcVersion), &info) || !info.dli_fname ||
        api.nvrtcVersion(&major, &minor) != 0)
        return;
    std::string path = info.dli_fname;
    size_t slash = path.rfind('/');
    if (slash == std::string::npos)
        return;
    std::string builtins = path.substr(0, slash + 1) + "libnvrtc-builtins.so." +
                           std::to_string(major) + "." + std::to_string(minor);
    dlopen(builtins.c_str(), RTLD_NOW | RTLD_GLOBAL);
}

} // namespace

std::string DriverApi::errorText(CUresult error) const {
    const char* name = nullptr;
    const char* text = nullptr;
    if (cuGetErrorName && cuGetErrorName(error, &name) != kSuccess)
        name = nullptr;
    if (cuGetErrorString && cuGetErrorString(error, &text) != kSuccess)
        text = nullptr;
    if (!name) {
        const char* known = knownErrorName(error);
        return known ? known : "CUDA error " + std::to_string(error);
    }
    return text ? std::string(name) + ": " + text : std::string(name);
}

std::vector<std::string> driverLibraryCandidates() { return {"libcuda.so.1", "libcuda.so"}; }

std::vector<std::string> nvrtcLibraryCandidates() {
    std::vector<std::string> names = {"libnvrtc.so",      "libnvrtc.so.13",   "libnvrtc.so.12",
                                      "libnvrtc.so.11.2", "libnvrtc.so.11.1", "libnvrtc.so.11.0"};
    for (const char* variable : {"CUDA_HOME", "CUDA_PATH"}) {
        if (const char* root = std::getenv(variable); root && *root)
            names.push_back(std::string(root) + "/lib64/libnvrtc.so");
    }
    names.push_back("/usr/local/cuda/lib64/libnvrtc.so");
    names.push_back("/usr/local/cuda/lib/libnvrtc.so");
    return names;
}

DriverApi loadDriverApi(const std::vector<std::string>& candidates) {
    std::unique_ptr<Library> lib = openFirst(candidates);
    if (!lib) {
        throw UserError("no CUDA driver found (" + joined(candidates) +
                        "): the cuda target needs an NVIDIA GPU; the emulate target runs the "
                        "kernel on the CPU");
    }
    const char* what = "the CUDA driver";
    DriverApi api;
    api.libraryName = lib->name();
    lib->bind(api.cuInit, "cuInit", what);
    lib->bind(api.cuDriverGetVersion, "cuDriverGetVersion", what);
    lib->bind(api.cuDeviceGetCount, "cuDeviceGetCount", what);
    lib->bind(api.cuDeviceGet, "cuDeviceGet", what);
    lib->bind(api.cuDeviceGetName, "cuDeviceGetName", what);
    lib->bind(api.cuDeviceGetAttribute, "cuDeviceGetAttribute", what);
    lib->bind(api.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", what);
    lib->bind(api.cuCtxSetCurrent, "cuCtxSetCurrent", what);
    lib->bind(api.cuCtxSynchronize, "cuCtxSynchronize", what);
    lib->bind(api.cuMemAlloc, "cuMemAlloc_v2", what);
    lib->bind(api.cuMemFree, "cuMemFree_v2", what);
    lib->bind(api.cuMemcpyHtoD, "cuMemcpyHtoD_v2", what);
    lib->bind(api.cuMemcpyDtoH, "cuMemcpyDtoH_v2", what);
    lib->bind(api.cuMemsetD8, "cuMemsetD8_v2", what);
    lib->bind(api.cuModuleLoadData, "cuModuleLoadData", what);
    lib->bind(api.cuModuleUnload, "cuModuleUnload", what);
    lib->bind(api.cuModuleGetFunction, "cuModuleGetFunction", what);
    lib->bind(api.cuLaunchKernel, "cuLaunchKernel", what);
    lib->bind(api.cuEventCreate, "cuEventCreate", what);
    lib->bind(api.cuEventRecord, "cuEventRecord", what);
    lib->bind(api.cuEventSynchronize, "cuEventSynchronize", what);
    lib->bind(api.cuEventElapsedTime, "cuEventElapsedTime", what);
    lib->bind(api.cuEventDestroy, "cuEventDestroy_v2", what);
    lib->bind(api.cuGetErrorName, "cuGetErrorName", what);
    lib->bind(api.cuGetErrorString, "cuGetErrorString", what);
    lib->release();
    return api;
}

NvrtcApi loadNvrtcApi(const std::vector<std::string>& candidates) {
    std::unique_ptr<Library> lib = openFirst(candidates);
    if (!lib) {
        throw UserError("no CUDA runtime compiler found (tried " + joined(candidates) +
                        "): the cuda target needs NVRTC from the CUDA toolkit; the emulate "
                        "target runs the kernel on the CPU");
    }
    const char* what = "NVRTC";
    NvrtcApi api;
    api.libraryName = lib->name();
    lib->bind(api.nvrtcVersion, "nvrtcVersion", what);
    lib->bind(api.nvrtcCreateProgram, "nvrtcCreateProgram", what);
    lib->bind(api.nvrtcCompileProgram, "nvrtcCompileProgram", what);
    lib->bind(api.nvrtcGetProgramLogSize, "nvrtcGetProgramLogSize", what);
    lib->bind(api.nvrtcGetProgramLog, "nvrtcGetProgramLog", what);
    lib->bind(api.nvrtcGetPTXSize, "nvrtcGetPTXSize", what);
    lib->bind(api.nvrtcGetPTX, "nvrtcGetPTX", what);
    lib->bind(api.nvrtcGetCUBINSize, "nvrtcGetCUBINSize", what, false);
    lib->bind(api.nvrtcGetCUBIN, "nvrtcGetCUBIN", what, false);
    lib->bind(api.nvrtcGetNumSupportedArchs, "nvrtcGetNumSupportedArchs", what, false);
    lib->bind(api.nvrtcGetSupportedArchs, "nvrtcGetSupportedArchs", what, false);
    lib->bind(api.nvrtcDestroyProgram, "nvrtcDestroyProgram", what);
    lib->bind(api.nvrtcGetErrorString, "nvrtcGetErrorString", what);
    lib->release();
    preloadNvrtcBuiltins(api);
    return api;
}

CUdevice openFirstDevice(const DriverApi& api) {
    CUresult result = api.cuInit(0);
    int count = 0;
    if (result == kSuccess)
        result = api.cuDeviceGetCount(&count);
    // The toolkit's stub libcuda (for linking only) answers like a machine without a GPU.
    if (result == kErrorNoDevice || result == kErrorStubLibrary ||
        (result == kSuccess && count == 0)) {
        std::string detail = result == kSuccess ? "the driver sees none" : api.errorText(result);
        throw UserError("no CUDA device found (" + detail +
                        "): the cuda target needs an NVIDIA GPU; the emulate target runs the "
                        "kernel on the CPU");
    }
    CUdevice device = 0;
    if (result == kSuccess)
        result = api.cuDeviceGet(&device, 0);
    if (result != kSuccess) {
        throw UserError("starting the CUDA driver (" + api.libraryName +
                        ") failed: " + api.errorText(result));
    }
    return device;
}

namespace {

template <typename Api, typename Load>
const Api& loadOnce(std::unique_ptr<Api>& slot, std::mutex& mutex, Load load) {
    std::lock_guard<std::mutex> lock(mutex);
    if (!slot)
        slot = std::make_unique<Api>(load());
    return *slot;
}

} // namespace

const DriverApi& driverApi() {
    static std::mutex mutex;
    static std::unique_ptr<DriverApi> api;
    return loadOnce(api, mutex, [] { return loadDriverApi(driverLibraryCandidates()); });
}

const NvrtcApi& nvrtcApi() {
    static std::mutex mutex;
    static std::unique_ptr<NvrtcApi> api;
    return loadOnce(api, mutex, [] { return loadNvrtcApi(nvrtcLibraryCandidates()); });
}

} // namespace bs::cuda
