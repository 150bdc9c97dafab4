#include "analysis/Program.h"

namespace bs {

std::vector<Tensor> defaultArguments(const Schedule& sch) {
    std::vector<Tensor> args;
    for (const Stage& stage : sch->stages)
        if (stage->op.as<PlaceholderOpNode>())
            args.push_back(stage->op.output(0));
    for (const Stage& stage : sch->stages) {
        if (!stage->isOutput)
            continue;
        for (int i = 0; i < stage->originOp->numOutputs(); ++i)
            args.push_back(stage->originOp.output(i));
    }
    return args;
}

void ProgramRecorder::reset() {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_lastSchedule = Schedule();
    m_shown = Program();
    m_tcPrograms.clear();
}

void ProgramRecorder::noteSchedule(const Schedule& sch) {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_lastSchedule = sch;
    m_shown = Program();
}

void ProgramRecorder::show(const Schedule& sch, std::vector<Tensor> args,
                           std::vector<Var> scalarArgs, std::vector<UserPass> userPasses) {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_shown = Program{sch, std::move(args), true};
    m_shown.scalarArgs = std::move(scalarArgs);
    m_shown.userPasses = std::move(userPasses);
}

void ProgramRecorder::noteTc(std::shared_ptr<const tc::TcProgram> program) {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_tcPrograms.push_back(std::move(program));
}

Program ProgramRecorder::program() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    Program current = m_shown;
    if (!current.defined() && m_lastSchedule.defined())
        current = Program{m_lastSchedule, defaultArguments(m_lastSchedule), false};
    if (current.defined())
        current.tcPrograms = m_tcPrograms;
    return current;
}

Schedule ProgramRecorder::lastSchedule() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_lastSchedule;
}

} // namespace bs
