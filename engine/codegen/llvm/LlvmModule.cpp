/// generateLlvm and the LlvmModule handle (see LlvmCodegen.h).
#include "codegen/llvm/CodeGenLlvm.h"
#include "codegen/llvm/LlvmHost.h"
#include "codegen/llvm/LlvmModuleImpl.h"

#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <chrono>
#include <cstring>

namespace bs {

namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

LlvmModule::LlvmModule(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
LlvmModule::LlvmModule(LlvmModule&&) noexcept = default;
LlvmModule& LlvmModule::operator=(LlvmModule&&) noexcept = default;
LlvmModule::~LlvmModule() = default;

std::unique_ptr<LlvmModule::Impl> LlvmModule::take() { return std::move(m_impl); }

std::string LlvmModule::printLlvmIr() const {
    BS_CHECK(m_impl && m_impl->module) << "printing a module handed to the JIT";
    std::string text;
    llvm::raw_string_ostream stream(text);
    m_impl->module->print(stream, nullptr);
    return stream.str();
}

const std::string& LlvmModule::entryName() const { return m_impl->entryName; }
size_t LlvmModule::bufferCount() const { return m_impl->bufferCount; }
size_t LlvmModule::scalarCount() const { return m_impl->scalarCount; }
const std::string& LlvmModule::cpuName() const { return m_impl->cpuName; }
double LlvmModule::buildSeconds() const { return m_impl->buildSeconds; }
double LlvmModule::optimizeSeconds() const { return m_impl->optimizeSeconds; }

const std::string& LlvmModule::failureMessage(int code) const {
    BS_CHECK(code > 0 && size_t(code) <= m_impl->failureMessages.size())
        << "unknown kernel status " << code;
    return m_impl->failureMessages[size_t(code - 1)];
}

LlvmModule generateLlvm(const CpuKernel& kernel, const LlvmCodegenOptions& options) {
    auto start = std::chrono::steady_clock::now();
    const llvmgen::HostTarget& host = llvmgen::hostTarget();
    std::unique_ptr<llvm::TargetMachine> machine = llvmgen::createHostTargetMachine();
    auto impl = std::make_unique<LlvmModule::Impl>();
    impl->context = std::make_unique<llvm::LLVMContext>();
    impl->module = std::make_unique<llvm::Module>(kernel.name, *impl->context);
    impl->module->setTargetTriple(host.triple);
    impl->module->setDataLayout(machine->createDataLayout());

    llvmgen::CodeGenLlvm codegen(*impl->module, host, options);
    codegen.generate(kernel);
    std::string problems;
    llvm::raw_string_ostream problemStream(problems);
    if (llvm::verifyModule(*impl->module, &problemStream))
        throw UserError("internal error: the LLVM IR generated for kernel '" + kernel.name +
                        "' is invalid: " + problemStream.str());
    impl->buildSeconds = secondsSince(start);

    impl->large = llvmgen::isLargeModule(*impl->module);
    if (options.optimize) {
        start = std::chrono::steady_clock::now();
        llvmgen::optimizeModule(*impl->module, *machine, impl->large);
        impl->optimizeSeconds = secondsSince(start);
    }
    impl->entryName = kernel.name;
    impl->bufferCount = kernel.buffers.size();
    impl->scalarCount = kernel.scalars.size();
    impl->failureMessages = codegen.failureMessages();
    impl->cpuName = host.cpu;
    return LlvmModule(std::move(impl));
}

std::string printLlvmIr(const CpuKernel& kernel, const LlvmCodegenOptions& options) {
    return generateLlvm(kernel, options).printLlvmIr();
}

CpuKernel cpuKernelOf(const LoweredFunc& func, const std::string& name) {
    return CpuKernel{name.empty() ? func.name : name, func.argBuffers, func.scalarParams,
                     func.final};
}

int64_t packFloatScalar(double value) {
    int64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}

} // namespace bs
