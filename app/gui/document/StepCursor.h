/// \file
/// The current step of the Step-through (issue 13, item 4): the one step of bound inference
/// (schedule/BoundSteps.h) every view shows as "where we are", as the StageSelection is the one
/// selection. It is an id into the current Analysis's steps; StepTools moves it to the same step
/// of a new Analysis after an edit (models/StepOutline.h, resolveStep).
#pragma once

#include <QObject>

namespace bs::gui {

class StepCursor : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    /// The current step's id; -1 when there is none (no analysis, or no steps).
    int step() const { return m_step; }

    /// Makes `step` current. Emits `changed` only when the step changes.
    void setStep(int step) {
        if (step == m_step)
            return;
        m_step = step;
        Q_EMIT changed(m_step);
    }

Q_SIGNALS:
    void changed(int step);

private:
    int m_step = -1;
};

} // namespace bs::gui
