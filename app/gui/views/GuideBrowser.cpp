#include "views/GuideBrowser.h"

#include "document/ExampleCatalog.h"

#include <QDesktopServices>
#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QUrl>

namespace bs::gui {

QString guideFile() {
    const QString examples = examplesDirectory();
    if (examples.isEmpty())
        return QString();
    const QString path = QDir(examples).filePath(QStringLiteral("../guide/guide.md"));
    return QFile::exists(path) ? QDir::cleanPath(path) : QString();
}

GuideBrowser::GuideBrowser(QWidget* parent) : QTextBrowser(parent) {
    setOpenLinks(false);
    connect(this, &QTextBrowser::anchorClicked, this, &GuideBrowser::follow);
}

bool GuideBrowser::load(const QString& path, QString* errorMessage) {
    QFile file(path);
    if (path.isEmpty() || !file.open(QIODevice::ReadOnly)) {
        *errorMessage = path.isEmpty() ? tr("the guide was not found (resources/guide/guide.md)")
                                       : tr("cannot read '%1': %2").arg(path, file.errorString());
        return false;
    }
    m_markdown = QString::fromUtf8(file.readAll());
    setMarkdown(m_markdown);
    return true;
}

QStringList GuideBrowser::chapterTitles() const {
    QStringList titles;
    static const QRegularExpression heading(QStringLiteral("^## (.+)$"),
                                            QRegularExpression::MultilineOption);
    for (auto it = heading.globalMatch(m_markdown); it.hasNext();)
        titles << it.next().captured(1).trimmed();
    return titles;
}

void GuideBrowser::follow(const QUrl& link) {
    if (link.scheme() != QLatin1String("boundscope")) {
        QDesktopServices::openUrl(link);
        return;
    }
    const QString what = link.path().section(QLatin1Char('/'), 0, 0);
    const QString name = link.path().section(QLatin1Char('/'), 1);
    if (what == QLatin1String("example"))
        Q_EMIT exampleRequested(name);
    else if (what == QLatin1String("show"))
        Q_EMIT dockRequested(name);
}

} // namespace bs::gui
