#include "edit/StageDialog.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QCompleter>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QKeyEvent>
#include <QRegularExpression>
#include <QStringListModel>

namespace bs::gui {

using script::NewStage;

std::vector<std::string> splitList(const QString& text) {
    std::vector<std::string> items;
    for (const QString& item : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        if (!item.trimmed().isEmpty())
            items.push_back(item.trimmed().toStdString());
    }
    return items;
}

WordCompletingEdit::WordCompletingEdit(QWidget* parent)
    : QLineEdit(parent), m_completer(new QCompleter(this)), m_words(new QStringListModel(this)) {
    m_completer->setModel(m_words);
    m_completer->setWidget(this);
    m_completer->setCaseSensitivity(Qt::CaseSensitive);
    m_completer->setCompletionMode(QCompleter::PopupCompletion);
    connect(m_completer, qOverload<const QString&>(&QCompleter::activated), this,
            &WordCompletingEdit::insertCompletion);
    connect(this, &QLineEdit::textEdited, this, [this] {
        const QString word = currentWord();
        if (word.isEmpty()) {
            m_completer->popup()->hide();
            return;
        }
        m_completer->setCompletionPrefix(word);
        if (m_completer->completionCount() > 0 &&
            !(m_completer->completionCount() == 1 && m_completer->currentCompletion() == word))
            m_completer->complete();
        else
            m_completer->popup()->hide();
    });
}

void WordCompletingEdit::setWords(const QStringList& words) { m_words->setStringList(words); }

QString WordCompletingEdit::currentWord() const {
    static const QRegularExpression kWordEnd(QStringLiteral("[A-Za-z_]\\w*$"));
    const QRegularExpressionMatch m = kWordEnd.match(text().left(cursorPosition()));
    return m.hasMatch() ? m.captured(0) : QString();
}

void WordCompletingEdit::insertCompletion(const QString& word) {
    const int end = cursorPosition();
    const int begin = end - int(currentWord().size());
    setText(text().left(begin) + word + text().mid(end));
    setCursorPosition(begin + int(word.size()));
}

void WordCompletingEdit::keyPressEvent(QKeyEvent* event) {
    // Enter and Tab take the completion while the list is open.
    if (m_completer->popup()->isVisible()) {
        switch (event->key()) {
        case Qt::Key_Enter:
        case Qt::Key_Return:
        case Qt::Key_Tab:
        case Qt::Key_Escape:
            event->ignore();
            return;
        default:
            break;
        }
    }
    QLineEdit::keyPressEvent(event);
}

StageDialog::StageDialog(NewStage::Kind kind, const QStringList& tensors, QWidget* parent)
    : QDialog(parent), m_kind(kind), m_tensors(tensors), m_name(new QLineEdit(this)),
      m_shape(new QLineEdit(this)) {
    auto* form = new QFormLayout(this);
    setWindowTitle(kind == NewStage::Kind::Placeholder ? tr("Add Placeholder")
                   : kind == NewStage::Kind::Compute   ? tr("Add Compute Stage")
                                                       : tr("Add Reduction"));
    form->addRow(tr("&Name:"), m_name);
    m_shape->setPlaceholderText(tr("64, 64"));
    form->addRow(tr("&Shape:"), m_shape);
    if (kind == NewStage::Kind::Placeholder) {
        m_dtype = new QComboBox(this);
        m_dtype->setEditable(true);
        m_dtype->addItems({QStringLiteral("float32"), QStringLiteral("float16"),
                           QStringLiteral("float64"), QStringLiteral("int32"),
                           QStringLiteral("int8")});
        form->addRow(tr("&Type:"), m_dtype);
    } else {
        m_axes = new QLineEdit(this);
        m_axes->setPlaceholderText(tr("i, j (one per dimension)"));
        form->addRow(tr("&Axes:"), m_axes);
        m_body = new WordCompletingEdit(this);
        m_body->setPlaceholderText(kind == NewStage::Kind::Compute ? tr("A[i, j] * 2")
                                                                   : tr("A[i, k] * B[k, j]"));
        form->addRow(kind == NewStage::Kind::Compute ? tr("&Expression:")
                                                     : tr("Reduced &expression:"),
                     m_body);
        connect(m_axes, &QLineEdit::textChanged, this, &StageDialog::updateCompletions);
        connect(m_shape, &QLineEdit::textChanged, this, &StageDialog::updateCompletions);
    }
    if (kind == NewStage::Kind::Reduction) {
        m_reduceAxes = new QLineEdit(this);
        m_reduceAxes->setPlaceholderText(tr("k: 64 (name: extent, ...)"));
        form->addRow(tr("Reduce a&xes:"), m_reduceAxes);
        m_reducer = new QComboBox(this);
        m_reducer->addItems({QStringLiteral("sum"), QStringLiteral("max"), QStringLiteral("min")});
        form->addRow(tr("Re&ducer:"), m_reducer);
        connect(m_reduceAxes, &QLineEdit::textChanged, this, &StageDialog::updateCompletions);
    }
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
    setMinimumWidth(460);
    updateCompletions();
}

void StageDialog::updateCompletions() {
    if (!m_body)
        return;
    QStringList words = m_tensors;
    const NewStage current = stage();
    for (const std::string& axis : current.axes)
        words << QString::fromStdString(axis);
    for (const auto& [axis, extent] : current.reduceAxes)
        words << QString::fromStdString(axis);
    words.removeDuplicates();
    words.sort();
    m_body->setWords(words);
}

NewStage StageDialog::stage() const {
    NewStage stage;
    stage.kind = m_kind;
    stage.name = m_name->text().trimmed().toStdString();
    stage.shape = splitList(m_shape->text());
    if (m_dtype)
        stage.dtype = m_dtype->currentText().trimmed().toStdString();
    if (m_axes) {
        stage.axes = splitList(m_axes->text());
        if (stage.axes.empty())
            stage.axes = script::defaultAxes(stage.shape.size());
    }
    if (m_body)
        stage.body = m_body->text().trimmed().toStdString();
    if (m_reduceAxes) {
        for (const std::string& item : splitList(m_reduceAxes->text())) {
            const size_t colon = item.find(':');
            const auto trim = [](std::string s) {
                const size_t b = s.find_first_not_of(' ');
                return b == std::string::npos ? std::string()
                                              : s.substr(b, s.find_last_not_of(' ') - b + 1);
            };
            stage.reduceAxes.emplace_back(
                trim(item.substr(0, colon)),
                colon == std::string::npos ? std::string() : trim(item.substr(colon + 1)));
        }
    }
    if (m_reducer)
        stage.reducer = m_reducer->currentText().toStdString();
    return stage;
}

} // namespace bs::gui
