/// \file
/// The command line of `boundscope-gui`: a script to open (else the default example), and a
/// headless screenshot mode used by scripts/screenshots.sh:
///   boundscope-gui [FILE.py|FILE.tc] [--example NAME] [--rules tvm|tvm-0.5|tight]
///                  [--screenshot OUT.png [--select-stage S] [--select-itervar V] [--pass P]
///                   [--show DOCK[,DOCK...]] [--run check|time] [--frame N] [--size WxH]]
///                  [--theme light|dark]
/// where DOCK is dag, itervar, attach, requests, inspector, steps, ir, code, bounds,
/// allocations, heatmap, loopnest, compare, run, tc or output (the tab raised); `--run` runs the
/// kernel in the Run panel first (checked or timed, on the target the panel chooses) and waits
/// for the result; `--frame` shows step N (from 1) of the loop nest in the Loop Nest dock.
#pragma once

#include "analysis/Analysis.h"

#include <QSize>
#include <QString>
#include <QStringList>

#include <optional>

namespace bs::gui {

struct AppOptions {
    QString file;
    QString example;
    std::optional<BoundRules> rules;
    QString screenshot;    ///< write a PNG of the window here and exit
    QString selectStage;   ///< the stage to select before the screenshot
    QString selectIterVar; ///< and its IterVar
    std::optional<LowerPass> pass;
    QStringList showDocks;        ///< the docks to raise (short names, see above)
    std::optional<bool> runCheck; ///< run the kernel before the screenshot: checked (true) or timed
    QString step;                 ///< the step to show in the Step-through (models/StepOutline.h)
    int64_t frame = 0;            ///< the Loop Nest's step to show (from 1; 0: none chosen)
    QSize size{1400, 900};
    /// The palette: dark (true), light (false), or the one chosen last in View > Dark Theme.
    std::optional<bool> darkTheme;
};

/// Parses `arguments` (argv, program name first); nullopt with `errorMessage` set when they are
/// invalid (the message names the argument).
std::optional<AppOptions> parseAppOptions(const QStringList& arguments, QString* errorMessage);

class MainWindow;

/// Opens the options' file or example, else the default example, in `window`.
bool openInitialScript(MainWindow& window, const AppOptions& options, QString* errorMessage);

/// The dock objectName of a short name (`dag` -> `stageDagDock`), or empty.
QString dockObjectName(const QString& shortName);
/// Every short name, comma-separated (for --help and the message of an unknown one).
QString dockShortNames();

/// Opens what `options` name in a fresh window, waits for the analysis and the graph layouts,
/// selects the stage and writes the screenshot. Returns the process exit code.
int runScreenshot(const AppOptions& options);

} // namespace bs::gui
