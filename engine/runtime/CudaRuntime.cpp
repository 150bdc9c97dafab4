#include "runtime/CudaRuntime.h"

#include "support/Diagnostic.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <mutex>

namespace bs {

using namespace cuda;

namespace {

std::string nvrtcError(const NvrtcApi& api, nvrtcResult result) {
    const char* text = api.nvrtcGetErrorString ? api.nvrtcGetErrorString(result) : nullptr;
    return text ? text : "NVRTC error " + std::to_string(result);
}

/// The architecture to compile for: the device's own (a CUBIN) when NVRTC knows it, else the
/// newest NVRTC knows below it (PTX, which the driver compiles for the device).
std::string chooseArch(const NvrtcApi& api, int major, int minor) {
    const int wanted = major * 10 + minor;
    if (!api.nvrtcGetNumSupportedArchs || !api.nvrtcGetSupportedArchs || !api.nvrtcGetCUBIN)
        return "compute_" + std::to_string(wanted);
    int count = 0;
    api.nvrtcGetNumSupportedArchs(&count);
    std::vector<int> archs(size_t(std::max(count, 0)));
    if (count > 0)
        api.nvrtcGetSupportedArchs(archs.data());
    if (std::find(archs.begin(), archs.end(), wanted) != archs.end())
        return "sm_" + std::to_string(wanted);
    int best = -1;
    for (int arch : archs) {
        if (arch <= wanted)
            best = std::max(best, arch);
    }
    if (best < 0) {
        throw UserError("NVRTC (" + api.libraryName + ") cannot compile for compute capability " +
                        std::to_string(major) + "." + std::to_string(minor));
    }
    return "compute_" + std::to_string(best);
}

/// Destroys an NVRTC program on every path.
struct ProgramGuard {
    const NvrtcApi& api;
    nvrtcProgram program = nullptr;
    ~ProgramGuard() {
        if (program)
            api.nvrtcDestroyProgram(&program);
    }
};

std::string programLog(const NvrtcApi& api, nvrtcProgram program) {
    size_t size = 0;
    if (api.nvrtcGetProgramLogSize(program, &size) != 0 || size <= 1)
        return "";
    std::string log(size, '\0');
    api.nvrtcGetProgramLog(program, log.data());
    log.resize(size - 1);
    return log;
}

std::string programImage(const NvrtcApi& api, nvrtcProgram program, bool ptx) {
    size_t size = 0;
    nvrtcResult result =
        ptx ? api.nvrtcGetPTXSize(program, &size) : api.nvrtcGetCUBINSize(program, &size);
    std::string image(size, '\0');
    if (result == 0)
        result =
            ptx ? api.nvrtcGetPTX(program, image.data()) : api.nvrtcGetCUBIN(program, image.data());
    if (result != 0)
        throw UserError("NVRTC could not return the compiled code: " + nvrtcError(api, result));
    return image;
}

std::string dimsText(const std::array<unsigned, 3>& d) {
    return "(" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " + std::to_string(d[2]) +
           ")";
}

} // namespace

CudaBinary compileCudaSource(const std::string& source, int major, int minor,
                             const std::string& fileName) {
    const NvrtcApi& api = nvrtcApi();
    auto start = std::chrono::steady_clock::now();
    CudaBinary binary;
    binary.arch = chooseArch(api, major, minor);
    ProgramGuard guard{api};
    nvrtcResult result = api.nvrtcCreateProgram(&guard.program, source.c_str(), fileName.c_str(), 0,
                                                nullptr, nullptr);
    if (result != 0)
        throw UserError("NVRTC could not create a program: " + nvrtcError(api, result));
    const std::string archOption = "--gpu-architecture=" + binary.arch;
    const char* options[] = {archOption.c_str()};
    result = api.nvrtcCompileProgram(guard.program, 1, options);
    binary.log = programLog(api, guard.program);
    if (result != 0) {
        throw UserError("NVRTC could not compile the generated CUDA source for " + binary.arch +
                        " (" + nvrtcError(api, result) + "):\n" + binary.log);
    }
    binary.image = programImage(api, guard.program, binary.isPtx());
    binary.compileMilliseconds =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return binary;
}

// Device buffers ---------------------------------------------------------------------------

CudaDeviceBuffer::~CudaDeviceBuffer() { release(); }

CudaDeviceBuffer::CudaDeviceBuffer(CudaDeviceBuffer&& other) noexcept
    : m_pointer(other.m_pointer), m_bytes(other.m_bytes) {
    other.m_pointer = 0;
    other.m_bytes = 0;
}

CudaDeviceBuffer& CudaDeviceBuffer::operator=(CudaDeviceBuffer&& other) noexcept {
    if (this != &other) {
        release();
        std::swap(m_pointer, other.m_pointer);
        std::swap(m_bytes, other.m_bytes);
    }
    return *this;
}

void CudaDeviceBuffer::release() {
    if (m_pointer)
        driverApi().cuMemFree(m_pointer);
    m_pointer = 0;
    m_bytes = 0;
}

void CudaDeviceBuffer::upload(const void* data) {
    const CudaRuntime& runtime = CudaRuntime::instance();
    runtime.makeCurrent();
    if (m_bytes)
        runtime.check(driverApi().cuMemcpyHtoD(m_pointer, data, m_bytes), "copy to the GPU");
}

void CudaDeviceBuffer::download(void* data) const {
    const CudaRuntime& runtime = CudaRuntime::instance();
    runtime.makeCurrent();
    if (m_bytes)
        runtime.check(driverApi().cuMemcpyDtoH(data, m_pointer, m_bytes), "copy from the GPU");
}

// Loaded modules ---------------------------------------------------------------------------

CudaLoadedModule::~CudaLoadedModule() {
    if (m_module)
        driverApi().cuModuleUnload(m_module);
}

CudaLoadedModule::CudaLoadedModule(CudaLoadedModule&& other) noexcept
    : m_module(other.m_module), m_binary(std::move(other.m_binary)) {
    other.m_module = nullptr;
}

cuda::CUfunction CudaLoadedModule::function(const std::string& name) const {
    CudaRuntime::instance().makeCurrent();
    CUfunction function = nullptr;
    CUresult result = driverApi().cuModuleGetFunction(&function, m_module, name.c_str());
    if (result != kSuccess) {
        throw UserError("the compiled module has no kernel '" + name +
                        "': " + driverApi().errorText(result));
    }
    return function;
}

// The runtime ------------------------------------------------------------------------------

CudaRuntime& CudaRuntime::instance() {
    static std::mutex mutex;
    static std::unique_ptr<CudaRuntime> runtime;
    std::lock_guard<std::mutex> lock(mutex);
    if (!runtime)
        runtime.reset(new CudaRuntime());
    return *runtime;
}

bool CudaRuntime::isAvailable(std::string* reason) {
    try {
        instance();
        return true;
    } catch (const UserError& e) {
        if (reason)
            *reason = e.what();
        return false;
    }
}

CudaRuntime::CudaRuntime() : m_api(driverApi()) {
    m_device = openFirstDevice(m_api);
    check(m_api.cuDevicePrimaryCtxRetain(&m_context, m_device), "creating the GPU context");
    makeCurrent();
    char name[256] = {};
    check(m_api.cuDeviceGetName(name, int(sizeof(name)) - 1, m_device), "reading the GPU name");
    m_info.name = name;
    auto attribute = [&](int which) {
        int value = 0;
        check(m_api.cuDeviceGetAttribute(&value, which, m_device), "reading a GPU attribute");
        return value;
    };
    m_info.computeMajor = attribute(kComputeCapabilityMajor);
    m_info.computeMinor = attribute(kComputeCapabilityMinor);
    m_info.maxThreadsPerBlock = attribute(kMaxThreadsPerBlock);
    m_info.maxSharedMemoryPerBlock = attribute(kMaxSharedMemoryPerBlock);
    m_info.multiprocessors = attribute(kMultiprocessorCount);
    for (int i = 0; i < 3; ++i) {
        m_info.maxBlockDim[size_t(i)] = attribute(kMaxBlockDimX + i);
        m_info.maxGridDim[size_t(i)] = attribute(kMaxGridDimX + i);
    }
    check(m_api.cuDriverGetVersion(&m_info.driverVersion), "reading the driver version");
}

void CudaRuntime::check(CUresult result, const std::string& what) const {
    if (result != kSuccess)
        throw UserError(what + " failed: " + m_api.errorText(result));
}

void CudaRuntime::makeCurrent() const {
    check(m_api.cuCtxSetCurrent(m_context), "making the GPU context current");
}

CudaLoadedModule CudaRuntime::load(const std::string& source) const {
    CudaBinary binary = compileCudaSource(source, m_info.computeMajor, m_info.computeMinor);
    makeCurrent();
    CUmodule module = nullptr;
    check(m_api.cuModuleLoadData(&module, binary.image.data()),
          "loading the kernels compiled for " + binary.arch);
    return CudaLoadedModule(module, std::move(binary));
}

CudaDeviceBuffer CudaRuntime::allocate(size_t bytes) const {
    makeCurrent();
    CUdeviceptr pointer = 0;
    if (bytes == 0)
        return CudaDeviceBuffer();
    check(m_api.cuMemAlloc(&pointer, bytes),
          "allocating " + std::to_string(bytes) + " bytes on the GPU");
    CudaDeviceBuffer buffer(pointer, bytes);
    check(m_api.cuMemsetD8(pointer, 0, bytes), "clearing GPU memory");
    return buffer;
}

void CudaRuntime::launch(CUfunction function, const std::string& name, const CudaLaunchDims& dims,
                         std::vector<void*>& args) const {
    const std::string where = "kernel '" + name + "' with grid " + dimsText(dims.grid) +
                              " and block " + dimsText(dims.block);
    uint64_t threads = uint64_t(dims.block[0]) * dims.block[1] * dims.block[2];
    bool tooBig = threads > uint64_t(m_info.maxThreadsPerBlock);
    for (size_t i = 0; i < 3; ++i) {
        tooBig = tooBig || dims.block[i] > unsigned(m_info.maxBlockDim[i]) ||
                 dims.grid[i] > unsigned(m_info.maxGridDim[i]);
    }
    if (tooBig) {
        throw UserError(where + " exceeds the limits of " + m_info.name + " (at most " +
                        std::to_string(m_info.maxThreadsPerBlock) + " threads per block)");
    }
    makeCurrent();
    check(m_api.cuLaunchKernel(function, dims.grid[0], dims.grid[1], dims.grid[2], dims.block[0],
                               dims.block[1], dims.block[2], 0, nullptr, args.data(), nullptr),
          "launching " + where);
}

void CudaRuntime::synchronize() const {
    makeCurrent();
    check(m_api.cuCtxSynchronize(), "running the kernels");
}

double CudaRuntime::time(const std::function<void()>& work) const {
    makeCurrent();
    CUevent start = nullptr, stop = nullptr;
    check(m_api.cuEventCreate(&start, 0), "creating a timing event");
    std::unique_ptr<CUevent_st, CUresult (*)(CUevent)> startGuard(start, m_api.cuEventDestroy);
    check(m_api.cuEventCreate(&stop, 0), "creating a timing event");
    std::unique_ptr<CUevent_st, CUresult (*)(CUevent)> stopGuard(stop, m_api.cuEventDestroy);
    check(m_api.cuEventRecord(start, nullptr), "recording a timing event");
    work();
    check(m_api.cuEventRecord(stop, nullptr), "recording a timing event");
    check(m_api.cuEventSynchronize(stop), "running the kernels");
    float milliseconds = 0;
    check(m_api.cuEventElapsedTime(&milliseconds, start, stop), "reading a timing event");
    return double(milliseconds);
}

} // namespace bs
