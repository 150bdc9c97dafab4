#include "Dialogs.h"

#include <QFileDialog>
#include <QMessageBox>

namespace bs::gui {

Dialogs Dialogs::modal(QWidget* parent) {
    Dialogs dialogs;
    dialogs.openFile = [parent](const QString& title, const QString& dir, const QString& filter) {
        return QFileDialog::getOpenFileName(parent, title, dir, filter);
    };
    dialogs.saveFile = [parent](const QString& title, const QString& suggested,
                                const QString& filters) {
        return QFileDialog::getSaveFileName(parent, title, suggested, filters);
    };
    dialogs.askUnsaved = [parent](const QString& scriptName) {
        const auto answer = QMessageBox::warning(
            parent, QObject::tr("Unsaved Changes"),
            QObject::tr("%1 has unsaved changes. Save them first?").arg(scriptName),
            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
        if (answer == QMessageBox::Save)
            return Unsaved::Save;
        return answer == QMessageBox::Discard ? Unsaved::Discard : Unsaved::Cancel;
    };
    dialogs.askYesNo = [parent](const QString& title, const QString& question) {
        return QMessageBox::question(parent, title, question, QMessageBox::Yes | QMessageBox::No,
                                     QMessageBox::Yes) == QMessageBox::Yes;
    };
    dialogs.showError = [parent](const QString& title, const QString& message) {
        QMessageBox::warning(parent, title, message);
    };
    return dialogs;
}

} // namespace bs::gui
