// Runs the app's Qt Test suites (offscreen: CTest sets QT_QPA_PLATFORM=offscreen). Suites
// register themselves (GuiTestSupport.h); `test_app_gui --suite MainWindowTest [QTest args]`
// runs one (`--suite` may be repeated).
#include "GuiTestSupport.h"

#include <QApplication>
#include <QStandardPaths>
#include <QtTest>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <vector>

namespace bs::gui::test {

namespace {

struct Suite {
    std::string name;
    SuiteFactory factory;
};

std::vector<Suite>& registry() {
    static std::vector<Suite> suites;
    return suites;
}

} // namespace

int registerSuite(const char* name, SuiteFactory factory) {
    registry().push_back({name, std::move(factory)});
    return int(registry().size()) - 1;
}

int runRegisteredSuites(int argc, char** argv) {
    std::set<std::string> only;
    std::vector<char*> args;
    for (int i = 0; i < argc; ++i) {
        if (std::strcmp(argv[i], "--suite") == 0 && i + 1 < argc) {
            only.insert(argv[++i]);
            continue;
        }
        args.push_back(argv[i]);
    }
    std::vector<Suite> suites = registry();
    std::sort(suites.begin(), suites.end(),
              [](const Suite& a, const Suite& b) { return a.name < b.name; });
    int failures = 0;
    bool ran = false;
    for (const Suite& suite : suites) {
        if (!only.empty() && !only.count(suite.name))
            continue;
        ran = true;
        std::unique_ptr<QObject> object = suite.factory();
        failures += QTest::qExec(object.get(), int(args.size()), args.data()) == 0 ? 0 : 1;
    }
    if (!ran) {
        std::fprintf(stderr, "test_app_gui: no suite named '%s'\n", only.begin()->c_str());
        return 1;
    }
    return failures;
}

} // namespace bs::gui::test

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("BoundscopeTests"));
    QApplication::setApplicationName(QStringLiteral("boundscope-gui-tests"));
    // Settings (recent files, layout, autosave) go to a test location, never the user's.
    QStandardPaths::setTestModeEnabled(true);
    return bs::gui::test::runRegisteredSuites(argc, argv) == 0 ? 0 : 1;
}
