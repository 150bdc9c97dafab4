#include "panels/AnimationPanel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QImage>
#include <QLabel>
#include <QPainter>
#include <QScrollArea>
#include <QSlider>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>

#include <array>
#include <cmath>
#include <tuple>

namespace bs::gui {

namespace {

constexpr int kMargin = 6;
constexpr int kGap = 18; ///< between grids
constexpr qreal kLargestCell = 24;
constexpr qreal kGridHeight = 260; ///< the most height a grid takes before its cells shrink
constexpr int kTickMs = 40;
constexpr int kPaletteBlocks = AnimationPlayer::kBlockColors;

/// A cell's colour as AnimationPlayer::cellColor gives it, looked up once per kind of cell.
QRgb rgbOf(AnimatedRole role, uint8_t bits, int32_t block) {
    static std::array<std::array<std::array<QRgb, kPaletteBlocks + 1>, 64>, 3> table{};
    static std::array<std::array<std::array<bool, kPaletteBlocks + 1>, 64>, 3> known{};
    const int b = block < 0 ? 0 : 1 + block % kPaletteBlocks;
    const auto r = size_t(role);
    const size_t key = bits & 63;
    if (!known[r][key][size_t(b)]) {
        table[r][key][size_t(b)] =
            QColor(QString::fromStdString(AnimationPlayer::cellColor(role, uint8_t(key), b - 1)))
                .rgb();
        known[r][key][size_t(b)] = true;
    }
    return table[r][key][size_t(b)];
}

QString roleText(AnimatedRole role) {
    switch (role) {
    case AnimatedRole::Output:
        return AnimationView::tr("output");
    case AnimatedRole::Intermediate:
        return AnimationView::tr("allocated");
    case AnimatedRole::Input:
        return AnimationView::tr("input");
    }
    return QString();
}

QString swatch(const std::string& color, const QString& text) {
    // A grey frame, so that the near-white swatches show on any window colour.
    return QStringLiteral("<span style=\"background:#999999\">&nbsp;<span style=\"background:%1; "
                          "color:%1\">&#9632;&#9632;</span>&nbsp;</span> %2")
        .arg(QString::fromStdString(color), text);
}

} // namespace

// The grids ---------------------------------------------------------------------------------

AnimationView::AnimationView(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

void AnimationView::setPlayer(const AnimationPlayer* player) {
    const bool relayout = player != m_player;
    m_player = player;
    if (relayout) {
        layOut(width(), &m_placed);
        updateGeometry();
    }
    update();
}

QString AnimationView::titleOf(size_t buffer) const {
    const AnimatedBuffer& b = m_player->animation().buffers()[buffer];
    QStringList shape;
    for (int64_t extent : b.shape)
        shape << QString::number(extent);
    QString title =
        tr("%1 (%2, %3)")
            .arg(QString::fromStdString(b.name), roleText(b.role), shape.join(QStringLiteral("×")));
    if (b.role == AnimatedRole::Intermediate)
        title += tr(": %1 allocated, %2 live")
                     .arg(m_player->allocatedNow(buffer))
                     .arg(m_player->liveNow(buffer));
    return title;
}

int AnimationView::layOut(int width, std::vector<Placed>* placed) const {
    placed->clear();
    if (!m_player)
        return 0;
    const QFontMetrics metrics = fontMetrics();
    const int lineHeight = metrics.height();
    const int available = std::max(60, width - 2 * kMargin);
    int x = kMargin;
    int y = kMargin;
    int rowHeight = 0;
    const auto& buffers = m_player->animation().buffers();
    for (size_t b = 0; b < buffers.size(); ++b) {
        Placed p;
        const AnimatedBuffer& buffer = buffers[b];
        std::tie(p.rows, p.columns) = buffer.drawSize();
        p.rows = std::max<int64_t>(1, p.rows);
        p.columns = std::max<int64_t>(1, p.columns);
        p.cell = std::clamp(std::min(available / qreal(p.columns), kGridHeight / qreal(p.rows)),
                            qreal(0.25), kLargestCell);
        const qreal gridWidth = p.cell * qreal(p.columns);
        const qreal gridHeight = p.cell * qreal(p.rows);
        const int titleWidth = metrics.horizontalAdvance(titleOf(b));
        const int boxWidth = int(std::ceil(std::max<qreal>(gridWidth, qreal(titleWidth))));
        const int boxHeight = lineHeight + 4 + int(std::ceil(gridHeight));
        if (x > kMargin && x + boxWidth > kMargin + available) { // wrap
            x = kMargin;
            y += rowHeight + kGap;
            rowHeight = 0;
        }
        p.title = QRect(x, y, boxWidth, lineHeight);
        p.grid = QRectF(x, y + lineHeight + 4, gridWidth, gridHeight);
        placed->push_back(p);
        x += boxWidth + kGap;
        rowHeight = std::max(rowHeight, boxHeight);
    }
    return y + rowHeight + kMargin;
}

QSize AnimationView::sizeHint() const { return QSize(480, heightForWidth(480)); }

int AnimationView::heightForWidth(int width) const {
    std::vector<Placed> placed;
    return layOut(width, &placed);
}

void AnimationView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    layOut(width(), &m_placed);
}

std::pair<int, int64_t> AnimationView::cellAt(const QPoint& pos) const {
    for (size_t b = 0; b < m_placed.size(); ++b) {
        const Placed& p = m_placed[b];
        if (!p.grid.contains(pos))
            continue;
        const auto column = int64_t((pos.x() - p.grid.left()) / p.cell);
        const auto row = int64_t((pos.y() - p.grid.top()) / p.cell);
        const int64_t cell = m_player->animation().buffers()[b].cellDrawnAt(row, column);
        if (cell >= 0)
            return {int(b), cell};
    }
    return {-1, -1};
}

QPoint AnimationView::cellCenter(int buffer, int64_t cell) const {
    const Placed& p = m_placed[size_t(buffer)];
    const auto [row, column] = m_player->animation().buffers()[size_t(buffer)].drawPosition(cell);
    return QPointF(p.grid.left() + (qreal(column) + 0.5) * p.cell,
                   p.grid.top() + (qreal(row) + 0.5) * p.cell)
        .toPoint();
}

void AnimationView::paintEvent(QPaintEvent*) {
    if (!m_player)
        return;
    QPainter painter(this);
    const auto& buffers = m_player->animation().buffers();
    for (size_t b = 0; b < buffers.size() && b < m_placed.size(); ++b) {
        const Placed& p = m_placed[b];
        const AnimatedBuffer& buffer = buffers[b];
        painter.setPen(palette().color(QPalette::WindowText));
        painter.drawText(p.title, Qt::AlignLeft | Qt::AlignVCenter, titleOf(b));
        // One pixel per cell, scaled without smoothing: a 512×512 output costs one image.
        QImage image(int(p.columns), int(p.rows), QImage::Format_RGB32);
        image.fill(palette().color(QPalette::Window)); // the gaps between tiles
        const std::vector<uint8_t>& cells = m_player->cells(b);
        std::vector<int64_t> now; // cells this step computes
        for (int64_t cell = 0; cell < buffer.cells(); ++cell) {
            const auto [r, c] = buffer.drawPosition(cell);
            image.setPixel(int(c), int(r),
                           rgbOf(buffer.role, cells[size_t(cell)], m_player->computedBy(b, cell)));
            if (cells[size_t(cell)] & kCellWrittenNow)
                now.push_back(cell);
        }
        painter.drawImage(p.grid, image);
        if (p.cell >= 6) { // the cells' borders, where they are big enough to tell apart
            painter.setPen(QPen(QColor(0x99, 0x99, 0x99), 0.5));
            for (int64_t r = 0; r <= p.rows; ++r)
                painter.drawLine(QPointF(p.grid.left(), p.grid.top() + qreal(r) * p.cell),
                                 QPointF(p.grid.right(), p.grid.top() + qreal(r) * p.cell));
            for (int64_t c = 0; c <= p.columns; ++c)
                painter.drawLine(QPointF(p.grid.left() + qreal(c) * p.cell, p.grid.top()),
                                 QPointF(p.grid.left() + qreal(c) * p.cell, p.grid.bottom()));
        } else {
            painter.setPen(QPen(QColor(0x99, 0x99, 0x99), 1));
            painter.drawRect(p.grid);
        }
        // A cell too small to see is ringed where this step computes.
        if (p.cell < 6)
            for (int64_t cell : now) {
                painter.setPen(QPen(QColor(QString::fromStdString(AnimationPlayer::cellColor(
                                        buffer.role, kCellWrittenNow, -1))),
                                    2));
                painter.setBrush(Qt::NoBrush);
                painter.drawEllipse(QPointF(cellCenter(int(b), cell)), 6, 6);
            }
    }
}

bool AnimationView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip && m_player) {
        const auto* help = static_cast<QHelpEvent*>(event);
        const auto [buffer, cell] = cellAt(help->pos());
        if (buffer >= 0)
            QToolTip::showText(help->globalPos(),
                               QString::fromStdString(m_player->describeCell(size_t(buffer), cell)),
                               this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

// The panel ---------------------------------------------------------------------------------

AnimationPanel::AnimationPanel(QWidget* parent)
    : QWidget(parent), m_timer(new QTimer(this)), m_status(new QLabel(this)),
      m_first(new QToolButton(this)), m_back(new QToolButton(this)), m_play(new QToolButton(this)),
      m_forward(new QToolButton(this)), m_last(new QToolButton(this)),
      m_timeline(new QSlider(Qt::Horizontal, this)), m_speed(new QComboBox(this)),
      m_view(new AnimationView(this)), m_legend(new QLabel(this)) {
    m_jobs.setBackground(true); // read after the graphs: they go first on few cores
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setWordWrap(true);
    QStyle* s = style();
    auto setUp = [&](QToolButton* button, QStyle::StandardPixmap icon, const QString& tip) {
        button->setIcon(s->standardIcon(icon));
        button->setToolTip(tip);
        button->setAutoRaise(true);
    };
    setUp(m_first, QStyle::SP_MediaSkipBackward, tr("Back to the start"));
    setUp(m_back, QStyle::SP_MediaSeekBackward, tr("One step back"));
    setUp(m_play, QStyle::SP_MediaPlay, tr("Play (pause when playing)"));
    setUp(m_forward, QStyle::SP_MediaSeekForward, tr("One step forward"));
    setUp(m_last, QStyle::SP_MediaSkipForward, tr("To the last step"));
    m_timeline->setToolTip(tr("The step shown: drag to seek"));
    for (int speed : {1, 10, 100, 1000, 10000, 100000})
        m_speed->addItem(tr("%L1 steps/s").arg(speed), speed);
    m_speed->setToolTip(tr("Steps played per second"));
    auto* controls = new QHBoxLayout;
    for (QToolButton* button : {m_first, m_back, m_play, m_forward, m_last})
        controls->addWidget(button);
    controls->addWidget(m_timeline, 1);
    controls->addWidget(m_speed);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_view);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(controls);
    layout->addWidget(m_status);
    layout->addWidget(scroll, 1);
    layout->addWidget(m_legend);
    QStringList legend;
    for (const auto& [color, words] : AnimationPlayer::legend())
        legend << swatch(color, QString::fromStdString(words).toHtmlEscaped());
    m_legend->setText(legend.join(QStringLiteral(" &nbsp; ")));

    m_timer->setInterval(kTickMs);
    connect(m_timer, &QTimer::timeout, this, &AnimationPanel::tick);
    connect(m_play, &QToolButton::clicked, this, [this] { isPlaying() ? pause() : play(); });
    connect(m_first, &QToolButton::clicked, this, [this] { seek(-1); });
    connect(m_back, &QToolButton::clicked, this, &AnimationPanel::stepBack);
    connect(m_forward, &QToolButton::clicked, this, &AnimationPanel::stepForward);
    connect(m_last, &QToolButton::clicked, this, [this] {
        if (m_player)
            seek(m_player->animation().steps() - 1);
    });
    connect(m_timeline, &QSlider::valueChanged, this, [this](int value) {
        if (m_player && value - 1 != m_player->step())
            seek(value - 1);
    });
    connect(m_speed, &QComboBox::activated, this, [this] { m_speedChosen = true; });
    clear(tr("No analysis yet."));
}

void AnimationPanel::setAnalysis(std::shared_ptr<const Analysis> analysis) {
    m_analysis = std::move(analysis);
    m_stale = true;
    if (isVisible())
        record();
}

void AnimationPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (m_stale)
        record();
}

void AnimationPanel::hideEvent(QHideEvent* event) {
    pause(); // nothing plays where no one watches
    QWidget::hideEvent(event);
}

void AnimationPanel::clear(const QString& status) {
    m_jobs.discard();
    pause();
    m_view->setPlayer(nullptr);
    m_player.reset();
    m_status->setText(status);
    updateControls();
}

void AnimationPanel::record() {
    m_stale = false;
    if (!m_analysis || !m_analysis->program.defined() || !m_analysis->lowered)
        return clear(tr("Nothing to play: the script has no lowered program."));
    const int64_t resumeAt = m_player ? m_player->step() : -1;
    clear(tr("Running the program to record its loop nest…"));
    AnimationOptions options;
    options.rules = m_analysis->options.rules;
    options.args = m_analysis->program.args;
    m_jobs.start<std::shared_ptr<const LoopAnimation>>(
        [schedule = m_analysis->program.schedule, options] {
            return std::make_shared<const LoopAnimation>(LoopAnimation::record(schedule, options));
        },
        [this, resumeAt](JobOutcome<std::shared_ptr<const LoopAnimation>> outcome) {
            display(std::move(outcome));
            // An edit keeps the place: the same step of the new program.
            if (m_player && resumeAt >= 0)
                seek(resumeAt);
        });
}

void AnimationPanel::display(JobOutcome<std::shared_ptr<const LoopAnimation>> outcome) {
    if (!outcome.value) {
        clear(tr("Cannot play the loop nest: %1").arg(outcome.error));
        Q_EMIT animationShown();
        return;
    }
    const std::shared_ptr<const LoopAnimation>& animation = *outcome.value;
    if (animation->steps() == 0) {
        clear(tr("The program stores nothing: there is nothing to play."));
        Q_EMIT animationShown();
        return;
    }
    m_player = std::make_unique<AnimationPlayer>(animation);
    if (!m_speedChosen) { // about 20 seconds for the whole run
        const double wanted = std::max(1.0, double(animation->steps()) / 20);
        int best = 0;
        for (int k = 0; k < m_speed->count(); ++k)
            if (std::abs(std::log(m_speed->itemData(k).toDouble() / wanted)) <
                std::abs(std::log(m_speed->itemData(best).toDouble() / wanted)))
                best = k;
        m_speed->setCurrentIndex(best);
    }
    m_view->setPlayer(m_player.get());
    showFrame();
    Q_EMIT animationShown();
}

void AnimationPanel::updateControls() {
    const bool has = m_player != nullptr;
    for (QWidget* w :
         std::initializer_list<QWidget*>{m_first, m_back, m_play, m_forward, m_last, m_timeline})
        w->setEnabled(has);
    const QSignalBlocker block(m_timeline);
    m_timeline->setRange(0, has ? int(m_player->animation().steps()) : 0);
    m_timeline->setValue(has ? int(m_player->step() + 1) : 0);
    m_play->setIcon(
        style()->standardIcon(isPlaying() ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
}

void AnimationPanel::showFrame() {
    if (!m_player)
        return;
    const LoopAnimation& animation = m_player->animation();
    QString status =
        m_player->step() < 0
            ? (animation.steps() == 1
                   ? tr("Before the first step: 1 step recorded")
                   : tr("Before the first step: %L1 steps recorded").arg(animation.steps()))
            : QString::fromStdString(animation.describeStep(m_player->step()));
    if (animation.truncated())
        status +=
            tr(" (the run is longer: its first %L1 steps are recorded)").arg(animation.steps());
    if (animation.flat())
        status += tr(". The kernel waits at barriers, so it plays as it runs on a GPU, in its "
                     "final form: a buffer it allocates is drawn by its own indices, not at its "
                     "tensor's coordinates");
    m_status->setText(status);
    m_view->setPlayer(m_player.get());
    updateControls();
    Q_EMIT frameChanged(m_player->step());
}

void AnimationPanel::seek(int64_t step) {
    if (!m_player)
        return;
    m_player->seek(step);
    showFrame();
}

void AnimationPanel::stepForward() {
    pause();
    if (m_player)
        seek(m_player->step() + 1);
}

void AnimationPanel::stepBack() {
    pause();
    if (m_player)
        seek(m_player->step() - 1);
}

void AnimationPanel::play() {
    if (!m_player)
        return;
    if (m_player->step() >= m_player->animation().steps() - 1)
        m_player->seek(-1); // from the start again
    m_pending = 0;
    m_clock.start();
    m_timer->start();
    updateControls();
}

void AnimationPanel::pause() {
    m_timer->stop();
    updateControls();
}

bool AnimationPanel::isPlaying() const { return m_timer->isActive(); }

void AnimationPanel::setSpeed(int stepsPerSecond) {
    int best = 0;
    for (int k = 0; k < m_speed->count(); ++k)
        if (m_speed->itemData(k).toInt() <= stepsPerSecond)
            best = k;
    m_speed->setCurrentIndex(best);
    m_speedChosen = true;
}

int AnimationPanel::speed() const { return m_speed->currentData().toInt(); }

void AnimationPanel::tick() {
    if (!m_player)
        return pause();
    // Steps owed by the clock, so the speed holds whatever the timer's jitter.
    m_pending += double(speed()) * double(m_clock.restart()) / 1000.0;
    const auto steps = int64_t(m_pending);
    if (steps == 0)
        return;
    m_pending -= double(steps);
    const int64_t last = m_player->animation().steps() - 1;
    m_player->seek(std::min(last, m_player->step() + steps));
    if (m_player->step() >= last)
        m_timer->stop();
    showFrame();
}

QString AnimationPanel::statusText() const { return m_status->text(); }

} // namespace bs::gui
