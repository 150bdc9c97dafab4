/// \file
/// The one selection every view shares (DESIGN.md; issue 7, "one selection shared by every
/// view"): a stage, and optionally one of its IterVars. It is kept by name, not by engine
/// handle, so it survives a re-analysis: after an edit the views look the names up in the new
/// Analysis and keep the same stage selected.
#pragma once

#include <QObject>
#include <QString>

namespace bs::gui {

class StageSelection : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    /// The selected stage's name; empty when nothing is selected.
    const QString& stage() const { return m_stage; }
    /// The selected IterVar of that stage; empty when the stage itself is selected.
    const QString& iterVar() const { return m_iterVar; }

    /// Selects `stage` (and `iterVar` in it). Emits `changed` only when the selection changes,
    /// so views that echo a selection back do not loop.
    void select(const QString& stage, const QString& iterVar = QString()) {
        if (stage == m_stage && iterVar == m_iterVar)
            return;
        m_stage = stage;
        m_iterVar = stage.isEmpty() ? QString() : iterVar;
        Q_EMIT changed();
    }
    void clear() { select(QString()); }

Q_SIGNALS:
    void changed();

private:
    QString m_stage;
    QString m_iterVar;
};

} // namespace bs::gui
