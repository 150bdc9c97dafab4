#include "AppOptions.h"

#include "MainWindow.h"
#include "document/ScriptDocument.h"
#include "edit/ScheduleTools.h"
#include "models/GraphModels.h"
#include "models/StageQueries.h"
#include "models/StepOutline.h"
#include "panels/AnimationPanel.h"
#include "panels/CodePanel.h"
#include "panels/HeatmapPanel.h"
#include "panels/IrPanel.h"
#include "panels/RunPanel.h"
#include "steps/StepTools.h"
#include "views/Theme.h"

#include <QApplication>
#include <QComboBox>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QEventLoop>
#include <QHash>
#include <QImage>
#include <QRegularExpression>
#include <QTimer>

#include <cstdio>

namespace bs::gui {

namespace {

constexpr int kScreenshotTimeoutMs = 60000;

bool parseSize(const QString& text, QSize& size) {
    const QRegularExpressionMatch m =
        QRegularExpression(QStringLiteral("^(\\d+)x(\\d+)$")).match(text);
    if (!m.hasMatch())
        return false;
    size = QSize(m.captured(1).toInt(), m.captured(2).toInt());
    return size.width() >= 400 && size.height() >= 300;
}

} // namespace

/// Opens the options' file or example (or the default example) in `window`.
bool openInitialScript(MainWindow& window, const AppOptions& options, QString* errorMessage) {
    if (!options.file.isEmpty())
        return window.openFile(options.file, errorMessage);
    if (!options.example.isEmpty())
        return window.openExample(options.example, errorMessage);
    return window.openDefaultExample(errorMessage);
}

namespace {

/// Runs the event loop until the document's next analysis ends; false on timeout.
bool waitForAnalysis(ScriptDocument& document) {
    QEventLoop loop;
    QTimer timeout;
    timeout.setSingleShot(true);
    QObject::connect(&timeout, &QTimer::timeout, &loop, [&loop] { loop.exit(1); });
    QObject::connect(&document, &ScriptDocument::analysisFinished, &loop,
                     [&loop] { loop.exit(0); });
    timeout.start(kScreenshotTimeoutMs);
    return loop.exec() == 0;
}

/// Runs the kernel in the Run panel (checked or timed) and waits for the result; false with a
/// message when it could not start or did not end in time.
bool runInPanel(MainWindow& window, bool check) {
    RunPanel* panel = window.scheduleTools()->run();
    QEventLoop loop;
    QTimer timeout;
    timeout.setSingleShot(true);
    QObject::connect(&timeout, &QTimer::timeout, &loop, [&loop] { loop.exit(1); });
    QObject::connect(panel, &RunPanel::runFinished, &loop, [&loop] { loop.exit(0); });
    if (!panel->run(check)) {
        std::fprintf(stderr, "boundscope-gui: cannot run: %s\n", qPrintable(panel->statusText()));
        return false;
    }
    timeout.start(kScreenshotTimeoutMs);
    if (loop.exec() == 0)
        return true;
    std::fprintf(stderr, "boundscope-gui: the run did not finish in time\n");
    return false;
}

/// Raises the Loop Nest dock, waits for its recording and shows step `frame` (from 1); false with
/// a message when there is no such step.
bool showFrame(MainWindow& window, int64_t frame) {
    AnimationPanel* panel = window.scheduleTools()->animation();
    window.dock(QStringLiteral("loopNestDock"))->raise();
    QEventLoop loop;
    QTimer timeout;
    timeout.setSingleShot(true);
    QObject::connect(&timeout, &QTimer::timeout, &loop, [&loop] { loop.exit(1); });
    QObject::connect(panel, &AnimationPanel::animationShown, &loop, [&loop] { loop.exit(0); });
    timeout.start(kScreenshotTimeoutMs);
    if (panel->isRecording())
        loop.exec();
    const AnimationPlayer* player = panel->player();
    if (!player || frame > player->animation().steps()) {
        std::fprintf(
            stderr, "boundscope-gui: no step %lld to show: %s\n", (long long)frame,
            player
                ? qPrintable(QStringLiteral("%1 steps recorded").arg(player->animation().steps()))
                : qPrintable(panel->statusText()));
        return false;
    }
    panel->seek(frame - 1);
    return true;
}

void settle(int ms) {
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

} // namespace

std::optional<AppOptions> parseAppOptions(const QStringList& arguments, QString* errorMessage) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Boundscope: explore TVM-style schedules"));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("file"), QStringLiteral("the script to open"));
    const QCommandLineOption example(QStringLiteral("example"), QStringLiteral("open an example"),
                                     QStringLiteral("name"));
    const QCommandLineOption rules(QStringLiteral("rules"),
                                   QStringLiteral("tvm, tvm-0.5, tight or compact"),
                                   QStringLiteral("rules"));
    const QCommandLineOption shot(QStringLiteral("screenshot"),
                                  QStringLiteral("write a PNG of the window and exit"),
                                  QStringLiteral("out.png"));
    const QCommandLineOption stage(QStringLiteral("select-stage"),
                                   QStringLiteral("stage to select"), QStringLiteral("name"));
    const QCommandLineOption pass(QStringLiteral("pass"), QStringLiteral("IR pass to show"),
                                  QStringLiteral("pass"));
    const QCommandLineOption itervar(QStringLiteral("select-itervar"),
                                     QStringLiteral("IterVar of that stage to select"),
                                     QStringLiteral("name"));
    const QCommandLineOption show(
        QStringLiteral("show"),
        QStringLiteral("docks to raise: %1 (comma-separated)").arg(dockShortNames()),
        QStringLiteral("docks"));
    const QCommandLineOption step(QStringLiteral("step"),
                                  QStringLiteral("step the Step-through to a step: an id, a phase "
                                                 "(pass-up) or a phase and rule prefix "
                                                 "(pass-up:fuse)"),
                                  QStringLiteral("step"));
    const QCommandLineOption size(QStringLiteral("size"), QStringLiteral("window size WxH"),
                                  QStringLiteral("size"));
    const QCommandLineOption run(
        QStringLiteral("run"),
        QStringLiteral("run the kernel before the screenshot: check or time"),
        QStringLiteral("how"));
    const QCommandLineOption theme(QStringLiteral("theme"), QStringLiteral("light or dark"),
                                   QStringLiteral("theme"));
    const QCommandLineOption frame(QStringLiteral("frame"),
                                   QStringLiteral("show step N (from 1) of the loop nest in the "
                                                  "Loop Nest dock"),
                                   QStringLiteral("N"));
    parser.addOptions(
        {example, rules, shot, stage, itervar, pass, show, size, run, step, theme, frame});
    if (!parser.parse(arguments)) {
        *errorMessage = parser.errorText();
        return std::nullopt;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(parser.helpText()), stdout);
        std::exit(0);
    }
    AppOptions options;
    options.file = parser.positionalArguments().value(0);
    options.example = parser.value(example);
    options.screenshot = parser.value(shot);
    options.selectStage = parser.value(stage);
    options.selectIterVar = parser.value(itervar);
    options.showDocks = parser.value(show).split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString& name : std::as_const(options.showDocks)) {
        if (dockObjectName(name).isEmpty()) {
            *errorMessage = QStringLiteral("unknown dock '%1' (%2)").arg(name, dockShortNames());
            return std::nullopt;
        }
    }
    if (parser.isSet(rules) &&
        !(options.rules = parseBoundRules(parser.value(rules).toStdString()))) {
        *errorMessage =
            QStringLiteral("unknown rules '%1' (tvm, tvm-0.5, tight)").arg(parser.value(rules));
        return std::nullopt;
    }
    if (parser.isSet(pass) && !(options.pass = parseLowerPass(parser.value(pass).toStdString()))) {
        *errorMessage = QStringLiteral("unknown pass '%1'").arg(parser.value(pass));
        return std::nullopt;
    }
    if (parser.isSet(run)) {
        const QString how = parser.value(run);
        if (how != QLatin1String("check") && how != QLatin1String("time")) {
            *errorMessage = QStringLiteral("unknown run '%1' (check, time)").arg(how);
            return std::nullopt;
        }
        options.runCheck = how == QLatin1String("check");
    }
    if (parser.isSet(frame)) {
        bool ok = false;
        options.frame = parser.value(frame).toLongLong(&ok);
        if (!ok || options.frame < 1) {
            *errorMessage =
                QStringLiteral("--frame wants a step from 1, got '%1'").arg(parser.value(frame));
            return std::nullopt;
        }
    }
    if (parser.isSet(theme)) {
        const QString name = parser.value(theme);
        if (name != QLatin1String("light") && name != QLatin1String("dark")) {
            *errorMessage = QStringLiteral("unknown theme '%1' (light, dark)").arg(name);
            return std::nullopt;
        }
        options.darkTheme = name == QLatin1String("dark");
    }
    options.step = parser.value(step);
    if (parser.isSet(step) && !isStepSpec(options.step)) {
        *errorMessage = QStringLiteral("bad step '%1' (an id, a phase such as pass-up, or "
                                       "PHASE:RULE such as pass-up:fuse)")
                            .arg(options.step);
        return std::nullopt;
    }
    if (parser.isSet(size) && !parseSize(parser.value(size), options.size)) {
        *errorMessage =
            QStringLiteral("bad size '%1' (WxH, at least 400x300)").arg(parser.value(size));
        return std::nullopt;
    }
    return options;
}

namespace {

/// Every dock by its short name, in the order --help lists them.
const QList<QPair<QString, QString>>& dockNames() {
    static const QList<QPair<QString, QString>> names = {
        {QStringLiteral("dag"), QStringLiteral("stageDagDock")},
        {QStringLiteral("itervar"), QStringLiteral("iterVarDock")},
        {QStringLiteral("attach"), QStringLiteral("attachTreeDock")},
        {QStringLiteral("requests"), QStringLiteral("requestsGraphDock")},
        {QStringLiteral("inspector"), QStringLiteral("inspectorDock")},
        {QStringLiteral("steps"), QStringLiteral("stepThroughDock")},
        {QStringLiteral("ir"), QStringLiteral("loweredIrDock")},
        {QStringLiteral("code"), QStringLiteral("generatedCodeDock")},
        {QStringLiteral("bounds"), QStringLiteral("boundsDock")},
        {QStringLiteral("allocations"), QStringLiteral("allocationsDock")},
        {QStringLiteral("heatmap"), QStringLiteral("heatmapDock")},
        {QStringLiteral("loopnest"), QStringLiteral("loopNestDock")},
        {QStringLiteral("compare"), QStringLiteral("compareDock")},
        {QStringLiteral("run"), QStringLiteral("runDock")},
        {QStringLiteral("tc"), QStringLiteral("tcRangesDock")},
        {QStringLiteral("output"), QStringLiteral("outputDock")}};
    return names;
}

} // namespace

QString dockShortNames() {
    QStringList names;
    for (const auto& [shortName, objectName] : dockNames())
        names << shortName;
    return names.join(QStringLiteral(", "));
}

QString dockObjectName(const QString& shortName) {
    for (const auto& [name, objectName] : dockNames())
        if (name == shortName)
            return objectName;
    return QString();
}

int runScreenshot(const AppOptions& options) {
    if (options.darkTheme)
        theme::applyDark(*options.darkTheme);
    MainWindow window(MainWindow::Options{false, false});
    window.resize(options.size);
    window.show();
    if (options.rules)
        window.rulesSelector()->setCurrentIndex(
            window.rulesSelector()->findData(int(*options.rules)));
    if (options.pass)
        window.irPanel()->setPass(*options.pass);
    for (const QString& name : options.showDocks)
        window.dock(dockObjectName(name))->raise();
    QString error;
    if (!openInitialScript(window, options, &error)) {
        std::fprintf(stderr, "boundscope-gui: %s\n", qPrintable(error));
        return 1;
    }
    if (!waitForAnalysis(*window.document())) {
        std::fprintf(stderr, "boundscope-gui: the analysis did not finish in time\n");
        return 1;
    }
    if (!options.selectStage.isEmpty()) {
        // A name the analysis does not have would be ignored: say so rather than draw nothing.
        const auto& analysis = window.document()->analysis();
        const QStringList stages = analysis ? stageNames(*analysis) : QStringList();
        if (!stages.contains(options.selectStage)) {
            std::fprintf(stderr, "boundscope-gui: no stage '%s' (its stages: %s)\n",
                         qPrintable(options.selectStage), qPrintable(stages.join(u", ")));
            return 1;
        }
        if (!options.selectIterVar.isEmpty() &&
            objectRefOf(*analysis, options.selectStage, options.selectIterVar).iterVar < 0) {
            std::fprintf(stderr, "boundscope-gui: stage '%s' has no IterVar '%s'\n",
                         qPrintable(options.selectStage), qPrintable(options.selectIterVar));
            return 1;
        }
        window.selection()->select(options.selectStage, options.selectIterVar);
    }
    if (!options.step.isEmpty()) {
        const auto& analysis = window.document()->analysis();
        const int id = analysis ? findStep(*analysis, options.step) : -1;
        if (id < 0) {
            std::fprintf(stderr, "boundscope-gui: no step '%s' in this analysis\n",
                         qPrintable(options.step));
            return 1;
        }
        window.stepTools()->goToStep(id);
    }
    if (options.runCheck && !runInPanel(window, *options.runCheck))
        return 1;
    if (options.frame > 0 && !showFrame(window, options.frame))
        return 1;
    // The graphs are laid out and the code generated on worker threads: wait until every dock
    // shows the latest.
    auto current = [&window] {
        const CodePanel* code = window.codePanel();
        return window.graphsAreCurrent() && (!code->isVisible() || code->isCurrent());
    };
    for (int waited = 0; !current() && waited < kScreenshotTimeoutMs; waited += 50)
        settle(50);
    // So are the heatmap and the loop nest's recording, when their docks are in sight.
    const HeatmapPanel* heatmap = window.scheduleTools()->heatmap();
    const AnimationPanel* loopNest = window.scheduleTools()->animation();
    for (int waited = 0; (heatmap->isVisible() && heatmap->isComputing()) ||
                         (loopNest->isVisible() && loopNest->isRecording());
         waited += 50) {
        if (waited >= kScreenshotTimeoutMs)
            break;
        settle(50);
    }
    settle(300);
    const QImage image = window.grab().toImage();
    if (!image.save(options.screenshot, "PNG")) {
        std::fprintf(stderr, "boundscope-gui: cannot write '%s'\n", qPrintable(options.screenshot));
        return 1;
    }
    if (const auto& problem = window.document()->problem())
        std::fprintf(stderr, "boundscope-gui: note: %s\n", problem->toString().c_str());
    return 0;
}

} // namespace bs::gui
