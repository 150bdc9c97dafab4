/// \file
/// The lowering pipeline, TVM's `tvm.lower`: normalize, InferBound, ScheduleOps, storage
/// flattening, simplification, common subexpression elimination (seed 001), then the loop
/// annotations and clean-ups, and the barriers of GPU kernels (ThreadSync) in the final IR.
/// Every intermediate statement is kept so the IR can be printed after any pass
/// (`--after schedule_ops|flatten|simplify|cse|final`).
#pragma once

#include "lower/CompactStorage.h"
#include "lower/StorageFlatten.h"
#include "schedule/InferBound.h"
#include "schedule/Schedule.h"

#include <functional>
#include <optional>
#include <utility>

namespace bs {

enum class LowerPass { ScheduleOps, Flatten, Simplify, Cse, Final };
/// `schedule_ops`, `flatten`, `simplify`, `cse`, `final`.
const char* lowerPassName(LowerPass pass);
std::optional<LowerPass> parseLowerPass(const std::string& name);

/// A pass the script adds to the pipeline (TVM's `tir.add_lower_pass` config): `run` takes the
/// statement after the built-in passes of its phase and returns the one lowering goes on with.
/// Phases as TVM's: 0 right after ScheduleOps (before prefetch and flattening), 1 after
/// flattening and simplification, 2 after the loop annotations (unroll, vectorize), 3 after
/// their clean-up, before common subexpression elimination.
struct UserPass {
    int phase = 0;
    std::string name;
    std::function<Stmt(const Stmt&)> run;
};

struct LowerOptions {
    BoundRules rules = BoundRules::Tvm;
    bool keepTrivialLoops = false;
    /// Scalar variables given as arguments (`tvm.lower(s, [A, B, n])`), after the shape
    /// variables of the tensor arguments.
    std::vector<Var> scalarArgs;
    /// Make every free scalar of the program (programScalars) a parameter, as if the script
    /// had passed it: a split factor or tile size that is a `te.var` is analysed like any other.
    /// Off for `tvm.lower`, which, as TVM's MakeAPI, rejects a variable it was not given.
    bool freeScalarsAsParams = false;
    /// TVM's passes that a PassContext may disable (`disabled_pass=["tir.CommonSubexprElimTIR"]`,
    /// `config={"tir.disable_cse_tir": True}`, `disabled_pass=["tir.HoistIfThenElse"]`).
    bool commonSubexprElim = true;
    bool hoistIfThenElse = true;
    /// In the order they run within a phase.
    std::vector<UserPass> userPasses;
};

/// A lowered function: its arguments (tensors and their flat buffers) and the statement after
/// each pass.
struct LoweredFunc {
    std::string name = "main";
    std::vector<Tensor> args;
    std::vector<Var> argBuffers; ///< one per argument, as storage flattening named them
    /// The buffer Var of each `allocate` storage flattening made from a `realize`, with its
    /// tensor, in the order they appear: how to find a stage's buffer when two stages share a
    /// name (`te.compute`'s default, "compute").
    std::vector<std::pair<Tensor, Var>> allocations;
    std::vector<Var> scalarParams; ///< symbolic shape variables the body uses
    /// ScheduleOps' statement; under the `compact` rules, after compact storage too.
    Stmt afterScheduleOps;
    Stmt afterFlatten;
    Stmt afterSimplify;
    Stmt afterCse;
    Stmt final;
    /// The statement after each user pass (LowerOptions::userPasses), by name, in the order run.
    std::vector<std::pair<std::string, Stmt>> afterUserPasses;
    /// `final` with its device-only intrinsics lowered (LowerThreadAllreduce): what the CUDA code
    /// generator and the GPU emulation run. The same statement as `final` when it has none.
    Stmt device;
    /// `device`, or `final` for a function built by hand without it.
    const Stmt& deviceCode() const { return device.defined() ? device : final; }

    const Stmt& after(LowerPass pass) const;
};

struct LowerResult {
    Schedule normalized;
    InferBoundResult bounds;
    LoweredFunc func;
    /// The buffers compact storage changed (the `compact` rules only).
    std::vector<Compaction> compactions;
};

/// The scalar variables a program uses that no loop defines, in stage order: `te.var`s in
/// shapes, split factors and nparts, bodies and reduction domains. IterVar variables (loops,
/// threads) are never among them.
std::vector<Var> programScalars(const Schedule& sch);

/// Lowers `sch` (not yet normalized: a normalized copy is made) with `args` as the function's
/// arguments. Throws UserError for schedules that cannot be lowered.
LowerResult lower(const Schedule& sch, const std::vector<Tensor>& args,
                  const LowerOptions& options = {});

} // namespace bs
