// Randomized differential test (issue 4, item 5): random valid schedules of a set of programs,
// lowered under each rule set and run in the interpreter, give the unscheduled program's
// output. A failure prints the program and its schedule as Python, which replays with
// `boundscope script FILE`.
#include "RandomSchedule.h"

#include "ir/Functor.h"
#include "ir/Printer.h"
#include "lower/ThreadSync.h"
#include "run/RunKernel.h"
#include "schedule/InferBoundTight.h"

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <unistd.h>

#include <gtest/gtest.h>

using namespace bs;
using namespace bs::test;

namespace {

/// A fixed seed and count; BS_DIFF_SEED and BS_DIFF_CASES override them for longer searches.
uint64_t envOr(const char* name, uint64_t fallback) {
    const char* value = std::getenv(name);
    return value ? std::strtoull(value, nullptr, 10) : fallback;
}
const int kCases = int(envOr("BS_DIFF_CASES", 2000));
const uint64_t kSeed = envOr("BS_DIFF_SEED", 20261122);

struct Reference {
    std::vector<Buffer> inputs;
    Buffer output;
};

Reference referenceOf(const DiffProgram& p) {
    Reference ref;
    ref.inputs = randomArguments(p.args, p.sizes, 11);
    std::vector<Buffer> out =
        lowerAndRun(createSchedule(p.output().op), p.args, {}, ref.inputs, p.sizes);
    ref.output = out.back();
    return ref;
}

std::vector<BoundRules> rulesToTry() {
    std::vector<BoundRules> rules{BoundRules::Tvm, BoundRules::Tvm05};
    if (hasIsl()) {
        rules.push_back(BoundRules::Tight);
        rules.push_back(BoundRules::Compact);
    }
    return rules;
}

/// The case being checked, as Python: a failed BS_CHECK aborts the test, and the handler
/// prints it first so that the internal error can be reproduced.
std::string g_currentCase;

extern "C" void printCurrentCase(int) {
    const char* header = "\n*** aborted while checking this schedule:\n";
    ssize_t ignored = write(STDERR_FILENO, header, strlen(header));
    ignored = write(STDERR_FILENO, g_currentCase.data(), g_currentCase.size());
    (void)ignored;
}

/// The constant element count of each buffer the lowered program allocates (the largest,
/// where one name is allocated more than once).
using Allocations = std::map<std::string, int64_t>;

Allocations allocationsOf(const Stmt& body) {
    Allocations sizes;
    postOrderVisit(body, [&](const NodeRef& node) {
        const auto* alloc = node.as<AllocateNode>();
        if (!alloc)
            return;
        int64_t size = alloc->constantSize();
        if (size >= 0) {
            int64_t& known = sizes[alloc->bufferVar.name()];
            known = std::max(known, size);
        }
    });
    return sizes;
}

/// Lowers and runs one case under `rules`; returns an empty string when the output matches,
/// "rejected" when lower() refused the schedule, else what went wrong. Fills `allocations`.
std::string check(const DiffProgram& p, const Reference& ref, const Schedule& s, BoundRules rules,
                  Allocations* allocations, bool alsoJit, int* compacted) {
    LowerOptions options;
    options.rules = rules;
    LowerResult lowered;
    try {
        lowered = lower(s, p.args, options);
    } catch (const UserError& e) {
        return std::string("rejected: ") + e.what();
    }
    *allocations = allocationsOf(lowered.func.final);
    *compacted += int(lowered.compactions.size());
    // The CUDA path runs ThreadSync again on each kernel: it must find nothing to add.
    if (toString(insertThreadSync(lowered.func.final)) != toString(lowered.func.final))
        return "ThreadSync adds barriers to lower()'s final IR:\n" + toString(lowered.func.final);
    try {
        std::vector<Buffer> out = runLowered(lowered.func, ref.inputs, p.sizes);
        std::string mismatch;
        if (!Buffer::allClose(out.back(), ref.output, 1e-4, 1e-5, &mismatch))
            return "wrong result: " + mismatch + "\n" + toString(lowered.func.final);
        // Under compact, only a program it changed is worth compiling again.
        if (!alsoJit || (rules == BoundRules::Compact && lowered.compactions.empty()))
            return "";
        // The same program compiled by the CPU JIT (a GPU program: rewritten for the CPU by the
        // emulation, lower/GpuOnCpu.h), checked by runKernel against the interpreter.
        RunRequest request;
        request.repeat = 1;
        request.lowerOptions = options;
        const bool gpu = usesGpuThreads(lowered.func);
        request.target = gpu ? RunTarget::Emulate : RunTarget::Cpu;
        for (const auto& [var, value] : p.sizes)
            request.sizes[var.name()] = value;
        RunReport report = runKernel(lowered, request);
        if (gpu && report.device.find("compiled by LLVM") == std::string::npos)
            return "the GPU emulation was not compiled: " + report.device + "\n" +
                   toString(lowered.func.final);
        // A compact program is checked against the unscheduled one (its storage is what is
        // checked); the others against the interpreter running the same program.
        const std::string reference =
            rules == BoundRules::Compact ? "unscheduled program" : "interpreter";
        if (report.reference.rfind(reference, 0) != 0)
            return "checked against " + report.reference + ", not the " + reference;
        return report.passed ? ""
                             : "the compiled result differs: " + report.checkDetail + "\n" +
                                   toString(lowered.func.final);
    } catch (const std::exception& e) {
        // Shared memory whose size, or a launch extent that, depends on a loop inside the
        // kernel: not a GPU program (TVM's CUDA backend and SplitHostDevice reject them too).
        std::string what = e.what();
        if (what.find("changes size between entries") != std::string::npos ||
            what.find("which only the kernel defines") != std::string::npos)
            return "rejected: " + what;
        return std::string("run failed: ") + e.what() + "\n" + toString(lowered.func.final);
    }
}

/// Lowers `cases` random schedules (seeds kSeed + seedOffset + c) under every rule set and
/// checks each against the unscheduled program.
void checkRandomSchedules(int cases, uint64_t seedOffset, RandomScheduleOptions options) {
    std::vector<DiffProgram> programs = makeDiffPrograms();
    std::vector<Reference> refs;
    for (const DiffProgram& p : programs)
        refs.push_back(referenceOf(p));
    int runs = 0, rejected = 0, failures = 0, jitRuns = 0, compacted = 0;
    auto previous = std::signal(SIGABRT, printCurrentCase);
    for (int c = 0; c < cases && failures < 10; ++c) {
        const DiffProgram& p = programs[size_t(c) % programs.size()];
        uint64_t seed = kSeed + seedOffset + uint64_t(c);
        RandomScheduleCase sc = RandomScheduler(p, seed, options).make();
        std::map<BoundRules, Allocations> allocations;
        for (BoundRules rules : rulesToTry()) {
            g_currentCase = std::string("under ") + boundRulesName(rules) + ":\n" + sc.python(p);
            // One CPU case in ten and one GPU case in three also run compiled (LLVM JIT), under
            // TVM's rules and (where ISL is built in) the compact ones.
            const bool jit = c % (sc.gpu ? 3 : 10) == 0 &&
                             (rules == BoundRules::Tvm || rules == BoundRules::Compact) &&
                             runHasLlvm();
            const int compactedBefore = compacted;
            std::string problem = check(p, refs[size_t(c) % programs.size()], sc.schedule, rules,
                                        &allocations[rules], jit, &compacted);
            jitRuns += jit && (rules != BoundRules::Compact || compacted > compactedBefore);
            ++runs;
            if (problem.rfind("rejected", 0) == 0) {
                ++rejected;
                if (std::getenv("BS_DIFF_VERBOSE"))
                    std::cout << "case " << c << " " << problem.substr(0, 160) << "\n";
                continue;
            }
            if (problem.empty())
                continue;
            ++failures;
            ADD_FAILURE() << "case " << c << " (" << p.name << (sc.gpu ? ", gpu" : "") << ") under "
                          << boundRulesName(rules) << ": " << problem << "\nschedule:\n"
                          << sc.python(p);
        }
        // The tight rules never allocate more than TVM's, the compact ones than tight.
        for (auto [looser, tighter] : {std::pair{BoundRules::Tvm, BoundRules::Tight},
                                       std::pair{BoundRules::Tight, BoundRules::Compact}})
            for (const auto& [buffer, size] : allocations[tighter]) {
                auto other = allocations[looser].find(buffer);
                if (other == allocations[looser].end() || size <= other->second)
                    continue;
                ++failures;
                ADD_FAILURE() << "case " << c << " (" << p.name << "): " << boundRulesName(tighter)
                              << " allocates " << size << " elements of " << buffer << ", "
                              << boundRulesName(looser) << " " << other->second << "\nschedule:\n"
                              << sc.python(p);
            }
    }
    std::signal(SIGABRT, previous);
    std::cout << runs << " lowerings of " << cases << " random schedules, " << rejected
              << " rejected by lower() or as GPU programs; " << jitRuns
              << " also compiled by the CPU JIT (GPU ones through the emulation's rewrite); "
              << compacted << " buffers compacted\n";
    if (hasIsl()) {
        EXPECT_GT(compacted, 0) << "no schedule had a buffer compact storage changes";
    }
    // Most random schedules are legal; a generator that produced mostly rejected ones would
    // test nothing.
    EXPECT_LT(rejected * 10, runs) << rejected << " of " << runs << " lowerings rejected";
}

} // namespace

TEST(Differential, RandomSchedulesMatchTheUnscheduledProgram) {
    checkRandomSchedules(kCases, 0, {});
}

TEST(Differential, RandomGpuSchedulesWithVirtualThreadsMatchTheUnscheduledProgram) {
    // Issue 4: every case a GPU one whose root stages run virtual threads inside their threads,
    // so that "local" producers computed at the thread loop hold one region per virtual thread
    // and bind the consumer's vthread (the generator's shareVirtualThread).
    checkRandomSchedules(kCases / 2, 1000000, {.gpu = 1.0, .virtualThreads = 1.0});
}
