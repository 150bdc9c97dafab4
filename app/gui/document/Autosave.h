/// \file
/// Autosave with crash recovery (issue 7, item 6: "autosave with recovery after a crash; a
/// crash never loses the text"). A few seconds after each edit, the unsaved text of the
/// document is written (atomically) to `<dir>/<session>.json` with the file it belongs to.
/// Each session holds `<dir>/<session>.lock` (QLockFile) while it runs; a snapshot whose lock
/// is free belongs to a session that ended without saving (a crash: a lock left by a dead
/// process is stale), and is offered for recovery at the next start. Saving, or closing after
/// answering the unsaved-changes question, discards the snapshot.
#pragma once

#include <QDateTime>
#include <QLockFile>
#include <QObject>
#include <QTimer>

#include <memory>
#include <optional>

namespace bs::gui {

class ScriptDocument;

/// The unsaved text another session left behind.
struct RecoveredScript {
    QString session;
    QString text;
    QString filePath; ///< the file the text belongs to; empty when it was untitled
    QString scriptName;
    QDateTime savedAt;
};

class Autosave : public QObject {
    Q_OBJECT
public:
    /// The pause after the last edit before the text is written.
    static constexpr int kDelayMs = 3000;

    /// Autosaves `document` into `directory` (default: the app's local data folder).
    explicit Autosave(ScriptDocument* document, QObject* parent = nullptr,
                      const QString& directory = QString());
    /// Keeps the snapshot when the text is still unsaved (the next session offers it).
    ~Autosave() override;

    static QString defaultDirectory();
    const QString& directory() const { return m_directory; }
    /// This session's snapshot file.
    QString snapshotPath() const;

    /// Writes the snapshot now if the text is unsaved; false with `errorMessage` on failure.
    bool saveNow(QString* errorMessage = nullptr);
    /// Removes this session's snapshot (the text was saved or deliberately dropped).
    void discard();

    /// The newest snapshot of a session that is no longer running, if any.
    std::optional<RecoveredScript> findRecoverable() const;
    /// Removes a snapshot found by findRecoverable (recovered or declined).
    void discardRecoverable(const RecoveredScript& script) const;

private:
    void onTimeout();

    ScriptDocument* m_document;
    QString m_directory;
    QString m_session;
    std::unique_ptr<QLockFile> m_lock;
    QTimer m_timer;
};

} // namespace bs::gui
