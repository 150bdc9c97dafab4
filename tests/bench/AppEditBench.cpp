/// \file
/// How long the app takes to show an edit (issue 19, item 1: a 50-stage program updated within
/// 100 ms after the typing pause, under any rules). The whole window runs offscreen on
/// resources/examples/long_pipeline.py (50 stages) and on a nest of 50 attached stages; each
/// iteration edits the script (the pipeline loses or regains its last stage, the nest its last
/// compute_at, so the program and every graph change), starts the analysis as the typing pause
/// would, and measures
///
///   analysis_ms   until the document has the new Analysis (the script run on the script thread,
///                 then lower() on a worker);
///   views_ms      until every graph dock shows it too (their Graphviz layouts run on workers).
///
///   QT_QPA_PLATFORM=offscreen bench_app_edit --benchmark_counters_tabular=true
///
/// Wall time (the app's threads all count): the best of the iterations, and `views_mean_ms` their
/// mean (the manual time Google Benchmark reports is the same mean). The typing pause itself
/// (ScriptDocument::kReanalyseDelayMs) is not counted: it is the wait the target starts after.

#include "MainWindow.h"
#include "document/ScriptDocument.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>
#include <QTextCursor>
#include <QTextDocument>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>

using namespace bs;
using namespace bs::gui;

namespace {

constexpr int kTimeoutMs = 60000;

/// 50 stages, each computed at its consumer's row loop.
const char* kNestedScript = R"(import tvm
from tvm import te

def add_one(t, k):
    return te.compute((64, 64), lambda y, x: t[y, x] + 1.0, name=f"s{k}")

t = te.placeholder((64, 64), name="A")
stages = []
for k in range(50):
    t = add_one(t, k)
    stages.append(t)
s = te.create_schedule(t.op)
for k in range(49):
    s[stages[k]].compute_at(s[stages[k + 1]], stages[k + 1].op.axis[0])
)";

/// Runs the event loop until the document finished more than `runsBefore` analyses.
bool waitForAnalysis(int runsBefore, const int& runs) {
    return QTest::qWaitFor([&] { return runs > runsBefore; }, kTimeoutMs);
}

/// Each edit replaces `toggle.first` by `toggle.second` in the script, and the next one back.
void runEdits(benchmark::State& state, const QString& scriptPath, BoundRules rules,
              const std::pair<QString, QString>& toggle) {
    MainWindow window{MainWindow::Options{false, false}};
    window.resize(1600, 1000);
    window.show();
    ScriptDocument& document = *window.document();
    int runs = 0;
    QObject::connect(&document, &ScriptDocument::analysisFinished, [&runs] { ++runs; });
    QString error;
    if (!window.openFile(scriptPath, &error)) {
        state.SkipWithError(("cannot open " + scriptPath + ": " + error).toStdString().c_str());
        return;
    }
    if (!waitForAnalysis(0, runs) ||
        !QTest::qWaitFor([&] { return window.graphsAreCurrent(); }, kTimeoutMs)) {
        state.SkipWithError("the first analysis did not finish");
        return;
    }
    int before = runs;
    if (document.rules() != rules) {
        document.setRules(rules);
        if (!waitForAnalysis(before, runs) ||
            !QTest::qWaitFor([&] { return window.graphsAreCurrent(); }, kTimeoutMs)) {
            state.SkipWithError("the analysis under the rules did not finish");
            return;
        }
    }
    if (document.analysis() == nullptr || !document.analysis()->ok()) {
        state.SkipWithError("the script does not analyse");
        return;
    }
    double bestAnalysis = 1e300, bestViews = 1e300, totalViews = 0;
    int edit = 0;
    for (auto _ : state) {
        // Toggles one token of the schedule, so that the program and its graphs change.
        const bool forth = ++edit % 2 == 1;
        QTextCursor found = document.textDocument()->find(forth ? toggle.first : toggle.second);
        if (found.isNull()) {
            state.SkipWithError("the text to edit is not in the script");
            return;
        }
        found.insertText(forth ? toggle.second : toggle.first);
        before = runs;
        QElapsedTimer timer;
        timer.start();
        document.reanalyse();
        if (!waitForAnalysis(before, runs)) {
            state.SkipWithError("an edit's analysis did not finish");
            return;
        }
        const double analysisMs = double(timer.nsecsElapsed()) / 1e6;
        if (!QTest::qWaitFor([&] { return window.graphsAreCurrent(); }, kTimeoutMs)) {
            state.SkipWithError("the graphs did not follow the edit");
            return;
        }
        const double viewsMs = double(timer.nsecsElapsed()) / 1e6;
        state.SetIterationTime(viewsMs / 1e3);
        bestAnalysis = std::min(bestAnalysis, analysisMs);
        bestViews = std::min(bestViews, viewsMs);
        totalViews += viewsMs;
    }
    state.counters["analysis_ms"] = bestAnalysis;
    state.counters["views_ms"] = bestViews;
    state.counters["views_mean_ms"] = edit > 0 ? totalViews / edit : 0;
    state.counters["under_100ms"] = bestViews <= 100 ? 1 : 0;
}

} // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", qgetenv("QT_QPA_PLATFORM").isEmpty() ? QByteArray("offscreen")
                                                                    : qgetenv("QT_QPA_PLATFORM"));
    QApplication app(argc, argv);
    QTemporaryDir dir;
    const QString nested = dir.filePath("nested50.py");
    {
        FILE* f = std::fopen(nested.toLocal8Bit().constData(), "w");
        if (f) {
            std::fputs(kNestedScript, f);
            std::fclose(f);
        }
    }
    const QString pipeline = QStringLiteral(BOUNDSCOPE_EXAMPLES "/long_pipeline.py");
    // The pipeline loses and regains its last stage; the nest its last compute_at.
    struct Script {
        const char* name;
        QString path;
        std::pair<QString, QString> toggle;
    };
    const Script scripts[] = {{"long_pipeline", pipeline, {"range(1, 51)", "range(1, 50)"}},
                              {"nested50", nested, {"range(49)", "range(48)"}}};
    for (const Script& script : scripts) {
        for (BoundRules rules : {BoundRules::Tvm, BoundRules::Tight}) {
            benchmark::RegisterBenchmark(
                (std::string("AppEdit/") + script.name + "/" + boundRulesName(rules)).c_str(),
                [script, rules](benchmark::State& st) {
                    runEdits(st, script.path, rules, script.toggle);
                })
                ->UseManualTime()
                ->Iterations(10)
                ->Unit(benchmark::kMillisecond);
        }
    }
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
