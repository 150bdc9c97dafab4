/// \file
/// What the main window asks the user in modal dialogs: a file to open, a file to save to,
/// whether to save unsaved changes, whether to recover an autosaved text, and errors. Each
/// question is a std::function whose default shows the real dialog (`Dialogs::modal`); the
/// tests answer instead, since a modal dialog would block them.
#pragma once

#include <QString>

#include <functional>

class QWidget;

namespace bs::gui {

struct Dialogs {
    /// The answer to "the script has unsaved changes".
    enum class Unsaved { Save, Discard, Cancel };

    /// (title, folder, filter) -> the file to open; empty when cancelled.
    std::function<QString(const QString& title, const QString& dir, const QString& filter)>
        openFile;
    /// (title, suggested path, filters) -> the file to write; empty when cancelled. The filter
    /// the user picked is not needed: the file's extension says what to write.
    std::function<QString(const QString& title, const QString& suggested, const QString& filters)>
        saveFile;
    /// (script name) -> save, discard or cancel its unsaved changes.
    std::function<Unsaved(const QString& scriptName)> askUnsaved;
    /// (title, question) -> yes or no.
    std::function<bool(const QString& title, const QString& question)> askYesNo;
    /// (title, message): an error the user must see.
    std::function<void(const QString& title, const QString& message)> showError;

    /// The real dialogs, parented to `parent`.
    static Dialogs modal(QWidget* parent);
};

} // namespace bs::gui
