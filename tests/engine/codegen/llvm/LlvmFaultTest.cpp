// A kernel whose index reads far outside its input (a script's mistake) faults in generated
// code: the JIT reports it as the kernel's failure instead of the process dying, on the calling
// thread and inside parallel loops, and faults outside generated code are left alone.
#include "LlvmTestUtil.h"

#include "ir/Op.h"
#include "lower/Lower.h"
#include "runtime/Buffer.h"
#include "runtime/FaultGuard.h"
#include "te/Compute.h"

#include <gtest/gtest.h>

#include <csignal>
#include <sys/mman.h>
#include <unistd.h>

using namespace bs;
using namespace bs::test;

namespace {

/// C[i] = A[i + offset], both of 64 float32 elements.
LowerResult shiftedRead(int offset, bool parallel) {
    Tensor a = placeholder({64}, DataType::float32(), "A");
    Tensor c = compute(
        {64}, [&](const std::vector<Var>& v) { return a({v[0] + offset}); }, "C");
    Schedule s = createSchedule(c.op);
    if (parallel)
        s[c].parallel(c.op.as<ComputeOpNode>()->axis[0]);
    return lower(s, {a, c});
}

/// 64 floats that end exactly where an inaccessible page begins, so that reading past them
/// faults every time.
class GuardedInput {
public:
    GuardedInput() : m_page(size_t(sysconf(_SC_PAGESIZE))) {
        m_map =
            mmap(nullptr, 2 * m_page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        EXPECT_NE(m_map, MAP_FAILED);
        EXPECT_EQ(mprotect(static_cast<char*>(m_map) + m_page, m_page, PROT_NONE), 0);
    }
    ~GuardedInput() { munmap(m_map, 2 * m_page); }
    float* data() { return reinterpret_cast<float*>(static_cast<char*>(m_map) + m_page) - 64; }

private:
    size_t m_page;
    void* m_map = nullptr;
};

void expectFaultIsReported(bool parallel) {
    LowerResult lowered = shiftedRead(64, parallel);
    const LoweredFunc& f = lowered.func;
    JitKernel kernel = compileKernel(f.name, f.argBuffers, f.scalarParams, f.final);
    GuardedInput input;
    Buffer c("C", DataType::float32(), {64});
    try {
        kernel.run({input.data(), c.data()});
        FAIL() << "the kernel read the inaccessible page after A and was not stopped";
    } catch (const UserError& e) {
        EXPECT_NE(std::string(e.what()).find("accessed memory outside its buffers"),
                  std::string::npos)
            << e.what();
    }
    // The process and the JIT are still usable: the kernel without the shift runs.
    LowerResult fine = shiftedRead(0, parallel);
    JitKernel ok = compileKernel(fine.func.name, fine.func.argBuffers, fine.func.scalarParams,
                                 fine.func.final);
    for (int i = 0; i < 64; ++i)
        input.data()[i] = float(i);
    ok.run({input.data(), c.data()});
    EXPECT_EQ(c.at({63}), 63.0);
}

} // namespace

TEST(LlvmFault, ReadFarOutsideAnInputIsAKernelFailureNotACrash) {
    expectFaultIsReported(/*parallel=*/false);
}

TEST(LlvmFault, FaultInAParallelLoopIsReportedFromTheWorkerThread) {
    expectFaultIsReported(/*parallel=*/true);
}

TEST(LlvmFault, IntegerDivisionByARunTimeZeroIsAKernelFailureNotACrash) {
    Tensor a = placeholder({64}, DataType::int32(), "A");
    Tensor b = placeholder({64}, DataType::int32(), "B");
    Tensor c = compute(
        {64}, [&](const std::vector<Var>& v) { return floordiv(a({v[0]}), b({v[0]})); }, "C");
    Schedule s = createSchedule(c.op);
    LowerResult lowered = lower(s, {a, b, c});
    const LoweredFunc& f = lowered.func;
    JitKernel kernel = compileKernel(f.name, f.argBuffers, f.scalarParams, f.final);
    Buffer av("A", DataType::int32(), {64}), bv("B", DataType::int32(), {64}),
        cv("C", DataType::int32(), {64});
    av.fillRandom(1); // B stays all zeros
    try {
        kernel.run({av.data(), bv.data(), cv.data()});
        FAIL() << "dividing by zero was not reported";
    } catch (const UserError& e) {
        EXPECT_NE(std::string(e.what()).find("division or modulo by zero"), std::string::npos)
            << e.what();
    }
}

TEST(LlvmFault, GuardsNestAndReturnTheBodysStatus) {
    struct Inner {
        static int32_t run(void*) {
            return runGuarded([](void*) { return 7; }, nullptr);
        }
    };
    EXPECT_EQ(runGuarded(&Inner::run, nullptr), 7);
}

TEST(LlvmFault, FaultOutsideAGuardStillKillsTheProcess) {
    // Installing the handler (by a guarded call) must not swallow Boundscope's own crashes.
    GTEST_FLAG_SET(death_test_style, "threadsafe"); // the JIT's thread pool is running
    runGuarded([](void*) { return 0; }, nullptr);
    EXPECT_EXIT(
        {
            volatile int* nowhere = nullptr;
            *nowhere = 1;
        },
        ::testing::KilledBySignal(SIGSEGV), "");
}
