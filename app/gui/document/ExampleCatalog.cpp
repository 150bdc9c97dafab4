#include "document/ExampleCatalog.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace bs::gui {

namespace {

QStringList candidateDirectories() {
    QStringList dirs;
    const QString fromEnv = qEnvironmentVariable("BOUNDSCOPE_EXAMPLES_DIR");
    if (!fromEnv.isEmpty())
        dirs << fromEnv;
    // build-gui/app/gui/boundscope-gui and an installed bin/ both sit below the resources.
    const QString appDir = QCoreApplication::applicationDirPath();
    for (const char* up : {".", "..", "../..", "../../.."})
        dirs << QDir(appDir).filePath(QString::fromLatin1(up) + "/resources/examples");
    dirs << QStringLiteral(BOUNDSCOPE_SOURCE_DIR "/resources/examples");
    return dirs;
}

} // namespace

QString examplesDirectory() {
    for (const QString& dir : candidateDirectories()) {
        if (QFileInfo(dir).isDir())
            return QDir(dir).canonicalPath();
    }
    return QString();
}

QString scriptSummary(const QString& text) {
    QStringList lines;
    for (const QString& line : text.split(QLatin1Char('\n'))) {
        const QString trimmed = line.trimmed();
        if (!trimmed.startsWith(QLatin1Char('#')))
            break;
        lines << trimmed.mid(1).trimmed();
    }
    return lines.join(QLatin1Char(' ')).trimmed();
}

QList<ExampleInfo> listExamples(const QString& directory) {
    QList<ExampleInfo> examples;
    if (directory.isEmpty())
        return examples;
    const QDir dir(directory);
    const QStringList files =
        dir.entryList({QStringLiteral("*.py"), QStringLiteral("*.tc")}, QDir::Files, QDir::Name);
    for (const QString& file : files) {
        ExampleInfo info;
        info.name = file.endsWith(QLatin1String(".tc")) ? file : QFileInfo(file).completeBaseName();
        info.path = dir.absoluteFilePath(file);
        QFile source(info.path);
        if (source.open(QIODevice::ReadOnly))
            info.summary = scriptSummary(QString::fromUtf8(source.read(4096)));
        examples << info;
    }
    return examples;
}

QString findExample(const QString& directory, const QString& name) {
    if (directory.isEmpty() || name.isEmpty())
        return QString();
    const bool hasSuffix =
        name.endsWith(QLatin1String(".py")) || name.endsWith(QLatin1String(".tc"));
    const QStringList files =
        hasSuffix ? QStringList{name}
                  : QStringList{name + QLatin1String(".py"), name + QLatin1String(".tc")};
    for (const QString& file : files) {
        const QString path = QDir(directory).absoluteFilePath(file);
        if (QFileInfo(path).isFile())
            return path;
    }
    return QString();
}

QString defaultExample(const QString& directory) {
    const QString preferred = findExample(directory, QStringLiteral("default"));
    if (!preferred.isEmpty())
        return preferred;
    const QList<ExampleInfo> all = listExamples(directory);
    return all.isEmpty() ? QString() : all.first().path;
}

} // namespace bs::gui
