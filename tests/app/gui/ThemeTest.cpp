// The dark palette (issue 17, item 7): View > Dark Theme switches the whole app, and every
// colour the views draw text with, or behind text, still reads (WCAG contrast 4.5 at least):
// the highlighted script and IR, the editor's and the IR's line tints, captions, the graphs'
// paper. The light palette gets exactly the colours designed for it.
#include "GuiTestSupport.h"

#include "panels/EditorPanel.h"
#include "panels/GraphPanel.h"
#include "panels/IrPanel.h"
#include "views/GraphScene.h"
#include "views/IrView.h"
#include "views/ScriptEditor.h"
#include "views/Theme.h"

#include <QAction>
#include <QApplication>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>
#include <QtTest>

namespace bs::gui::test {

namespace {

constexpr double kReadable = 4.5;

const char* const kScript = "# a comment, a \"string\", numbers 3.14 and keywords\n"
                            "import tvm\n"
                            "from tvm import te\n"
                            "A = te.placeholder((64, 64), name=\"A\")\n"
                            "B = te.compute((64, 64), lambda i, j: A[i, j] * 3.14, name=\"B\")\n"
                            "C = te.compute((64, 64), lambda i, j: B[i, j] + 1.0, name=\"C\")\n"
                            "s = te.create_schedule(C.op)\n"
                            "xo, xi = s[C].split(C.op.axis[0], factor=8)\n"
                            "s[B].compute_at(s[C], xo)\n"
                            "print(tvm.lower(s, [A, C]))\n";

QAction* darkThemeAction(MainWindow& window) {
    for (QAction* menu : window.menuBar()->actions()) {
        if (!menu->menu())
            continue;
        for (QAction* action : menu->menu()->actions()) {
            if (action->text().remove(u'&') == QStringLiteral("Dark Theme"))
                return action;
        }
    }
    return nullptr;
}

/// The lowest contrast between a highlighted run's colour in `document` and `background`, with
/// the run's text for the failure message.
std::pair<double, QString> worstHighlight(QTextDocument* document, const QColor& background) {
    std::pair<double, QString> worst{21.0, QString()};
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        for (const QTextLayout::FormatRange& range : block.layout()->formats()) {
            if (!range.format.hasProperty(QTextFormat::ForegroundBrush))
                continue;
            const double ratio = theme::contrast(range.format.foreground().color(), background);
            if (ratio < worst.first)
                worst = {ratio, block.text().mid(range.start, range.length) + QStringLiteral(" ") +
                                    range.format.foreground().color().name()};
        }
    }
    return worst;
}

/// The lowest contrast between `text` and the line tints of `view`'s extra selections.
double worstTint(const QPlainTextEdit* view, const QColor& text, int* tints) {
    double worst = 21.0;
    *tints = 0;
    for (const QTextEdit::ExtraSelection& selection : view->extraSelections()) {
        if (!selection.format.hasProperty(QTextFormat::BackgroundBrush))
            continue;
        ++*tints;
        worst = std::min(worst, theme::contrast(selection.format.background().color(), text));
    }
    return worst;
}

} // namespace

class ThemeTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void contrastIsWcags();
    void darkThemeKeepsEveryViewReadable();
};

void ThemeTest::contrastIsWcags() {
    QCOMPARE(qRound(theme::contrast(Qt::black, Qt::white)), 21);
    QCOMPARE(theme::contrast(QColor(0x4a, 0x50, 0x5a), QColor(0x4a, 0x50, 0x5a)), 1.0);
    // Made readable by moving away from the background, keeping the hue.
    const QColor dim(0x1f, 0x4e, 0xa8);
    const QColor dark(0x1e, 0x1f, 0x22);
    QVERIFY(theme::contrast(dim, dark) < kReadable);
    const QColor lifted = theme::readable(dim, dark);
    QVERIFY(theme::contrast(lifted, dark) >= kReadable);
    QCOMPARE(lifted.hslHue(), dim.hslHue());
}

void ThemeTest::darkThemeKeepsEveryViewReadable() {
    if (theme::isDark())
        QSKIP("the platform's palette is dark already");
    // Whatever fails below, the suites after this one get the light palette back.
    struct Restore {
        ~Restore() { theme::applyDark(false); }
    } restore;
    // Under the light palette the designed colours are used as they are.
    const QColor keyword(0x1f, 0x4e, 0xa8);
    QCOMPARE(theme::ink(keyword), keyword);
    QCOMPARE(theme::tint(QColor(0xff, 0xf3, 0xc4)), QColor(0xff, 0xf3, 0xc4));
    const QColor lightBase = QApplication::palette().color(QPalette::Base);

    MainWindow window(MainWindow::Options{false, false});
    window.resize(1400, 900);
    window.show();
    window.document()->textDocument()->setPlainText(QString::fromLatin1(kScript));
    window.document()->reanalyse();
    QVERIFY(waitForAnalysis(*window.document()));
    QVERIFY(!window.document()->problem());
    QVERIFY(waitForGraphs(window));
    window.selection()->select(QStringLiteral("B"), QStringLiteral("i"));

    QAction* dark = darkThemeAction(window);
    QVERIFY(dark && dark->isCheckable() && !dark->isChecked());
    dark->trigger();
    QVERIFY(theme::isDark());
    QVERIFY(dark->isChecked());
    const QPalette palette = QApplication::palette();
    const QColor base = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    QVERIFY(theme::contrast(base, text) >= 7);

    // The script: every highlighted run reads on the editor's Base.
    ScriptEditor* editor = window.editorPanel()->editor();
    const auto [scriptWorst, scriptRun] = worstHighlight(editor->document(), base);
    QVERIFY2(scriptWorst >= kReadable,
             qPrintable(QStringLiteral("%1: %2").arg(scriptRun).arg(scriptWorst)));
    int tints = 0;
    QVERIFY(worstTint(editor, text, &tints) >= kReadable);
    QVERIFY(tints >= 1); // the current line at least
    // The IR: its highlighting, and the tints of the selected stage's and loop's lines.
    IrView* ir = window.irPanel()->textView();
    const auto [irWorst, irRun] = worstHighlight(ir->document(), base);
    QVERIFY2(irWorst >= kReadable, qPrintable(QStringLiteral("%1: %2").arg(irRun).arg(irWorst)));
    QVERIFY(worstTint(ir, text, &tints) >= kReadable);
    QVERIFY(tints >= 2);
    // Captions keep their grey, readable on the window.
    QLabel* caption = window.stageDag()->findChild<QLabel*>();
    QVERIFY(caption);
    QVERIFY(theme::contrast(caption->palette().color(QPalette::WindowText),
                            caption->palette().color(QPalette::Window)) >= kReadable);
    // The graphs are drawn on the palette's Base; nodes keep their own light fills.
    QCOMPARE(window.stageDag()->scene()->backgroundBrush().color(), base);

    // And back: the light palette, exactly.
    dark->trigger();
    QVERIFY(!theme::isDark());
    QVERIFY(!dark->isChecked());
    QCOMPARE(QApplication::palette().color(QPalette::Base), lightBase);
    QCOMPARE(window.stageDag()->scene()->backgroundBrush().color(), lightBase);
    QCOMPARE(theme::ink(keyword), keyword);
}

BS_GUI_TEST_SUITE(ThemeTest);

} // namespace bs::gui::test

#include "ThemeTest.moc"
