#include "RandomSchedule.h"

#include "schedule/Schedule.h"
#include "te/Compute.h"

#include <algorithm>

namespace bs::test {

namespace {

const ComputeOpNode* computeOf(const Stage& stage) { return stage->op.as<ComputeOpNode>(); }

bool readsOp(const Stage& reader, const Operation& op) {
    for (const Tensor& t : reader->op->inputTensors())
        if (t.op.same_as(op))
            return true;
    return false;
}

} // namespace

std::string joinPython(const std::vector<std::string>& parts) {
    std::string out;
    for (const std::string& p : parts)
        out += (out.empty() ? "" : ", ") + p;
    return out;
}

std::string RandomScheduleCase::python(const DiffProgram& program) const {
    std::string out = program.python;
    for (const std::string& line : lines)
        out += line + "\n";
    std::vector<std::string> args;
    for (const Tensor& t : program.args)
        args.push_back(t.name());
    return out + "print(tvm.lower(s, [" + joinPython(args) + "], simple_mode=True))\n";
}

RandomScheduler::RandomScheduler(const DiffProgram& program, uint64_t seed,
                                 RandomScheduleOptions options)
    : m_program(program), m_options(options), m_rng(seed) {}

RandomScheduleCase RandomScheduler::make() {
    m_case.schedule = createSchedule(m_program.output().op);
    m_case.gpu = chance(m_options.gpu);
    structural();
    std::vector<Stage> stages = m_case.schedule->stages;
    for (size_t i = stages.size(); i-- > 0;) {
        const Stage& stage = stages[i];
        if (computeOf(stage) && stage->attachType != AttachType::Inline)
            scheduleStage(stage);
    }
    return m_case;
}

std::string RandomScheduler::stageName(const Stage& stage) const {
    auto it = m_tensorNames.find(stage->originOp.get());
    return "s[" + (it != m_tensorNames.end() ? it->second : stage->originOp->name) + "]";
}

std::string RandomScheduler::newName(const IterVar& iv) {
    std::string name = "v" + std::to_string(m_nextName++);
    m_ivNames[iv.get()] = name;
    return name;
}

std::string RandomScheduler::ivName(const Stage& stage, const IterVar& iv) {
    auto it = m_ivNames.find(iv.get());
    if (it != m_ivNames.end())
        return it->second;
    const ComputeOpNode* op = computeOf(stage);
    for (size_t i = 0; i < op->axis.size(); ++i)
        if (op->axis[i].same_as(iv))
            return stageName(stage) + ".op.axis[" + std::to_string(i) + "]";
    for (size_t i = 0; i < op->reduceAxis.size(); ++i)
        if (op->reduceAxis[i].same_as(iv))
            return stageName(stage) + ".op.reduce_axis[" + std::to_string(i) + "]";
    return "<unnamed " + iv->var.name() + ">";
}

std::string RandomScheduler::bindLine(const Stage& stage, const IterVar& iv,
                                      const std::string& tag) {
    stage.bind(iv, threadAxis(tag));
    return stageName(stage) + ".bind(" + ivName(stage, iv) + ", te.thread_axis(\"" + tag + "\"))";
}

bool RandomScheduler::isBound(const Stage& stage, const IterVar& iv) const {
    const IterVarAttr* attr = stage.attrOf(iv);
    return attr && attr->bindThread.defined();
}

std::vector<IterVar> RandomScheduler::unboundLeaves(const Stage& stage) const {
    std::vector<IterVar> out;
    for (const IterVar& iv : stage->leafIterVars)
        if (!isBound(stage, iv))
            out.push_back(iv);
    return out;
}

int RandomScheduler::gpuLevel(const Stage& stage, int pos) const {
    auto it = m_attachLevel.find(stage.get());
    int level = it == m_attachLevel.end() ? 0 : it->second;
    for (int i = 0; i <= pos; ++i) {
        const IterVarAttr* attr = stage.attrOf(stage->leafIterVars[size_t(i)]);
        if (!attr || !attr->bindThread.defined())
            continue;
        const std::string& tag = attr->bindThread->threadTag;
        if (tag.rfind("threadIdx", 0) == 0)
            level = 2;
        else if (tag.rfind("blockIdx", 0) == 0)
            level = std::max(level, 1);
    }
    return level;
}

std::vector<Stage> RandomScheduler::consumersOf(const Stage& stage) const {
    std::vector<Stage> out;
    for (const Stage& reader : m_case.schedule->stages) {
        if (!computeOf(reader) || !readsOp(reader, stage->op))
            continue;
        std::vector<Stage> found{reader};
        if (reader->attachType == AttachType::Inline)
            found = consumersOf(reader);
        for (const Stage& s : found)
            if (std::none_of(out.begin(), out.end(), [&](const Stage& o) { return o.same_as(s); }))
                out.push_back(s);
    }
    return out;
}

void RandomScheduler::cacheReadInput(const Tensor& input) {
    static const char* kScopes[] = {"global", "shared", "local"};
    Schedule& sch = m_case.schedule;
    std::vector<Operation> readers;
    std::vector<std::string> readerNames;
    for (const Stage& s : consumersOf(sch[input])) {
        readers.push_back(s->op);
        readerNames.push_back(s->originOp->name);
    }
    std::string scope = kScopes[pick(3)];
    std::string name = input.name() + "_" + scope;
    apply([&] {
        m_tensorNames[sch.cacheRead(input, scope, readers).op.get()] = name;
        return name + " = s.cache_read(" + input.name() + ", \"" + scope + "\", [" +
               joinPython(readerNames) + "])";
    });
}

void RandomScheduler::structural() {
    Schedule& sch = m_case.schedule;
    for (size_t i = 0; i + 1 < m_program.args.size(); ++i)
        if (chance(0.3))
            cacheReadInput(m_program.args[i]);
    const ComputeOpNode* outOp = m_program.output().op.as<ComputeOpNode>();
    if (!outOp->reduceAxis.empty() && chance(0.3)) {
        rfactorOutput();
    } else if (chance(0.25)) {
        std::string scope = m_case.gpu || chance(0.5) ? "local" : "global";
        const Tensor& out = m_program.output();
        std::string name = out.name() + "_" + scope;
        apply([&] {
            m_tensorNames[sch.cacheWrite(out, scope).op.get()] = name;
            return name + " = s.cache_write(" + out.name() + ", \"" + scope + "\")";
        });
    }
    for (const Stage& stage : std::vector<Stage>(sch->stages)) {
        const ComputeOpNode* op = computeOf(stage);
        if (op && op->reduceAxis.empty() && !stage->isOutput && chance(0.3))
            apply([&] {
                stage.computeInline();
                return stageName(stage) + ".compute_inline()";
            });
    }
}

void RandomScheduler::scheduleStage(const Stage& stage) {
    if (m_case.gpu && stage->attachType == AttachType::GroupRoot) {
        if (!stage->scope.empty() && stage->scope != "global")
            apply([&] {
                stage.setScope("global");
                return stageName(stage) + ".set_scope(\"global\")";
            });
        bindGpu(stage);
    }
    transformLoops(stage);
    annotate(stage);
    attachProducers(stage);
}

void RandomScheduler::bindGpu(const Stage& stage) {
    std::vector<IterVar> axes = computeOf(stage)->axis;
    if (!computeOf(stage)->reduceAxis.empty() && chance(m_options.crossThread)) {
        bindCrossThread(stage);
        return;
    }
    if (axes.size() >= 2 && chance(0.5)) {
        static const int kOuter[] = {2, 3, 4}, kInner[] = {4, 5, 8};
        int f0 = kOuter[pick(3)], f1 = kInner[pick(3)];
        apply([&] {
            TileResult t = stage.tile(axes[0], axes[1], f0, f1);
            std::string line = newName(t.xOuter) + ", " + newName(t.yOuter) + ", " +
                               newName(t.xInner) + ", " + newName(t.yInner) + " = " +
                               stageName(stage) + ".tile(" + ivName(stage, axes[0]) + ", " +
                               ivName(stage, axes[1]) + ", " + std::to_string(f0) + ", " +
                               std::to_string(f1) + ")";
            m_case.lines.push_back(line);
            m_case.lines.push_back(bindLine(stage, t.xOuter, "blockIdx.y"));
            m_case.lines.push_back(bindLine(stage, t.yOuter, "blockIdx.x"));
            m_case.lines.push_back(bindLine(stage, t.xInner, "threadIdx.y"));
            return bindLine(stage, t.yInner, "threadIdx.x");
        });
        return;
    }
    static const int kThreads[] = {4, 5, 8, 16};
    int threads = kThreads[pick(4)];
    // Virtual threads inside the threads (a "local" producer computed at the thread loop is
    // then private to each virtual thread), or none.
    int virtualThreads = chance(m_options.virtualThreads) ? 2 + pick(2) : 1;
    apply([&] {
        auto [outer, inner] = fuseAndSplit(stage, axes, threads * virtualThreads);
        m_case.lines.push_back(bindLine(stage, outer, "blockIdx.x"));
        if (virtualThreads == 1)
            return bindLine(stage, inner, "threadIdx.x");
        std::string parent = ivName(stage, inner);
        auto [thread, virt] = stage.split(inner, virtualThreads);
        m_case.lines.push_back(newName(thread) + ", " + newName(virt) + " = " + stageName(stage) +
                               ".split(" + parent + ", factor=" + std::to_string(virtualThreads) +
                               ")");
        m_case.lines.push_back(bindLine(stage, thread, "threadIdx.x"));
        return bindLine(stage, virt, "vthread");
    });
}

void RandomScheduler::bindCrossThread(const Stage& stage) {
    static const int kLanes[] = {4, 5, 8, 16, 24, 32};
    const int lanes = kLanes[pick(6)];
    const bool byParts = chance(0.5);
    const std::vector<IterVar>& reduceAxes = computeOf(stage)->reduceAxis;
    const IterVar k = reduceAxes[size_t(pick(int(reduceAxes.size())))];
    apply([&] {
        m_case.lines.push_back(
            bindLine(stage, fuseAll(stage, computeOf(stage)->axis), "blockIdx.x"));
        std::string parent = ivName(stage, k);
        auto [outer, inner] = byParts ? stage.splitByNParts(k, lanes) : stage.split(k, lanes);
        m_case.lines.push_back(newName(outer) + ", " + newName(inner) + " = " + stageName(stage) +
                               ".split(" + parent + (byParts ? ", nparts=" : ", factor=") +
                               std::to_string(lanes) + ")");
        return bindLine(stage, byParts ? outer : inner, "threadIdx.x");
    });
}

IterVar RandomScheduler::fuseAll(const Stage& stage, const std::vector<IterVar>& axes) {
    if (axes.size() == 1)
        return axes[0];
    std::vector<std::string> names;
    for (const IterVar& iv : axes)
        names.push_back(ivName(stage, iv));
    IterVar fused = stage.fuse(axes);
    m_case.lines.push_back(newName(fused) + " = " + stageName(stage) + ".fuse(" +
                           joinPython(names) + ")");
    return fused;
}

std::pair<IterVar, IterVar>
RandomScheduler::fuseAndSplit(const Stage& stage, const std::vector<IterVar>& axes, int factor) {
    IterVar fused = fuseAll(stage, axes);
    std::string parent = ivName(stage, fused);
    auto [outer, inner] = stage.split(fused, factor);
    m_case.lines.push_back(newName(outer) + ", " + newName(inner) + " = " + stageName(stage) +
                           ".split(" + parent + ", factor=" + std::to_string(factor) + ")");
    return {outer, inner};
}

} // namespace bs::test

namespace bs::test {

void RandomScheduler::rfactorOutput() {
    // Split a reduce axis (or not) and factor the reduction over one of the parts.
    const Tensor& out = m_program.output();
    Stage stage = m_case.schedule[out];
    const auto& reduceAxes = stage->op.as<ComputeOpNode>()->reduceAxis;
    IterVar axis = reduceAxes[size_t(pick(int(reduceAxes.size())))];
    if (chance(0.7)) {
        static const int kFactors[] = {2, 3, 4};
        int factor = kFactors[pick(3)];
        std::string parent = ivName(stage, axis);
        apply([&] {
            auto [outer, inner] = stage.split(axis, factor);
            axis = chance(0.5) ? outer : inner;
            return newName(outer) + ", " + newName(inner) + " = " + stageName(stage) + ".split(" +
                   parent + ", factor=" + std::to_string(factor) + ")";
        });
    }
    std::string name = out.name() + "_rf";
    apply([&] {
        std::string axisName = ivName(stage, axis);
        m_tensorNames[m_case.schedule.rfactor(out, axis)[0].op.get()] = name;
        return name + " = s.rfactor(" + out.name() + ", " + axisName + ")";
    });
}

} // namespace bs::test
