#include "panels/HeatmapPanel.h"

#include "models/StepOutline.h"
#include "views/Theme.h"

#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QPainter>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSlider>
#include <QToolTip>
#include <QVBoxLayout>

#include <climits>

namespace bs::gui {

namespace {

constexpr qreal kLargestCell = 36;
constexpr qreal kSmallestCell = 6;
constexpr int kMargin = 6;

int64_t sliceSize(const Heatmap& map) {
    const int64_t columns = map.shape.empty() ? 1 : map.shape.back();
    const int64_t rows = map.shape.size() >= 2 ? map.shape[map.shape.size() - 2] : 1;
    return std::max<int64_t>(1, rows * columns);
}

QString swatch(const char* color) {
    // The pale colour of unread cells would vanish on the window: drawn as an outline instead.
    if (QLatin1String(color) == QLatin1String(Heatmap::kUnreadColor))
        return QStringLiteral("<span style=\"color:#777777\">&#9633;&#9633;</span>");
    return QStringLiteral("<span style=\"background:%1; color:%1\">&#9632;&#9632;</span>")
        .arg(QLatin1String(color));
}

} // namespace

HeatmapGrid::HeatmapGrid(QWidget* parent) : QWidget(parent) { setMouseTracking(true); }

void HeatmapGrid::setHeatmap(std::shared_ptr<const Heatmap> map, int64_t slice) {
    m_map = std::move(map);
    m_slice = slice;
    // The smallest legible cells: a buffer too big for the panel scrolls instead of being cut.
    setMinimumSize(m_map ? sizeHint() : QSize(0, 0));
    updateGeometry();
    update();
}

int64_t HeatmapGrid::rows() const {
    return m_map && m_map->shape.size() >= 2 ? m_map->shape[m_map->shape.size() - 2] : 1;
}

int64_t HeatmapGrid::columns() const {
    return m_map && !m_map->shape.empty() ? m_map->shape.back() : 1;
}

qreal HeatmapGrid::cellSize() const {
    // As big as the panel allows, within readable bounds; a big buffer scrolls.
    const qreal fit = std::min((width() - 2 * kMargin) / qreal(columns()),
                               (height() - 2 * kMargin) / qreal(rows()));
    return std::clamp(fit, kSmallestCell, kLargestCell);
}

QSize HeatmapGrid::sizeHint() const {
    return QSize(int(columns() * kSmallestCell) + 2 * kMargin,
                 int(rows() * kSmallestCell) + 2 * kMargin);
}

int64_t HeatmapGrid::cellAt(const QPoint& pos) const {
    if (!m_map)
        return -1;
    const qreal size = cellSize();
    const int64_t column = int64_t(std::floor((pos.x() - kMargin) / size));
    const int64_t row = int64_t(std::floor((pos.y() - kMargin) / size));
    if (column < 0 || row < 0 || column >= columns() || row >= rows())
        return -1;
    const int64_t cell = m_slice * sliceSize(*m_map) + row * columns() + column;
    return cell < int64_t(m_map->readers.size()) ? cell : -1;
}

QPoint HeatmapGrid::cellCenter(int64_t row, int64_t column) const {
    const qreal size = cellSize();
    return QPoint(int(kMargin + (column + 0.5) * size), int(kMargin + (row + 0.5) * size));
}

void HeatmapGrid::paintEvent(QPaintEvent*) {
    if (!m_map)
        return;
    QPainter painter(this);
    const qreal size = cellSize();
    const QPen computed(QColor(0x55, 0x55, 0x55), 1);
    const QPen never(theme::ink(QColor(0xaa, 0xaa, 0xaa)), 1, Qt::DashLine);
    for (int64_t r = 0; r < rows(); ++r)
        for (int64_t c = 0; c < columns(); ++c) {
            const int64_t cell = m_slice * sliceSize(*m_map) + r * columns() + c;
            if (cell >= int64_t(m_map->readers.size()))
                return;
            const QRectF box(kMargin + c * size, kMargin + r * size, size, size);
            painter.fillRect(box, QColor(QLatin1String(m_map->cellColor(cell))));
            painter.setPen(m_map->written[size_t(cell)] ? computed : never);
            painter.drawRect(box.adjusted(0.5, 0.5, -0.5, -0.5));
        }
}

bool HeatmapGrid::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        const int64_t cell = cellAt(help->pos());
        if (cell >= 0)
            QToolTip::showText(help->globalPos(), QString::fromStdString(m_map->describeCell(cell)),
                               this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

HeatmapPanel::HeatmapPanel(QWidget* parent)
    : QWidget(parent), m_status(new QLabel(this)), m_grid(new HeatmapGrid(this)),
      m_slices(new QSlider(Qt::Horizontal, this)), m_sliceLabel(new QLabel(this)),
      m_iterations(new QSlider(Qt::Horizontal, this)), m_iterationLabel(new QLabel(this)),
      m_stepLink(new QLabel(this)), m_legend(new QLabel(this)) {
    m_jobs.setBackground(true); // read after the graphs: they go first on few cores
    m_status->setWordWrap(true);
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setWordWrap(true);
    m_slices->setToolTip(tr("The slice of the leading dimensions shown"));
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_grid);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* sliceRow = new QHBoxLayout;
    sliceRow->addWidget(m_sliceLabel);
    sliceRow->addWidget(m_slices, 1);
    m_iterations->setToolTip(tr("Show one iteration of the loops around the allocation alone "
                                "(at the left end: every iteration overlaid)"));
    auto* iterationRow = new QHBoxLayout;
    iterationRow->addWidget(m_iterationLabel);
    iterationRow->addWidget(m_iterations, 1);
    m_stepLink->setTextFormat(Qt::RichText);
    m_stepLink->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    connect(m_stepLink, &QLabel::linkActivated, this, [this] {
        const int step = realizeStepOf(m_stage);
        if (step >= 0)
            Q_EMIT stepRequested(step);
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_status);
    layout->addWidget(m_stepLink);
    layout->addLayout(iterationRow);
    layout->addLayout(sliceRow);
    layout->addWidget(scroll, 1);
    layout->addWidget(m_legend);
    connect(m_slices, &QSlider::valueChanged, this, &HeatmapPanel::showSlice);
    connect(m_iterations, &QSlider::valueChanged, this, &HeatmapPanel::showIteration);
    clear(tr("No analysis yet."));
}

void HeatmapPanel::setAnalysis(std::shared_ptr<const Analysis> analysis) {
    m_analysis = std::move(analysis);
    resetIteration();
    m_stale = true;
    if (isVisible())
        recompute();
}

void HeatmapPanel::showStage(const QString& stage) {
    if (stage == m_stage && !m_stale)
        return;
    m_stage = stage;
    resetIteration();
    m_stale = true;
    if (isVisible())
        recompute();
}

void HeatmapPanel::resetIteration() {
    const QSignalBlocker block(m_iterations);
    m_iterations->setRange(0, 0);
    m_iterations->setValue(0);
}

void HeatmapPanel::showIteration(int iteration) {
    if (iteration != m_iterations->value()) {
        const QSignalBlocker block(m_iterations);
        m_iterations->setValue(iteration);
    }
    m_stale = true;
    if (isVisible())
        recompute();
}

int HeatmapPanel::iteration() const { return m_iterations->value(); }

int HeatmapPanel::realizeStepOf(const QString& stage) const {
    const BoundSteps* steps = m_analysis ? stepsOf(*m_analysis) : nullptr;
    if (!steps)
        return -1;
    for (const BoundStep& step : steps->all())
        if (step.phase == StepPhase::Realize && step.stage.defined() &&
            QString::fromStdString(step.stage->name) == stage)
            return step.id;
    return -1;
}

void HeatmapPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (m_stale)
        recompute();
}

void HeatmapPanel::clear(const QString& status) {
    m_jobs.discard();
    m_map.reset();
    m_grid->setHeatmap(nullptr, 0);
    m_status->setText(status);
    m_legend->clear();
    m_stepLink->clear();
    m_slices->hide();
    m_sliceLabel->hide();
    const bool iterating = m_iterations->maximum() > 0; // kept while another iteration runs
    m_iterations->setVisible(iterating);
    m_iterationLabel->setVisible(iterating);
}

void HeatmapPanel::recompute() {
    m_stale = false;
    if (!m_analysis || !m_analysis->program.defined() || !m_analysis->lowered)
        return clear(tr("No heatmap: the script has no lowered program."));
    if (m_stage.isEmpty())
        return clear(tr("Select a stage to see which elements of its buffer each consumer reads."));
    HeatmapOptions options;
    options.rules = m_analysis->options.rules;
    options.args = m_analysis->program.args;
    if (iteration() > 0) { // one iteration alone: a run of its own
        options.iteration = iteration() - 1;
        clear(tr("Running the program to see iteration %1 of %2…").arg(iteration()).arg(m_stage));
        m_jobs.start<Made>(
            [schedule = m_analysis->program.schedule, stage = m_stage.toStdString(), options] {
                Made made;
                made.map = heatmapOf(schedule, stage, options);
                return made;
            },
            [this](JobOutcome<Made> outcome) { display(std::move(outcome)); });
        return;
    }
    // The program runs once per analysis; another stage of it is read from the same run.
    const std::shared_ptr<const HeatmapRun> cached = m_runOf == m_analysis ? m_run : nullptr;
    clear(cached ? tr("Reading the run for %1…").arg(m_stage)
                 : tr("Running the program to see who reads %1…").arg(m_stage));
    m_jobs.start<Made>(
        [schedule = m_analysis->program.schedule, stage = m_stage.toStdString(), options, cached] {
            checkHeatmapStage(schedule, stage);
            Made made;
            made.run = cached ? cached : std::make_shared<const HeatmapRun>(schedule, options);
            made.map = made.run->heatmap(stage);
            return made;
        },
        [this, analysis = m_analysis](JobOutcome<Made> outcome) {
            if (outcome.value && analysis == m_analysis) {
                m_run = outcome.value->run;
                m_runOf = analysis;
            }
            display(std::move(outcome));
        });
}

void HeatmapPanel::display(JobOutcome<Made> outcome) {
    if (!outcome.value) {
        clear(tr("No heatmap of %1: %2").arg(m_stage, outcome.error));
        Q_EMIT heatmapShown();
        return;
    }
    m_map = std::make_shared<const Heatmap>(std::move(outcome.value->map));
    const Heatmap& map = *m_map;
    QStringList shape;
    for (int64_t extent : map.shape)
        shape << QString::number(extent);
    QString status =
        tr("%1: %2 elements (%3) under %4")
            .arg(QString::fromStdString(map.buffer))
            .arg(map.allocated)
            .arg(shape.join(QStringLiteral(" × ")), QString::fromLatin1(boundRulesName(map.rules)));
    if (map.isArgument)
        status += tr(", an argument of the kernel: its elements come from the caller (an input "
                     "is not computed here)");
    if (map.entries > 1 && map.iteration >= 0)
        status += tr(", allocated %1 times; iteration %2 alone computes %3 and reads %4")
                      .arg(map.entries)
                      .arg(map.iteration + 1)
                      .arg(map.entryComputed)
                      .arg(map.entryRead);
    else if (map.entries > 1)
        status += tr(", allocated %1 times: one entry computes up to %2 and reads up to %3; "
                     "the grid overlays them all")
                      .arg(map.entries)
                      .arg(map.entryComputed)
                      .arg(map.entryRead);
    m_status->setText(status);
    const int step = realizeStepOf(m_stage);
    if (step >= 0)
        m_stepLink->setText(
            tr("<a href=\"step\">How InferBound derived this region: step %1</a>").arg(step));
    {
        const QSignalBlocker block(m_iterations);
        m_iterations->setRange(0,
                               map.entries > 1 ? int(std::min<int64_t>(map.entries, INT_MAX)) : 0);
    }
    m_iterations->setVisible(map.entries > 1);
    m_iterationLabel->setVisible(map.entries > 1);
    m_iterationLabel->setText(iteration() > 0
                                  ? tr("iteration %1 of %2").arg(iteration()).arg(map.entries)
                                  : tr("all %1 iterations").arg(map.entries));
    QStringList legend;
    for (size_t k = 0; k < map.consumers.size(); ++k)
        legend << swatch(Heatmap::consumerColor(k)) +
                      tr(" read by %1: %2")
                          .arg(QString::fromStdString(map.consumers[k]).toHtmlEscaped())
                          .arg(map.readBy[k]);
    legend << swatch(Heatmap::kSeveralColor) + tr(" read by several: %1").arg(map.readByMany);
    legend << swatch(Heatmap::kUnreadColor) +
                  tr(" read by no consumer: %1 of %2").arg(map.unread).arg(map.allocated);
    legend << tr("computed: %1 (dashed: never computed)").arg(map.computed);
    m_legend->setText(legend.join(QStringLiteral(" &nbsp; ")));
    const int64_t slices = std::max<int64_t>(1, map.allocated / sliceSize(map));
    m_slices->setRange(0, int(slices - 1));
    m_slices->setValue(0);
    m_slices->setVisible(slices > 1);
    m_sliceLabel->setVisible(slices > 1);
    showSlice(0);
    Q_EMIT heatmapShown();
}

void HeatmapPanel::showSlice(int slice) {
    if (!m_map)
        return;
    m_grid->setHeatmap(m_map, slice);
    m_sliceLabel->setText(tr("slice %1 of %2").arg(slice + 1).arg(m_slices->maximum() + 1));
}

QString HeatmapPanel::statusText() const { return m_status->text(); }

QString HeatmapPanel::legendText() const {
    QString text = m_legend->text();
    text.replace(QStringLiteral("&nbsp;"), QStringLiteral(" "));
    text.remove(QRegularExpression(QStringLiteral("<[^>]*>[^<]*</span>")));
    return text.simplified();
}

} // namespace bs::gui
