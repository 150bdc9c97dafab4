#include "models/StepOutline.h"

#include "models/EngineText.h"
#include "models/StageQueries.h"

#include <QRegularExpression>

namespace bs::gui {

namespace {

constexpr StepPhase kLastPhase = StepPhase::Allocate;

StepGroup::Kind groupKindOf(StepPhase phase) {
    switch (phase) {
    case StepPhase::Normalize:
        return StepGroup::Kind::Normalize;
    case StepPhase::Realize:
    case StepPhase::BoundCheck:
    case StepPhase::Tensorize:
    case StepPhase::Compact:
    case StepPhase::Allocate:
        return StepGroup::Kind::Lowering;
    default:
        return StepGroup::Kind::Stage;
    }
}

/// `B · computed at i.j.fused.outer of C`, `C · output`.
QString visitTitle(const Analysis& analysis, const QString& stage) {
    const StageSummary summary = summarizeStage(analysis, stage);
    if (!summary.found)
        return stage;
    QString title = QStringLiteral("%1 · %2").arg(stage, summary.kind);
    if (summary.attachPoint != QLatin1String("root"))
        title += QLatin1Char(' ') + summary.attachPoint;
    return title;
}

StepGroup newGroup(const Analysis& analysis, const BoundStep& step) {
    StepGroup group;
    group.kind = groupKindOf(step.phase);
    switch (group.kind) {
    case StepGroup::Kind::Normalize:
        group.title = QStringLiteral("normalize (inline, rebase)");
        break;
    case StepGroup::Kind::Lowering:
        group.title = QStringLiteral("lowering (realize, guards, allocate)");
        break;
    case StepGroup::Kind::Stage:
        group.stage = stageNameOf(analysis, step.stage);
        group.title = step.phase == StepPhase::Visit ? visitTitle(analysis, group.stage)
                                                     : QStringLiteral("InferBound");
        break;
    }
    return group;
}

/// Whether `step` opens a new group after `last`: each visit does, and so does the first step
/// of another kind of group.
bool opensGroup(const BoundStep& step, const QList<StepGroup>& groups) {
    return groups.isEmpty() || step.phase == StepPhase::Visit ||
           groups.last().kind != groupKindOf(step.phase);
}

QString sectionTitle(const Analysis& analysis, const BoundStep& step) {
    const QString consumer = stageNameOf(analysis, step.consumer);
    switch (step.phase) {
    case StepPhase::Normalize:
        return QString::fromStdString(step.rule);
    case StepPhase::Visit:
        return QStringLiteral("visit");
    case StepPhase::Consumer:
    case StepPhase::LeafSet:
    case StepPhase::Relax:
        return QStringLiteral("phase 1 · consumer %1: leaf sets").arg(consumer);
    case StepPhase::PassUp:
    case StepPhase::RootSet:
        return QStringLiteral("phase 2 · consumer %1: pass up").arg(consumer);
    case StepPhase::Request:
        return QStringLiteral("phase 3 · consumer %1: requests").arg(consumer);
    case StepPhase::Union:
        return QStringLiteral("phase 4 · union");
    case StepPhase::PassDown:
        return QStringLiteral("pass down");
    case StepPhase::Tight:
        return QStringLiteral("tight rules");
    case StepPhase::Realize:
        return QStringLiteral("realize");
    case StepPhase::BoundCheck:
        return QStringLiteral("bound checks");
    case StepPhase::Tensorize:
        return QStringLiteral("tensorize");
    case StepPhase::Compact:
        return QStringLiteral("compact storage");
    case StepPhase::Allocate:
        return QStringLiteral("allocate");
    }
    return QString::fromLatin1(stepPhaseName(step.phase));
}

QString namesOf(const std::vector<IterVar>& ivs) {
    QStringList names;
    for (const IterVar& iv : ivs)
        names << qstr(iv->var.name());
    return names.join(QLatin1Char(','));
}

/// The part of a key that says what the step is about.
QString subjectOf(const BoundStep& step) {
    if (step.relation.defined())
        return namesOf(relationInputs(step.relation)) + QStringLiteral("->") +
               namesOf(relationOutputs(step.relation));
    if (step.tensor.defined())
        return QStringLiteral("%1[%2]").arg(qstr(step.tensor.name())).arg(step.axis);
    return namesOf(step.iterVars);
}

StepKey partialKey(const Analysis& analysis, const BoundStep& step) {
    return StepKey{step.phase, stageNameOf(analysis, step.stage),
                   stageNameOf(analysis, step.consumer), subjectOf(step), 0};
}

std::optional<StepPhase> parsePhase(const QString& name) {
    for (int p = 0; p <= int(kLastPhase); ++p) {
        if (name == QLatin1String(stepPhaseName(StepPhase(p))))
            return StepPhase(p);
    }
    return std::nullopt;
}

} // namespace

const BoundSteps* stepsOf(const Analysis& analysis) {
    return analysis.lowered ? &analysis.lowered->bounds.steps : nullptr;
}

QString stageNameOf(const Analysis& analysis, const Operation& op) {
    if (!op.defined())
        return QString();
    if (analysis.lowered) {
        const Stage stage = analysis.lowered->normalized.findStage(op);
        if (stage.defined())
            return qstr(stage.name());
    }
    return qstr(op->name);
}

QList<StepGroup> stepOutline(const Analysis& analysis) {
    QList<StepGroup> groups;
    const BoundSteps* steps = stepsOf(analysis);
    if (!steps)
        return groups;
    for (const BoundStep& step : steps->all()) {
        if (opensGroup(step, groups))
            groups << newGroup(analysis, step);
        QList<StepSection>& sections = groups.last().sections;
        const QString title = sectionTitle(analysis, step);
        if (sections.isEmpty() || sections.last().title != title)
            sections << StepSection{title, {}};
        sections.last().steps << step.id;
    }
    return groups;
}

std::optional<StepKey> stepKeyOf(const Analysis& analysis, int id) {
    const BoundSteps* steps = stepsOf(analysis);
    if (!steps || id < 0 || id >= int(steps->size()))
        return std::nullopt;
    StepKey key = partialKey(analysis, steps->at(id));
    for (int earlier = 0; earlier < id; ++earlier)
        key.ordinal += partialKey(analysis, steps->at(earlier)) == key ? 1 : 0;
    return key;
}

int resolveStep(const Analysis& analysis, const std::optional<StepKey>& key, int oldId) {
    const BoundSteps* steps = stepsOf(analysis);
    if (!steps || steps->empty())
        return -1;
    const int count = int(steps->size());
    if (!key)
        return qBound(0, oldId, count - 1);
    if (oldId >= 0 && oldId < count && stepKeyOf(analysis, oldId) == key)
        return oldId;
    StepKey probe = *key;
    probe.ordinal = 0;
    int seen = 0;
    for (int id = 0; id < count; ++id) {
        if (partialKey(analysis, steps->at(id)) == probe && seen++ == key->ordinal)
            return id;
    }
    return qBound(0, oldId, count - 1);
}

bool isStepSpec(const QString& spec) {
    static const QRegularExpression form(QStringLiteral("^(\\d+|[a-z-]+(:[a-z0-9/-]*)?)$"));
    if (!form.match(spec).hasMatch())
        return false;
    return spec.front().isDigit() || parsePhase(spec.section(QLatin1Char(':'), 0, 0));
}

int findStep(const Analysis& analysis, const QString& spec) {
    const BoundSteps* steps = stepsOf(analysis);
    if (!steps || !isStepSpec(spec))
        return -1;
    if (spec.front().isDigit()) {
        const int id = spec.toInt();
        return id < int(steps->size()) ? id : -1;
    }
    const StepPhase phase = *parsePhase(spec.section(QLatin1Char(':'), 0, 0));
    const std::string rule = spec.section(QLatin1Char(':'), 1).toStdString();
    for (const BoundStep& step : steps->all()) {
        if (step.phase == phase && step.rule.starts_with(rule))
            return step.id;
    }
    return -1;
}

} // namespace bs::gui
