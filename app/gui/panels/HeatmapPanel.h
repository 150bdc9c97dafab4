/// \file
/// The Heatmap panel (issue 18, item 1): every element of the selected stage's buffer as a cell,
/// coloured by the consumers that read it (one colour each, purple where several do, pale where
/// none does), with a dashed border where it was never computed; hovering a cell says who read
/// it. A buffer of more than two dimensions is shown one 2-D slice at a time (a slider over the
/// leading dimensions). The map comes from one interpreter run of the program under the rules
/// selected (analysis/Heatmap.h, the same as `boundscope heatmap`), made off the GUI thread when
/// the panel is shown, and its legend's counts are the allocation report's. Hovering a cell also
/// says how often it was read and in which iterations; for a buffer allocated in a loop, a
/// slider shows one iteration (one entry of the allocation) alone, from a run of its own; a
/// link goes to the step of InferBound that realized the region.
#pragma once

#include "analysis/Analysis.h"
#include "analysis/Heatmap.h"
#include "document/JobRunner.h"

#include <QWidget>

#include <memory>
#include <optional>

class QLabel;
class QSlider;

namespace bs::gui {

/// The grid of one 2-D slice of a heatmap.
class HeatmapGrid : public QWidget {
    Q_OBJECT
public:
    explicit HeatmapGrid(QWidget* parent = nullptr);

    /// Shows slice `slice` of `map` (null: nothing).
    void setHeatmap(std::shared_ptr<const Heatmap> map, int64_t slice);
    /// The cell (row-major offset into the buffer) at widget position `pos`, or -1.
    int64_t cellAt(const QPoint& pos) const;
    /// The centre of cell (`row`, `column`) of the slice shown, in widget coordinates.
    QPoint cellCenter(int64_t row, int64_t column) const;

    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    int64_t rows() const;
    int64_t columns() const;
    qreal cellSize() const;

    std::shared_ptr<const Heatmap> m_map;
    int64_t m_slice = 0;
};

class HeatmapPanel : public QWidget {
    Q_OBJECT
public:
    explicit HeatmapPanel(QWidget* parent = nullptr);

    void setAnalysis(std::shared_ptr<const Analysis> analysis);
    /// Shows the buffer of `stage` (computed when the panel is shown).
    void showStage(const QString& stage);

    /// The heatmap shown (null while none is).
    const Heatmap* heatmap() const { return m_map.get(); }
    HeatmapGrid* grid() const { return m_grid; }
    /// The line above the grid: the stage and rules, computing, or why there is no map.
    QString statusText() const;
    /// Shows one iteration alone (from 1; 0: every iteration overlaid), as the slider does.
    void showIteration(int iteration);
    /// The iteration shown (0: all of them).
    int iteration() const;
    /// A heatmap is being made (heatmapShown follows).
    bool isComputing() const { return m_jobs.isBusy(); }
    /// The legend under the grid, as plain text.
    QString legendText() const;

Q_SIGNALS:
    /// A heatmap (or why there is none) is shown for the current stage and analysis.
    void heatmapShown();
    /// The user asked to see step `id` of the current analysis (the region's realize step).
    void stepRequested(int id);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void recompute();
    /// A heatmap, and the run it was read from (kept for the other stages of this analysis).
    struct Made {
        std::shared_ptr<const HeatmapRun> run;
        Heatmap map;
    };
    void display(JobOutcome<Made> outcome);
    void showSlice(int slice);
    void clear(const QString& status);
    /// Back to every iteration overlaid (another stage or analysis).
    void resetIteration();
    /// The realize step of the stage shown in the current analysis, or -1.
    int realizeStepOf(const QString& stage) const;

    std::shared_ptr<const Analysis> m_analysis;
    QString m_stage;
    bool m_stale = true;
    std::shared_ptr<const Heatmap> m_map;
    /// The traced run of the current analysis, once made (switching stages reads it again).
    std::shared_ptr<const HeatmapRun> m_run;
    std::shared_ptr<const Analysis> m_runOf; ///< the analysis m_run is of (held: no address reuse)
    JobRunner m_jobs;
    QLabel* m_status;
    HeatmapGrid* m_grid;
    QSlider* m_slices;
    QLabel* m_sliceLabel;
    QSlider* m_iterations; ///< 0: all overlaid; k: iteration k alone
    QLabel* m_iterationLabel;
    QLabel* m_stepLink;
    QLabel* m_legend;
};

} // namespace bs::gui
