/// \file
/// The File > Open Recent list, most recent first, kept in QSettings under `recentFiles`.
#pragma once

#include <QObject>
#include <QStringList>

namespace bs::gui {

class RecentFiles : public QObject {
    Q_OBJECT
public:
    static constexpr int kMaxFiles = 8;

    /// Loads the list from QSettings.
    explicit RecentFiles(QObject* parent = nullptr);

    const QStringList& files() const { return m_files; }
    /// Moves `path` (made absolute) to the front, drops the oldest beyond kMaxFiles, saves.
    void add(const QString& path);
    /// Removes `path` (a file that could no longer be opened), saves.
    void remove(const QString& path);
    void clear();

Q_SIGNALS:
    void changed();

private:
    void save();

    QStringList m_files;
};

} // namespace bs::gui
