/// \file
/// Helpers for the tests that lower a schedule and run it in the reference interpreter (issue 4,
/// item 5): argument buffers with pseudo-random inputs, and one call that lowers, runs and
/// returns the buffers, so that a scheduled program can be compared with the unscheduled one.
#pragma once

#include "lower/Lower.h"
#include "runtime/Buffer.h"
#include "runtime/Interpreter.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace bs::test {

/// Values of the symbolic sizes a program's shapes use.
using SizeBindings = std::vector<std::pair<Var, int64_t>>;

/// One buffer per argument, shaped by `sizes`, filled by Buffer::fillRandom(seed + i).
std::vector<Buffer> randomArguments(const std::vector<Tensor>& args, const SizeBindings& sizes,
                                    uint64_t seed);

/// Lowers `sch` with `options` and runs the final IR on copies of `inputs` (one per argument
/// of `args`); returns the buffers after the run. Throws what lower() and the interpreter throw.
std::vector<Buffer> lowerAndRun(const Schedule& sch, const std::vector<Tensor>& args,
                                const LowerOptions& options, const std::vector<Buffer>& inputs,
                                const SizeBindings& sizes = {}, RunResult* result = nullptr);

/// Runs the final IR of `lowered` on copies of `inputs`.
std::vector<Buffer> runLowered(const LoweredFunc& func, const std::vector<Buffer>& inputs,
                               const SizeBindings& sizes = {}, RunResult* result = nullptr);

} // namespace bs::test
