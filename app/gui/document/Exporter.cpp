#include "document/Exporter.h"

#include <QBuffer>
#include <QFileInfo>
#include <QGraphicsScene>
#include <QImage>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>

namespace bs::gui {

namespace {

constexpr qreal kPngScale = 2.0;

QByteArray renderPng(QGraphicsScene& scene) {
    const QRectF source = scene.sceneRect();
    QImage image((source.size() * kPngScale).toSize(), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
        scene.render(&painter, QRectF(QPointF(0, 0), image.size()), source);
    }
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes;
}

QByteArray renderSvg(QGraphicsScene& scene, const QString& title) {
    const QRectF source = scene.sceneRect();
    QByteArray bytes;
    QBuffer buffer(&bytes);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(source.size().toSize());
    generator.setViewBox(QRectF(QPointF(0, 0), source.size()));
    generator.setTitle(title);
    generator.setDescription(QStringLiteral("exported by Boundscope"));
    {
        QPainter painter(&generator);
        scene.render(&painter, QRectF(QPointF(0, 0), source.size()), source);
    }
    return bytes;
}

} // namespace

QString notAFileToWrite(const QString& path) {
    const QFileInfo info(path);
    if (info.exists() && !info.isFile() && !info.isDir())
        return QStringLiteral("it is not a regular file (a device, a pipe or a socket)");
    return QString();
}

bool writeFileAtomically(const QString& path, const QByteArray& data, QString* errorMessage) {
    if (const QString reason = notAFileToWrite(path); !reason.isEmpty()) {
        *errorMessage = QStringLiteral("cannot write '%1': %2").arg(path, reason);
        return false;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size() || !file.commit()) {
        *errorMessage = QStringLiteral("cannot write '%1': %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

bool exportScene(QGraphicsScene& scene, const QString& path, QString* errorMessage,
                 const QString& title) {
    if (scene.items().isEmpty()) {
        *errorMessage = QStringLiteral("there is no graph to export yet");
        return false;
    }
    const bool svg = path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive);
    const QByteArray data = svg ? renderSvg(scene, title) : renderPng(scene);
    return writeFileAtomically(path, data, errorMessage);
}

} // namespace bs::gui
