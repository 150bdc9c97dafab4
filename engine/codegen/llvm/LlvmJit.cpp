/// The ORC JIT behind LlvmJit (see LlvmJit.h): one LLJIT for the host; every kernel is added
/// to its main JITDylib under a fresh symbol with its own ResourceTracker, which the kernel
/// handle removes when it is destroyed.
#include "codegen/llvm/LlvmJit.h"

#include "codegen/llvm/LlvmHost.h"
#include "codegen/llvm/LlvmModuleImpl.h"
#include "support/Check.h"

#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <unordered_set>

namespace bs {

namespace {

/// The modules handed to the JIT that were too large to optimize, as generateLlvm decided
/// before the O0 pipeline (deciding again on the optimized IR could disagree).
class LargeModules {
public:
    void add(const llvm::Module* module) {
        std::lock_guard lock(m_mutex);
        m_modules.insert(module);
    }
    /// True (once) when `module` was added.
    bool take(const llvm::Module* module) {
        std::lock_guard lock(m_mutex);
        return m_modules.erase(module) != 0;
    }

private:
    std::mutex m_mutex;
    std::unordered_set<const llvm::Module*> m_modules;
};

/// The JIT's back end: the host's target machine at the aggressive level, or, for a module
/// too large to optimize (LargeModules), at the O0 level with its blocks cut into
/// pieces (llvmgen::splitLargeBlocks): the optimizing instruction scheduler and the fast
/// register allocator both grow faster than a block's length (repro 13, an expression 100,000
/// additions deep: 16 s at the aggressive level). A target machine per module, as ORC's
/// ConcurrentIRCompiler makes, so that compiles on several threads do not share one.
class HostCompiler : public llvm::orc::IRCompileLayer::IRCompiler {
public:
    HostCompiler(llvm::orc::JITTargetMachineBuilder builder, LargeModules& large)
        : IRCompiler(llvm::orc::irManglingOptionsFromTargetOptions(builder.getOptions())),
          m_builder(std::move(builder)), m_large(large) {}

    llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> operator()(llvm::Module& module) override {
        llvm::orc::JITTargetMachineBuilder builder = m_builder;
        if (m_large.take(&module)) {
            builder.setCodeGenOptLevel(llvm::CodeGenOpt::None);
            llvmgen::splitLargeBlocks(module);
        }
        llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
            builder.createTargetMachine();
        if (!machine)
            return machine.takeError();
        return llvm::orc::SimpleCompiler(**machine)(module);
    }

private:
    llvm::orc::JITTargetMachineBuilder m_builder;
    LargeModules& m_large;
};

} // namespace

struct LlvmJit::Impl {
    explicit Impl(KernelRuntime kernelRuntime) : runtime(std::move(kernelRuntime)) {}

    /// What kernels link to and are called through.
    const KernelRuntime runtime;
    /// Declared before the JIT, whose compiler refers to it.
    LargeModules large;
    std::unique_ptr<llvm::orc::LLJIT> jit;
    std::atomic<uint64_t> compiled{0};
    /// What the execution session reported while materializing (e.g. the missing symbols),
    /// which the error a lookup returns does not repeat.
    std::mutex reportMutex;
    std::string reported;

    std::string takeReported() {
        std::lock_guard lock(reportMutex);
        return std::exchange(reported, std::string());
    }
};

struct JitKernel::State {
    using Entry = int32_t (*)(void**, int64_t*);

    /// Declared before the tracker, so the JIT outlives it.
    std::shared_ptr<LlvmJit::Impl> jit;
    llvm::orc::ResourceTrackerSP tracker;
    Entry entry = nullptr;
    std::string name;
    size_t bufferCount = 0;
    size_t scalarCount = 0;
    std::vector<std::string> failureMessages;
    JitTimings timings;
    std::string cpuName;

    ~State() {
        if (!tracker)
            return;
        // Frees the kernel's code and symbols; the names it interned go too.
        if (llvm::Error error = tracker->remove())
            llvm::consumeError(std::move(error));
        jit->jit->getExecutionSession().getSymbolStringPool()->clearDeadEntries();
    }
};

namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

llvm::JITEvaluatedSymbol functionSymbol(void* address) {
    return llvm::JITEvaluatedSymbol(llvm::pointerToJITTargetAddress(address),
                                    llvm::JITSymbolFlags::Exported |
                                        llvm::JITSymbolFlags::Callable);
}

} // namespace

// ---------------------------------------------------------------------------------------------
// JitKernel

JitKernel::JitKernel(std::unique_ptr<State> state) : m_state(std::move(state)) {}
JitKernel::JitKernel(JitKernel&&) noexcept = default;
JitKernel& JitKernel::operator=(JitKernel&&) noexcept = default;
JitKernel::~JitKernel() = default;

int32_t JitKernel::call(void* const* buffers, const int64_t* scalars) const {
    struct Call {
        State::Entry entry;
        void** buffers;
        int64_t* scalars;
    } args{m_state->entry, const_cast<void**>(buffers), const_cast<int64_t*>(scalars)};
    return m_state->jit->runtime.runGuarded(
        [](void* context) {
            auto* call = static_cast<Call*>(context);
            return call->entry(call->buffers, call->scalars);
        },
        &args);
}

void JitKernel::run(const std::vector<void*>& buffers, const std::vector<int64_t>& scalars) const {
    if (buffers.size() != m_state->bufferCount || scalars.size() != m_state->scalarCount)
        throw UserError("kernel '" + m_state->name + "' takes " +
                        std::to_string(m_state->bufferCount) + " buffers and " +
                        std::to_string(m_state->scalarCount) + " scalars, got " +
                        std::to_string(buffers.size()) + " and " + std::to_string(scalars.size()));
    const KernelRuntime& runtime = m_state->jit->runtime;
    runtime.takeError(); // a failure left over from an earlier kernel is not this one's
    int32_t status = call(buffers.data(), scalars.data());
    if (status != 0) {
        std::string why = runtime.takeError();
        throw UserError("kernel '" + m_state->name + "' stopped: " + failureMessage(status) +
                        (why.empty() ? "" : ": " + why));
    }
}

const std::string& JitKernel::name() const { return m_state->name; }
size_t JitKernel::bufferCount() const { return m_state->bufferCount; }
size_t JitKernel::scalarCount() const { return m_state->scalarCount; }
const JitTimings& JitKernel::timings() const { return m_state->timings; }
const std::string& JitKernel::cpuName() const { return m_state->cpuName; }

const std::string& JitKernel::failureMessage(int32_t status) const {
    static const std::string memoryFault = kernelFaultMessage(kMemoryFaultStatus);
    static const std::string arithmeticFault = kernelFaultMessage(kArithmeticFaultStatus);
    if (status == kMemoryFaultStatus)
        return memoryFault;
    if (status == kArithmeticFaultStatus)
        return arithmeticFault;
    BS_CHECK(status > 0 && size_t(status) <= m_state->failureMessages.size())
        << "unknown status " << status << " of kernel '" << m_state->name << "'";
    return m_state->failureMessages[size_t(status - 1)];
}

// ---------------------------------------------------------------------------------------------
// LlvmJit

LlvmJit::LlvmJit(const KernelRuntime& runtime) : m_impl(std::make_shared<Impl>(runtime)) {
    BS_CHECK(runtime.runGuarded && runtime.takeError) << "a kernel runtime without its functions";
    LargeModules& large = m_impl->large;
    llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>> jit =
        llvm::orc::LLJITBuilder()
            .setJITTargetMachineBuilder(llvmgen::hostMachineBuilder())
            .setCompileFunctionCreator(
                [&large](llvm::orc::JITTargetMachineBuilder builder)
                    -> llvm::Expected<std::unique_ptr<llvm::orc::IRCompileLayer::IRCompiler>> {
                    return std::make_unique<HostCompiler>(std::move(builder), large);
                })
            .create();
    if (!jit)
        throw UserError("cannot start the LLVM JIT: " + llvmgen::errorText(jit.takeError()));
    m_impl->jit = std::move(*jit);
    Impl* impl = m_impl.get(); // owns the session, so it outlives the reporter
    m_impl->jit->getExecutionSession().setErrorReporter([impl](llvm::Error error) {
        std::string text = llvmgen::errorText(std::move(error));
        std::lock_guard lock(impl->reportMutex);
        impl->reported += (impl->reported.empty() ? "" : "; ") + text;
    });

    llvm::orc::JITDylib& main = m_impl->jit->getMainJITDylib();
    auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
        m_impl->jit->getDataLayout().getGlobalPrefix());
    if (!process)
        throw UserError("cannot start the LLVM JIT: " + llvmgen::errorText(process.takeError()));
    main.addGenerator(std::move(*process));
    llvm::orc::SymbolMap symbols;
    for (const KernelRuntime::Symbol& symbol : runtime.symbols) {
        BS_CHECK(symbol.name && symbol.address) << "a kernel runtime symbol without an address";
        symbols[m_impl->jit->mangleAndIntern(symbol.name)] = functionSymbol(symbol.address);
    }
    for (const char* needed : {kParallelForSymbol, kAllocSymbol, kFreeSymbol, kCallPackedSymbol})
        BS_CHECK(symbols.count(m_impl->jit->mangleAndIntern(needed)))
            << "the kernel runtime does not define " << needed;
    if (llvm::Error error = main.define(llvm::orc::absoluteSymbols(std::move(symbols))))
        throw UserError("cannot start the LLVM JIT: " + llvmgen::errorText(std::move(error)));
}

LlvmJit::~LlvmJit() = default;

void LlvmJit::defineSymbol(const std::string& name, void* address) {
    llvm::orc::SymbolMap symbols;
    symbols[m_impl->jit->mangleAndIntern(name)] = functionSymbol(address);
    llvm::orc::JITDylib& main = m_impl->jit->getMainJITDylib();
    if (llvm::Error error = main.define(llvm::orc::absoluteSymbols(std::move(symbols))))
        throw UserError("cannot define symbol '" + name +
                        "' for kernels: " + llvmgen::errorText(std::move(error)));
}

JitKernel LlvmJit::compile(LlvmModule module) {
    auto start = std::chrono::steady_clock::now();
    std::unique_ptr<LlvmModule::Impl> generated = module.take();
    BS_CHECK(generated && generated->module) << "compiling a module that was already compiled";
    auto state = std::make_unique<JitKernel::State>();
    state->jit = m_impl;
    state->name = generated->entryName;
    state->bufferCount = generated->bufferCount;
    state->scalarCount = generated->scalarCount;
    state->failureMessages = std::move(generated->failureMessages);
    state->cpuName = generated->cpuName;
    state->timings.buildSeconds = generated->buildSeconds;
    state->timings.optimizeSeconds = generated->optimizeSeconds;

    // A fresh symbol per compile: several kernels of the same name may be alive at once.
    std::string symbol = state->name + "__jit" + std::to_string(++m_impl->compiled);
    llvm::Function* entry = generated->module->getFunction(state->name);
    BS_CHECK(entry) << "module without its entry point '" << state->name << "'";
    entry->setName(symbol);

    state->tracker = m_impl->jit->getMainJITDylib().createResourceTracker();
    // Forgotten however the compile ends, so that a later module at the same address is not
    // taken for this one.
    struct Forget {
        LargeModules& large;
        const llvm::Module* module;
        ~Forget() { large.take(module); }
    } forget{m_impl->large, generated->module.get()};
    if (generated->large)
        m_impl->large.add(generated->module.get());
    llvm::orc::ThreadSafeModule threadSafe(std::move(generated->module),
                                           std::move(generated->context));
    auto fail = [&](llvm::Error error) {
        // What the session reported (e.g. `Symbols not found: [ f ]`) is the cause; the error
        // itself only names our internal symbol then.
        std::string text = llvmgen::errorText(std::move(error));
        std::string reported = m_impl->takeReported();
        throw UserError("JIT compilation of kernel '" + state->name +
                        "' failed: " + (reported.empty() ? text : reported));
    };
    if (llvm::Error error = m_impl->jit->addIRModule(state->tracker, std::move(threadSafe)))
        fail(std::move(error));
    // The lookup materializes the module: machine code generation and linking happen here.
    llvm::Expected<llvm::JITEvaluatedSymbol> address = m_impl->jit->lookup(symbol);
    if (!address)
        fail(address.takeError());
    state->entry = reinterpret_cast<JitKernel::State::Entry>(address->getAddress());
    state->timings.machineCodeSeconds = secondsSince(start);
    return JitKernel(std::move(state));
}

JitKernel LlvmJit::compile(const CpuKernel& kernel, const LlvmCodegenOptions& options) {
    return compile(generateLlvm(kernel, options));
}

} // namespace bs
