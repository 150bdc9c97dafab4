/// \file
/// Writing what the app exports (issue 7, "Files": lowered IR, generated code, the bounds trace
/// as JSON, the graphs as PNG or SVG). Every file is written atomically with QSaveFile: a failed
/// export never leaves a partial file behind (DESIGN.md: "never a partial output file").
#pragma once

#include <QByteArray>
#include <QString>

class QGraphicsScene;

namespace bs::gui {

/// Writes `data` to `path` through QSaveFile; false with `errorMessage` set on failure.
bool writeFileAtomically(const QString& path, const QByteArray& data, QString* errorMessage);

/// Why the app will not write a file at `path`: a device, a pipe or a socket there (QSaveFile
/// would rename its temporary file over it, replacing the device node); empty otherwise.
QString notAFileToWrite(const QString& path);

/// Renders `scene` to `path`: SVG when the name ends in `.svg` (QSvgGenerator), PNG otherwise
/// (at twice the scene's size, on white, for sharp text).
bool exportScene(QGraphicsScene& scene, const QString& path, QString* errorMessage,
                 const QString& title = QStringLiteral("Boundscope graph"));

} // namespace bs::gui
