// The CUDA runtime's behaviour where no GPU is needed: clear errors when the driver or NVRTC is
// missing, and NVRTC compiling every generated kernel (it needs libnvrtc, not a GPU).

#include "CudaTestPrograms.h"

#include "codegen/CudaCodegen.h"
#include "runtime/CudaRuntime.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <unistd.h>

using namespace bs;
using namespace bs::test;

namespace {

template <typename Fn> std::string errorOf(Fn fn) {
    try {
        fn();
    } catch (const UserError& e) {
        return e.what();
    }
    return "";
}

/// Whether NVRTC can be loaded here; `reason` gets the error when not.
bool haveNvrtc(std::string& reason) {
    reason = errorOf([] { cuda::nvrtcApi(); });
    return reason.empty();
}

} // namespace

TEST(CudaRuntime, MissingDriverIsOneClearError) {
    EXPECT_EQ(
        errorOf([] { cuda::loadDriverApi({"libcuda-absent.so.1"}); }),
        "no CUDA driver found (libcuda-absent.so.1): the cuda target needs an NVIDIA GPU; the "
        "emulate target runs the kernel on the CPU");
}

TEST(CudaRuntime, MissingNvrtcNamesTheLibrariesTried) {
    EXPECT_EQ(errorOf([] {
                  cuda::loadNvrtcApi({"libnvrtc-absent.so", "/nowhere/libnvrtc.so"});
              }),
              "no CUDA runtime compiler found (tried libnvrtc-absent.so, /nowhere/libnvrtc.so): "
              "the cuda target needs NVRTC from the CUDA toolkit; the emulate target runs the "
              "kernel on the CPU");
}

TEST(CudaRuntime, LibraryWithoutTheEntryPointsIsRefused) {
    // libm opens but is no CUDA driver.
    std::string message = errorOf([] { cuda::loadDriverApi({"libm.so.6"}); });
    EXPECT_EQ(message, "the CUDA driver libm.so.6 lacks cuInit: it is too old for Boundscope's "
                       "cuda target");
}

TEST(CudaRuntime, StubDriverMeansNoDevice) {
    // The toolkit ships a libcuda stub for linking; opened, it must read as "no GPU".
    const char* stub = "/usr/local/cuda/lib64/stubs/libcuda.so";
    if (access(stub, R_OK) != 0)
        GTEST_SKIP() << stub << " is not installed";
    cuda::DriverApi api = cuda::loadDriverApi({stub});
    std::string message = errorOf([&] { cuda::openFirstDevice(api); });
    EXPECT_EQ(message.rfind("no CUDA device found (CUDA_ERROR_STUB_LIBRARY", 0), 0u) << message;
    EXPECT_NE(message.find("): the cuda target needs an NVIDIA GPU; the emulate target runs "
                           "the kernel on the CPU"),
              std::string::npos)
        << message;
}

TEST(CudaRuntime, CandidateNamesTryVersionedNvrtcAndTheToolkit) {
    std::vector<std::string> names = cuda::nvrtcLibraryCandidates();
    EXPECT_EQ(names.front(), "libnvrtc.so");
    EXPECT_NE(std::find(names.begin(), names.end(), "libnvrtc.so.13"), names.end());
    EXPECT_NE(std::find(names.begin(), names.end(), "libnvrtc.so.12"), names.end());
    EXPECT_EQ(names.back(), "/usr/local/cuda/lib/libnvrtc.so");
    EXPECT_EQ(cuda::driverLibraryCandidates().front(), "libcuda.so.1");
}

TEST(CudaRuntime, WithoutAGpuTheErrorSaysHowToEmulate) {
    std::string reason;
    if (CudaRuntime::isAvailable(&reason))
        GTEST_SKIP() << "a GPU is present: " << CudaRuntime::instance().device().name;
    EXPECT_TRUE(reason.rfind("no CUDA driver found", 0) == 0 ||
                reason.rfind("no CUDA device found", 0) == 0)
        << reason;
    EXPECT_NE(reason.find("the emulate target runs the kernel on the CPU"), std::string::npos)
        << reason;
    EXPECT_THROW(CudaRuntime::instance(), UserError);
}

TEST(CudaRuntime, NvrtcCompilesEveryGeneratedKernelForHopper) {
    std::string reason;
    if (!haveNvrtc(reason))
        GTEST_SKIP() << reason;
    for (const GpuProgram& p : allGpuPrograms()) {
        std::string source = buildCudaModule(p.body, p.name, p.arguments).source;
        CudaBinary binary;
        EXPECT_NO_THROW(binary = compileCudaSource(source, 9, 0)) << source;
        EXPECT_EQ(binary.arch, "sm_90") << p.name;
        EXPECT_FALSE(binary.isPtx());
        EXPECT_GT(binary.image.size(), 100u) << p.name;
    }
}

TEST(CudaRuntime, ArchitectureNewerThanNvrtcFallsBackToPtx) {
    std::string reason;
    if (!haveNvrtc(reason))
        GTEST_SKIP() << reason;
    GpuProgram p = seedExample6();
    CudaBinary binary =
        compileCudaSource(buildCudaModule(p.body, p.name, p.arguments).source, 99, 9);
    EXPECT_TRUE(binary.isPtx()) << binary.arch;
    EXPECT_NE(binary.image.find(".entry test_kernel0"), std::string::npos);
}

TEST(CudaRuntime, CompileErrorCarriesNvrtcsLog) {
    std::string reason;
    if (!haveNvrtc(reason))
        GTEST_SKIP() << reason;
    std::string message = errorOf([] {
        compileCudaSource("extern \"C\" __global__ void k() { undeclared = 1; }", 9, 0, "bad.cu");
    });
    EXPECT_EQ(message.rfind("NVRTC could not compile the generated CUDA source for sm_90", 0), 0u)
        << message;
    EXPECT_NE(message.find("bad.cu"), std::string::npos) << message;
    EXPECT_NE(message.find("undeclared"), std::string::npos) << message;
}
