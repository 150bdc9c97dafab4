/// \file
/// The example scripts shipped in resources/examples (DESIGN.md: every example opens with a
/// comment saying what it teaches). The folder is looked for next to the executable first (an
/// installed or copied app), then in the source tree the app was built from.
#pragma once

#include <QList>
#include <QString>

namespace bs::gui {

struct ExampleInfo {
    QString name;    ///< the file name without `.py` (`ex6_shared_scope`); `tc_matmul.tc`
    QString path;    ///< absolute path of the script
    QString summary; ///< the opening comment, `#` markers removed, lines joined
};

/// The examples folder: `$BOUNDSCOPE_EXAMPLES_DIR`, else `resources/examples` beside the
/// executable or one or two levels above it, else the source tree's; empty if none exists.
QString examplesDirectory();

/// Every `*.py` and `*.tc` (Tensor Comprehensions) in `directory`, sorted by file name.
QList<ExampleInfo> listExamples(const QString& directory);

/// The example named `name` (`.py` or `.tc`; without a suffix, `.py` first), or an empty path.
QString findExample(const QString& directory, const QString& name);

/// The script the app opens when given none: `default.py`, else the first example; empty when
/// the folder holds no script.
QString defaultExample(const QString& directory);

/// The opening comment of a script's text (see ExampleInfo::summary).
QString scriptSummary(const QString& text);

} // namespace bs::gui
