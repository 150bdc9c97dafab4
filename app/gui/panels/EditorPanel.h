/// \file
/// The central area: the script editor and, under it, a banner with the latest problem (a
/// failing script keeps the last good views; the banner says so and names the line).
#pragma once

#include "support/Diagnostic.h"

#include <QWidget>

#include <optional>

class QLabel;
class QSyntaxHighlighter;
class QTextDocument;

namespace bs::gui {

class ScriptEditor;

class EditorPanel : public QWidget {
    Q_OBJECT
public:
    EditorPanel(QTextDocument* document, QWidget* parent = nullptr);

    ScriptEditor* editor() const { return m_editor; }

    /// Shows `problem` of the script `scriptName`: its line marked in the editor and its message
    /// in the banner. Nullopt clears both. Locations in other files mark no line.
    void showProblem(const std::optional<Diagnostic>& problem, const QString& scriptName,
                     bool viewsAreStale);
    /// The banner's text (empty when hidden).
    QString bannerText() const;

    /// Highlights the text as Tensor Comprehensions (`.tc` files) instead of Python.
    void setTcSource(bool isTc);
    /// The highlighter of the shown text (a PythonHighlighter or a TcHighlighter).
    QSyntaxHighlighter* highlighter() const { return m_highlighter; }

private:
    ScriptEditor* m_editor;
    QLabel* m_banner;
    QSyntaxHighlighter* m_highlighter = nullptr;
};

} // namespace bs::gui
