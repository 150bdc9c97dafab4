// boundscope-gui: the Qt 6 desktop app (DESIGN.md, "app/gui"). Opens the script given on the
// command line, or the default example, or takes a screenshot headless (AppOptions.h).
#include "AppOptions.h"
#include "MainWindow.h"
#include "views/Theme.h"

#include <QApplication>
#include <QMessageBox>
#include <QTimer>

#include <cstdio>

int main(int argc, char** argv) {
    // The command line first: --help and a wrong option need no display (a QApplication
    // without one aborts).
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    QString error;
    const auto options = bs::gui::parseAppOptions(arguments, &error);
    if (!options) {
        std::fprintf(stderr, "boundscope-gui: %s\n", qPrintable(error));
        return 2;
    }
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Boundscope"));
    QApplication::setApplicationName(QStringLiteral("boundscope-gui"));
    QApplication::setApplicationVersion(QStringLiteral(BOUNDSCOPE_VERSION));
    if (!options->screenshot.isEmpty())
        return bs::gui::runScreenshot(*options);

    bs::gui::MainWindow window;
    if (options->darkTheme) // for this run only: the menu's choice stays as it was
        bs::gui::theme::applyDark(*options->darkTheme);
    window.show();
    // A session that ended without saving left its text behind: offer it before anything else.
    if (options->file.isEmpty() && options->example.isEmpty() && window.offerRecovery())
        return app.exec();
    if (!bs::gui::openInitialScript(window, *options, &error))
        QTimer::singleShot(0, &window, [&window, error] {
            QMessageBox::warning(&window, QStringLiteral("Boundscope"), error);
        });
    return app.exec();
}
