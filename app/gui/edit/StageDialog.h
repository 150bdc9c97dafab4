/// \file
/// The dialog that describes a new stage (issue 17, item 5): a placeholder (name, shape, element
/// type), a compute stage (name, shape, axis names and the expression over them and the other
/// tensors) or a reduction (also its reduce axes and reducer). The expression field completes
/// tensor and axis names as they are typed. The engine writes the stage into the script
/// (script/edit/StageEdit.h).
#pragma once

#include "script/edit/StageEdit.h"

#include <QDialog>
#include <QLineEdit>

class QComboBox;
class QCompleter;
class QLabel;
class QStringListModel;

namespace bs::gui {

/// A line edit that completes the word under the cursor from a list (tensor and axis names).
class WordCompletingEdit : public QLineEdit {
    Q_OBJECT
public:
    explicit WordCompletingEdit(QWidget* parent = nullptr);
    void setWords(const QStringList& words);
    QCompleter* completer() const { return m_completer; }
    /// The word before the cursor (what is being completed).
    QString currentWord() const;

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    void insertCompletion(const QString& word);

    QCompleter* m_completer;
    QStringListModel* m_words;
};

class StageDialog : public QDialog {
    Q_OBJECT
public:
    /// `tensors`: the names the expression may read.
    StageDialog(script::NewStage::Kind kind, const QStringList& tensors, QWidget* parent = nullptr);

    /// The stage as the fields describe it.
    script::NewStage stage() const;

    QLineEdit* nameEdit() const { return m_name; }
    QLineEdit* shapeEdit() const { return m_shape; }
    QLineEdit* axesEdit() const { return m_axes; }
    WordCompletingEdit* bodyEdit() const { return m_body; }
    QLineEdit* reduceAxesEdit() const { return m_reduceAxes; }

private:
    void updateCompletions();

    script::NewStage::Kind m_kind;
    QStringList m_tensors;
    QLineEdit* m_name;
    QLineEdit* m_shape;
    QComboBox* m_dtype = nullptr;
    QLineEdit* m_axes = nullptr;
    WordCompletingEdit* m_body = nullptr;
    QLineEdit* m_reduceAxes = nullptr;
    QComboBox* m_reducer = nullptr;
};

/// `64, n` -> {"64", "n"} (empty items dropped).
std::vector<std::string> splitList(const QString& text);

} // namespace bs::gui
