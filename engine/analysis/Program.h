/// \file
/// A Program: what one script defines for analysis, the "current schedule" and its arguments
/// (DESIGN.md: the last schedule created; its arguments are its placeholders and outputs in
/// order, unless the script says otherwise with `boundscope.show(s, args)`).
#pragma once

#include "lower/Lower.h"
#include "schedule/Schedule.h"
#include "tc/Tc.h"

#include <functional>
#include <memory>
#include <mutex>

namespace bs {

struct Program {
    Program() = default;
    Program(Schedule schedule, std::vector<Tensor> args, bool argsGiven)
        : schedule(std::move(schedule)), args(std::move(args)), argsGiven(argsGiven) {}

    Schedule schedule;
    std::vector<Tensor> args;
    /// Scalar arguments the script gave (`tvm.lower(s, [A, B, n])`), in order.
    std::vector<Var> scalarArgs;
    /// True when the script chose the arguments (`boundscope.show`, `tvm.lower(s, args)`).
    bool argsGiven = false;
    /// The passes the script's own tvm.lower or tvm.build ran (PassContext's tir.add_lower_pass,
    /// the intrinsic-lowering rules of tvm.build), in the order given: every analysis of the
    /// program runs them too, so the IR views show each as a step of the pipeline.
    std::vector<UserPass> userPasses;
    /// The Tensor Comprehensions definitions the script built (`boundscope.tc`, or the `.tc`
    /// file itself), in order, for TC's ranges next to InferBound's (tc/RangeComparison.h).
    std::vector<std::shared_ptr<const tc::TcProgram>> tcPrograms;
    /// Writes engine code (`s[B.local].compute_at(s[C], C.op.axis[0])`, a fix or a hint) in the
    /// names the script holds its tensors and schedule in (`sch[BL]...`); null where the
    /// engine's names are the source's (a `.tc` file, a saved schedule).
    std::function<std::string(const std::string&)> inSourceNames;

    bool defined() const { return schedule.defined(); }
    /// `code` in the source's names (inSourceNames), or as it is.
    std::string inSourceNamesOf(const std::string& code) const {
        return inSourceNames ? inSourceNames(code) : code;
    }
};

/// The default arguments of a schedule: its placeholders in stage order, then its outputs.
std::vector<Tensor> defaultArguments(const Schedule& sch);

/// Collects the programs a script defines. The Python front end calls `noteSchedule` from
/// `create_schedule` and `show` from `boundscope.show`/`tvm.lower`. Each script run owns one
/// (script/RecordedRun.h) and reads `program()` after it; its methods lock, so any thread may
/// read it.
class ProgramRecorder {
public:
    void reset();
    void noteSchedule(const Schedule& sch);
    /// Makes `sch` the current program with these arguments and passes.
    void show(const Schedule& sch, std::vector<Tensor> args, std::vector<Var> scalarArgs = {},
              std::vector<UserPass> userPasses = {});
    /// Notes a TC definition the script built; every program read after carries it.
    void noteTc(std::shared_ptr<const tc::TcProgram> program);
    /// The current program: the last one shown, else the last schedule created (with its default
    /// arguments); undefined when the script created no schedule.
    Program program() const;
    /// The last schedule the script created, shown or not (the one a failing primitive was
    /// building); undefined when none.
    Schedule lastSchedule() const;

private:
    mutable std::mutex m_mutex;
    Schedule m_lastSchedule;
    Program m_shown;
    std::vector<std::shared_ptr<const tc::TcProgram>> m_tcPrograms;
};

} // namespace bs
