#include "document/Autosave.h"

#include "document/Exporter.h"
#include "document/ScriptDocument.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTextDocument>
#include <QUuid>

namespace bs::gui {

namespace {

QString lockPath(const QString& directory, const QString& session) {
    return QDir(directory).filePath(session + QStringLiteral(".lock"));
}

QString jsonPath(const QString& directory, const QString& session) {
    return QDir(directory).filePath(session + QStringLiteral(".json"));
}

std::optional<RecoveredScript> readSnapshot(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
    if (!json.contains(QStringLiteral("text")))
        return std::nullopt;
    RecoveredScript script;
    script.session = QFileInfo(path).completeBaseName();
    script.text = json.value(QStringLiteral("text")).toString();
    script.filePath = json.value(QStringLiteral("filePath")).toString();
    script.scriptName = json.value(QStringLiteral("scriptName")).toString();
    script.savedAt =
        QDateTime::fromString(json.value(QStringLiteral("savedAt")).toString(), Qt::ISODate);
    return script;
}

/// Whether the session that wrote a snapshot has ended: its lock can be taken (a lock left by
/// a process that died is stale and QLockFile takes it over).
bool sessionEnded(const QString& directory, const QString& session) {
    QLockFile lock(lockPath(directory, session));
    if (!lock.tryLock(0))
        return false;
    lock.unlock();
    return true;
}

} // namespace

QString Autosave::defaultDirectory() {
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation))
        .filePath(QStringLiteral("autosave"));
}

Autosave::Autosave(ScriptDocument* document, QObject* parent, const QString& directory)
    : QObject(parent), m_document(document),
      m_directory(directory.isEmpty() ? defaultDirectory() : directory),
      m_session(QUuid::createUuid().toString(QUuid::WithoutBraces)) {
    QDir().mkpath(m_directory);
    m_lock = std::make_unique<QLockFile>(lockPath(m_directory, m_session));
    m_lock->tryLock(0);
    m_timer.setSingleShot(true);
    m_timer.setInterval(kDelayMs);
    connect(&m_timer, &QTimer::timeout, this, &Autosave::onTimeout);
    connect(document->textDocument(), &QTextDocument::contentsChanged, this,
            [this] { m_timer.start(); });
    // Saving clears the modified flag: the file on disk is the safe copy now.
    connect(document, &ScriptDocument::modificationChanged, this, [this](bool modified) {
        if (!modified)
            discard();
    });
}

Autosave::~Autosave() {
    if (!m_document->isModified())
        discard();
}

QString Autosave::snapshotPath() const { return jsonPath(m_directory, m_session); }

bool Autosave::saveNow(QString* errorMessage) {
    m_timer.stop();
    if (!m_document->isModified())
        return true;
    QJsonObject json;
    json.insert(QStringLiteral("text"), m_document->textDocument()->toPlainText());
    json.insert(QStringLiteral("filePath"), m_document->filePath());
    json.insert(QStringLiteral("scriptName"), m_document->scriptName());
    json.insert(QStringLiteral("savedAt"), QDateTime::currentDateTime().toString(Qt::ISODate));
    QString error;
    const bool ok = writeFileAtomically(snapshotPath(), QJsonDocument(json).toJson(), &error);
    if (!ok && errorMessage)
        *errorMessage = error;
    return ok;
}

void Autosave::discard() {
    m_timer.stop();
    QFile::remove(snapshotPath());
}

void Autosave::onTimeout() {
    if (m_document->isModified())
        saveNow();
    else
        discard();
}

std::optional<RecoveredScript> Autosave::findRecoverable() const {
    std::optional<RecoveredScript> newest;
    const QStringList files =
        QDir(m_directory).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Time);
    for (const QString& name : files) {
        const QString session = QFileInfo(name).completeBaseName();
        if (session == m_session || !sessionEnded(m_directory, session))
            continue;
        std::optional<RecoveredScript> script = readSnapshot(QDir(m_directory).filePath(name));
        if (script && (!newest || script->savedAt > newest->savedAt))
            newest = std::move(script);
    }
    return newest;
}

void Autosave::discardRecoverable(const RecoveredScript& script) const {
    QFile::remove(jsonPath(m_directory, script.session));
    QFile::remove(lockPath(m_directory, script.session));
}

} // namespace bs::gui
