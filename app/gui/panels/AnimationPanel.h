/// \file
/// The Loop Nest panel (issue 18, item 3): the lowered program played one store at a time over
/// its output, the buffers it allocates and its inputs (analysis/LoopAnimation.h, the same as
/// `boundscope animate`). Each frame shows what the step computes (orange) from what (blue),
/// the output computed so far, each allocation's live window (green: computed in an entry that
/// is still open; grey: computed, then freed) and the inputs read; a GPU schedule colours each
/// output element by the block that computed it, so the blocks' tiles lie side by side. Play,
/// pause, step and the speed are in the tool row, the timeline slider seeks. The run is recorded
/// off the GUI thread when the panel is shown, and again for each new analysis.
#pragma once

#include "analysis/Analysis.h"
#include "analysis/LoopAnimation.h"
#include "document/JobRunner.h"

#include <QElapsedTimer>
#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QSlider;
class QTimer;
class QToolButton;

namespace bs::gui {

/// The grids of one frame, laid out left to right and wrapped.
class AnimationView : public QWidget {
    Q_OBJECT
public:
    explicit AnimationView(QWidget* parent = nullptr);

    /// Draws `player`'s frame (null: nothing); call again after it moves.
    void setPlayer(const AnimationPlayer* player);
    /// The buffer and cell at widget position `pos`, or {-1, -1}.
    std::pair<int, int64_t> cellAt(const QPoint& pos) const;
    /// The centre of cell `cell` of buffer `buffer`, in widget coordinates.
    QPoint cellCenter(int buffer, int64_t cell) const;

    QSize sizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct Placed {
        QRect title;
        QRectF grid;
        qreal cell = 1;
        int64_t rows = 1;
        int64_t columns = 1;
    };
    /// Lays the grids out for `width`; returns the height used.
    int layOut(int width, std::vector<Placed>* placed) const;
    QString titleOf(size_t buffer) const;

    const AnimationPlayer* m_player = nullptr;
    std::vector<Placed> m_placed;
};

class AnimationPanel : public QWidget {
    Q_OBJECT
public:
    explicit AnimationPanel(QWidget* parent = nullptr);

    void setAnalysis(std::shared_ptr<const Analysis> analysis);

    /// The frame shown (null while no animation is).
    const AnimationPlayer* player() const { return m_player.get(); }
    AnimationView* view() const { return m_view; }
    /// The run is being recorded (animationShown follows).
    bool isRecording() const { return m_jobs.isBusy(); }
    /// The line above the grids: the step, recording, or why there is no animation.
    QString statusText() const;

    void play();
    void pause();
    bool isPlaying() const;
    /// Shows the frame after step `step` (from 0; -1: before the first).
    void seek(int64_t step);
    void stepForward();
    void stepBack();
    /// Steps played per second.
    void setSpeed(int stepsPerSecond);
    int speed() const;

Q_SIGNALS:
    /// An animation (or why there is none) is shown for the current analysis.
    void animationShown();
    /// The frame moved.
    void frameChanged(qint64 step);

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void record();
    void display(JobOutcome<std::shared_ptr<const LoopAnimation>> outcome);
    void clear(const QString& status);
    void tick();
    void showFrame();
    void updateControls();

    std::shared_ptr<const Analysis> m_analysis;
    bool m_stale = true;
    std::unique_ptr<AnimationPlayer> m_player;
    JobRunner m_jobs;
    QTimer* m_timer;
    QElapsedTimer m_clock;
    double m_pending = 0; ///< steps owed by the clock, not yet whole
    bool m_speedChosen = false;
    QLabel* m_status;
    QToolButton* m_first;
    QToolButton* m_back;
    QToolButton* m_play;
    QToolButton* m_forward;
    QToolButton* m_last;
    QSlider* m_timeline;
    QComboBox* m_speed;
    AnimationView* m_view;
    QLabel* m_legend;
};

} // namespace bs::gui
