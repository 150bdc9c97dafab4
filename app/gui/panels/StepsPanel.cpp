#include "panels/StepsPanel.h"

#include "models/StepText.h"
#include "models/StepTreeModel.h"
#include "views/Highlighters.h"
#include "views/Theme.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSlider>
#include <QSplitter>
#include <QStyle>
#include <QTextBrowser>
#include <QToolButton>
#include <QTreeView>
#include <QUrl>
#include <QVBoxLayout>

namespace bs::gui {

namespace {

const QLatin1StringView kStepScheme("step");

QAction* makeAction(QObject* parent, QStyle::StandardPixmap icon, const QString& text,
                    const QKeySequence& key) {
    auto* action = new QAction(QApplication::style()->standardIcon(icon), text, parent);
    action->setShortcut(key);
    action->setToolTip(QStringLiteral("%1 (%2)").arg(text, key.toString(QKeySequence::NativeText)));
    return action;
}

QToolButton* toolButton(QAction* action, QWidget* parent) {
    auto* button = new QToolButton(parent);
    button->setDefaultAction(action);
    button->setAutoRaise(true);
    return button;
}

} // namespace

StepsPanel::StepsPanel(QWidget* parent)
    : QWidget(parent), m_model(new StepTreeModel(this)), m_tree(new QTreeView(this)),
      m_details(new QTextBrowser(this)) {
    createActions();
    // The details' HTML carries the caption colour: written again after a theme change.
    connect(theme::notifier(), &theme::Notifier::changed, this, [this] { showStep(m_step); });
    m_timer.setInterval(kPlayIntervals[1]);
    connect(&m_timer, &QTimer::timeout, this, &StepsPanel::onTick);

    m_tree->setModel(m_model);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tree->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tree->setIndentation(14);
    m_tree->header()->setStretchLastSection(true);
    // Group and section titles span the row; the step column fits `#123 bound-check`.
    m_tree->header()->setSectionResizeMode(StepTreeModel::StepColumn, QHeaderView::Interactive);
    m_tree->header()->resizeSection(
        StepTreeModel::StepColumn,
        2 * m_tree->indentation() + 24 +
            m_tree->fontMetrics().horizontalAdvance(QStringLiteral("#888 bound-check")));
    m_tree->header()->resizeSection(
        StepTreeModel::RuleColumn,
        12 + m_tree->fontMetrics().horizontalAdvance(QStringLiteral("split-evaluated")));
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) { onTreeCurrentChanged(current); });

    m_details->setOpenLinks(false);
    m_details->setFrameShape(QFrame::NoFrame);
    m_details->document()->setDefaultStyleSheet(
        QStringLiteral("code { font-family: '%1'; }").arg(codeFont().family()));
    connect(m_details, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.scheme() == kStepScheme)
            chooseStep(url.path().toInt());
    });

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->setChildrenCollapsible(false);
    split->addWidget(m_tree);
    split->addWidget(m_details);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(createControls());
    layout->addWidget(split, 1);
    updateControls();
}

void StepsPanel::createActions() {
    m_firstAction = makeAction(this, QStyle::SP_MediaSkipBackward, tr("First Step"),
                               QKeySequence(Qt::ALT | Qt::Key_Home));
    m_previousAction = makeAction(this, QStyle::SP_MediaSeekBackward, tr("Previous Step"),
                                  QKeySequence(Qt::ALT | Qt::Key_Left));
    m_playAction =
        makeAction(this, QStyle::SP_MediaPlay, tr("Play Steps"), QKeySequence(Qt::ALT | Qt::Key_P));
    m_nextAction = makeAction(this, QStyle::SP_MediaSeekForward, tr("Next Step"),
                              QKeySequence(Qt::ALT | Qt::Key_Right));
    m_lastAction = makeAction(this, QStyle::SP_MediaSkipForward, tr("Last Step"),
                              QKeySequence(Qt::ALT | Qt::Key_End));
    m_playAction->setCheckable(true);
    connect(m_firstAction, &QAction::triggered, this, &StepsPanel::first);
    connect(m_previousAction, &QAction::triggered, this, &StepsPanel::previous);
    connect(m_playAction, &QAction::toggled, this, &StepsPanel::setPlaying);
    connect(m_nextAction, &QAction::triggered, this, &StepsPanel::next);
    connect(m_lastAction, &QAction::triggered, this, &StepsPanel::last);
}

QList<QAction*> StepsPanel::actions() const {
    return {m_firstAction, m_previousAction, m_playAction, m_nextAction, m_lastAction};
}

QWidget* StepsPanel::createControls() {
    auto* bar = new QWidget(this);
    auto* row = new QHBoxLayout(bar);
    row->setContentsMargins(4, 2, 6, 2);
    row->setSpacing(2);
    m_play = toolButton(m_playAction, bar);
    row->addWidget(toolButton(m_firstAction, bar));
    row->addWidget(toolButton(m_previousAction, bar));
    row->addWidget(m_play);
    row->addWidget(toolButton(m_nextAction, bar));
    row->addWidget(toolButton(m_lastAction, bar));
    m_slider = new QSlider(Qt::Horizontal, bar);
    m_slider->setPageStep(5);
    m_slider->setToolTip(tr("Drag through the steps of bound inference"));
    connect(m_slider, &QSlider::valueChanged, this, [this](int value) {
        if (!m_updating)
            chooseStep(value);
    });
    row->addSpacing(6);
    row->addWidget(m_slider, 1);
    m_position = new QLabel(bar);
    m_position->setMinimumWidth(
        m_position->fontMetrics().horizontalAdvance(QStringLiteral("step 9999 of 9999 ")));
    m_position->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    row->addWidget(m_position);
    m_speed = new QComboBox(bar);
    for (int ms : kPlayIntervals)
        m_speed->addItem(tr("%1 s / step").arg(ms / 1000.0), ms);
    m_speed->setCurrentIndex(1);
    m_speed->setToolTip(tr("How fast Play moves through the steps"));
    connect(m_speed, &QComboBox::currentIndexChanged, this,
            [this] { m_timer.setInterval(m_speed->currentData().toInt()); });
    row->addWidget(m_speed);
    return bar;
}

void StepsPanel::setAnalysis(std::shared_ptr<const Analysis> analysis) {
    m_analysis = std::move(analysis);
    m_updating = true;
    m_model->setAnalysis(m_analysis.get());
    for (int group = 0; group < m_model->rowCount(); ++group) {
        const QModelIndex groupIndex = m_model->index(group, 0);
        m_tree->setFirstColumnSpanned(group, QModelIndex(), true);
        for (int section = 0; section < m_model->rowCount(groupIndex); ++section)
            m_tree->setFirstColumnSpanned(section, groupIndex, true);
    }
    m_tree->expandAll();
    m_slider->setRange(0, qMax(0, m_model->stepCount() - 1));
    m_updating = false;
    m_step = -1;
    if (m_model->stepCount() == 0)
        setPlaying(false);
    showStep(-1);
}

int StepsPanel::stepCount() const { return m_model->stepCount(); }

void StepsPanel::showStep(int id) {
    m_step = id >= 0 && id < stepCount() ? id : -1;
    m_updating = true;
    const QModelIndex index = m_model->indexOfStep(m_step);
    if (index.isValid()) {
        m_tree->setCurrentIndex(index);
        m_tree->scrollTo(index);
    } else {
        m_tree->setCurrentIndex(QModelIndex());
    }
    m_slider->setValue(qMax(0, m_step));
    m_updating = false;
    if (m_step >= 0 && m_analysis)
        m_details->setHtml(stepDetailsHtml(*m_analysis, m_step));
    else
        m_details->setHtml((stepCount() == 0 ? tr("<p style=\"color:%1\">No steps: the "
                                                  "program has not been bounded.</p>")
                                             : tr("<p style=\"color:%1\">Choose a step, or "
                                                  "press Play.</p>"))
                               .arg(theme::captionInk().name()));
    updateControls();
}

QString StepsPanel::detailsText() const { return m_details->toPlainText(); }

void StepsPanel::chooseStep(int id) {
    if (id >= 0 && id < stepCount() && id != m_step)
        Q_EMIT stepChosen(id);
}

void StepsPanel::first() { chooseStep(0); }

void StepsPanel::previous() { chooseStep(m_step < 0 ? 0 : m_step - 1); }

void StepsPanel::next() { chooseStep(m_step + 1); }

void StepsPanel::last() { chooseStep(stepCount() - 1); }

void StepsPanel::setPlaying(bool playing) {
    playing = playing && stepCount() > 0;
    if (playing && m_step >= stepCount() - 1)
        first(); // Play at the end starts again
    if (playing)
        m_timer.start();
    else
        m_timer.stop();
    const QSignalBlocker blocker(m_playAction);
    m_playAction->setChecked(playing);
    m_playAction->setIcon(
        style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    m_playAction->setText(playing ? tr("Pause Steps") : tr("Play Steps"));
}

void StepsPanel::setPlayInterval(int ms) {
    const int index = m_speed->findData(ms);
    if (index >= 0)
        m_speed->setCurrentIndex(index);
    m_timer.setInterval(ms);
}

void StepsPanel::onTreeCurrentChanged(const QModelIndex& current) {
    if (!m_updating && current.isValid())
        chooseStep(m_model->stepAt(current));
}

void StepsPanel::onTick() {
    if (m_step + 1 >= stepCount()) {
        setPlaying(false);
        return;
    }
    next();
}

void StepsPanel::updateControls() {
    const int count = stepCount();
    m_firstAction->setEnabled(count > 0 && m_step != 0);
    m_previousAction->setEnabled(count > 0 && m_step != 0);
    m_nextAction->setEnabled(count > 0 && m_step < count - 1);
    m_lastAction->setEnabled(count > 0 && m_step < count - 1);
    m_playAction->setEnabled(count > 0);
    m_slider->setEnabled(count > 0);
    m_position->setText(m_step >= 0 ? tr("step %1 of %2").arg(m_step).arg(count - 1)
                                    : tr("%n step(s)", nullptr, count));
}

} // namespace bs::gui
