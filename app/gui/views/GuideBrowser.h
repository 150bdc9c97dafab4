/// \file
/// Help > Guide (issue 18, item 5): the Markdown guide of resources/guide/guide.md, which walks a
/// newcomer through InferBound with the examples. Its links `boundscope:example/NAME` ask for an
/// example to be opened and `boundscope:show/DOCK` for a dock to be raised (the short names of
/// `--show`); other links open in the system's browser.
#pragma once

#include <QTextBrowser>

namespace bs::gui {

/// The guide's file beside the examples (resources/guide/guide.md); empty when not found.
QString guideFile();

class GuideBrowser : public QTextBrowser {
    Q_OBJECT
public:
    explicit GuideBrowser(QWidget* parent = nullptr);

    /// Reads and renders `path`; false with `errorMessage` set when it cannot be read.
    bool load(const QString& path, QString* errorMessage);
    /// The titles of the guide's chapters (its second-level headings), in order.
    QStringList chapterTitles() const;
    /// Follows `link` as a click on it does.
    void follow(const QUrl& link);

Q_SIGNALS:
    void exampleRequested(const QString& name);
    void dockRequested(const QString& shortName);

private:
    QString m_markdown;
};

} // namespace bs::gui
