#include "edit/PythonNames.h"

#include "te/Operation.h"

#include <QRegularExpression>

namespace bs::gui {

namespace {

bool isIdentifier(const QString &text) {
    static const QRegularExpression kIdentifier(QStringLiteral("^[A-Za-z_]\\w*$"));
    return kIdentifier.match(text).hasMatch();
}

bool isKeyword(const QString &word) {
    static const QSet<QString> kKeywords = {
        "False",   "None",     "True",     "and",    "as",    "assert", "async",  "await",
        "break",   "class",    "continue", "def",    "del",   "elif",   "else",   "except",
        "finally", "for",      "from",     "global", "if",    "import", "in",     "is",
        "lambda",  "nonlocal", "not",      "or",     "pass",  "raise",  "return", "try",
        "while",   "with",     "yield",    "print",  "range", "len",    "list",   "tuple"};
    return kKeywords.contains(word);
}

/// Tracks strings and brackets across the characters of a statement, so `=` inside a call's
/// keyword arguments or inside a string is not taken for an assignment.
struct Scanner {
    int depth = 0;
    QChar quote;         ///< the open string's quote character, or null
    bool triple = false; ///< the open string is triple-quoted

    /// Advances over `text[i]` (and its string delimiters); returns false for characters that
    /// are inside a string or a comment (the rest of the line after `#`).
    bool step(const QString &text, int &i) {
        const QChar c = text[i];
        if (!quote.isNull()) {
            if (c == QLatin1Char('\\')) {
                ++i;
            } else if (c == quote && (!triple || text.mid(i, 3) == QString(3, quote))) {
                i += triple ? 2 : 0;
                quote = QChar();
            }
            return false;
        }
        if (c == QLatin1Char('"') || c == QLatin1Char('\'')) {
            quote = c;
            triple = text.mid(i, 3) == QString(3, c);
            i += triple ? 2 : 0;
            return false;
        }
        if (c == QLatin1Char('#')) {
            i = int(text.size());
            return false;
        }
        if (c == QLatin1Char('(') || c == QLatin1Char('[') || c == QLatin1Char('{'))
            ++depth;
        else if (c == QLatin1Char(')') || c == QLatin1Char(']') || c == QLatin1Char('}'))
            depth = qMax(0, depth - 1);
        return true;
    }
};

/// The positions of the top-level assignment `=` signs of `statement` (plain or augmented).
QList<int> assignmentSigns(const QString &statement, bool *augmented) {
    QList<int> signs;
    Scanner scanner;
    *augmented = false;
    for (int i = 0; i < statement.size(); ++i) {
        if (!scanner.step(statement, i) || scanner.depth > 0 || statement[i] != QLatin1Char('='))
            continue;
        const QChar before = i > 0 ? statement[i - 1] : QChar();
        const QChar after = i + 1 < statement.size() ? statement[i + 1] : QChar();
        if (after == QLatin1Char('=')) {
            ++i; // `==`
            continue;
        }
        if (before == QLatin1Char('=') || before == QLatin1Char('!'))
            continue; // `!=`
        if (before == QLatin1Char('<') || before == QLatin1Char('>')) {
            if (i < 2 || statement[i - 2] != before)
                continue; // `<=`, `>=`; `<<=` and `>>=` assign
        }
        if (QStringLiteral("+-*/%&|^@<>").contains(before))
            *augmented = true;
        signs << i;
    }
    return signs;
}

/// `a, (b, c)` -> a, b, c; `x.y` or `a[0]` (which rebind no name) -> nothing.
QStringList namesOfTarget(QString target) {
    target.replace(QRegularExpression(QStringLiteral("[()\\[\\]*]")), QStringLiteral(" "));
    QStringList names;
    for (const QString &part : target.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString name = part.trimmed();
        if (isIdentifier(name))
            names << name;
    }
    return names;
}

/// The plain targets of an `=` statement (`xo, xi = ...`), and its right-hand side.
QStringList plainTargets(const QString &statement, QString *rhs) {
    bool augmented = false;
    const QList<int> signs = assignmentSigns(statement, &augmented);
    if (signs.isEmpty() || augmented)
        return {};
    const QString target = statement.left(signs.first());
    // A target with attributes or subscripts does not name the value.
    if (target.contains(QLatin1Char('.')) || target.contains(QLatin1Char('[')))
        return {};
    *rhs = statement.mid(signs.last() + 1).trimmed();
    return namesOfTarget(target);
}

} // namespace

QStringList assignedNames(const QString &statement) {
    const QString text = statement.trimmed();
    static const QRegularExpression kFor(QStringLiteral("^(?:async\\s+)?for\\s+(.+?)\\s+in\\b"));
    static const QRegularExpression kDef(QStringLiteral("^(?:async\\s+)?(?:def|class)\\s+(\\w+)"));
    static const QRegularExpression kAs(QStringLiteral("\\bas\\s+(\\w+)"));
    static const QRegularExpression kImport(
        QStringLiteral("^(?:from\\s+\\S+\\s+)?import\\s+(.+)$"));
    if (auto m = kFor.match(text); m.hasMatch())
        return namesOfTarget(m.captured(1));
    if (auto m = kDef.match(text); m.hasMatch())
        return {m.captured(1)};
    QStringList names;
    if (auto m = kImport.match(text); m.hasMatch()) {
        for (const QString &item : m.captured(1).split(QLatin1Char(','))) {
            const QStringList words = item.simplified().remove(QLatin1Char('(')).split(' ');
            names << words.last().section(QLatin1Char('.'), 0, 0);
        }
        return names;
    }
    for (auto it = kAs.globalMatch(text); it.hasNext();)
        names << it.next().captured(1);
    bool augmented = false;
    const QList<int> signs = assignmentSigns(text, &augmented);
    int from = 0;
    for (int sign : signs) {
        static const QRegularExpression kOperator(QStringLiteral("[-+*/%&|^@<>]+\\s*$"));
        names << namesOfTarget(text.mid(from, sign - from).remove(kOperator));
        from = sign + 1;
    }
    return names;
}

PythonNames::PythonNames(const QString &script, const Program &program)
    : m_lines(script.split(QLatin1Char('\n'))), m_sch(program.schedule) {
    // Logical statements: a line starts one unless a bracket, a triple-quoted string or a
    // backslash continues the previous one.
    Scanner scanner;
    int start = 0;
    bool continued = false;
    for (int line = 0; line < m_lines.size(); ++line) {
        if (scanner.depth == 0 && scanner.quote.isNull() && !continued)
            start = line;
        m_statementOf << start;
        const QString &text = m_lines[line];
        for (int i = 0; i < text.size(); ++i)
            scanner.step(text, i);
        if (!scanner.quote.isNull() && !scanner.triple)
            scanner.quote = QChar(); // an unterminated one-line string: a syntax error anyway
        continued = text.endsWith(QLatin1Char('\\'));
    }
    static const QRegularExpression kWord(QStringLiteral("[A-Za-z_]\\w*"));
    for (auto it = kWord.globalMatch(script); it.hasNext();)
        m_identifiers.insert(it.next().captured(0));
    if (m_sch.defined() && m_sch->location.known())
        m_schedule = finalTarget(m_sch->location.line, 0, 1);
}

int PythonNames::statementStart(int line) const {
    if (line < 1 || line > m_statementOf.size())
        return -1;
    return m_statementOf[line - 1];
}

QStringList PythonNames::targetsAt(int line) const {
    const int start = statementStart(line);
    if (start < 0 || m_lines[start].isEmpty() || m_lines[start][0].isSpace())
        return {};
    QStringList text;
    for (int i = start; i < m_lines.size() && m_statementOf[i] == start; ++i)
        text << m_lines[i];
    QString rhs;
    return plainTargets(text.join(QLatin1Char('\n')), &rhs);
}

bool PythonNames::reassignedAfter(const QString &name, int start) const {
    for (int i = start + 1; i < m_lines.size(); ++i) {
        if (m_statementOf[i] != i)
            continue;
        QStringList text;
        for (int j = i; j < m_lines.size() && m_statementOf[j] == i; ++j)
            text << m_lines[j];
        if (assignedNames(text.join(QLatin1Char('\n'))).contains(name))
            return true;
    }
    return false;
}

std::optional<QString> PythonNames::finalTarget(int line, int index, int count) const {
    const QStringList targets = targetsAt(line);
    if (targets.size() != count || reassignedAfter(targets[index], statementStart(line)))
        return std::nullopt;
    return targets[index];
}

QString PythonNames::tensor(const Stage &stage) const {
    // A name is the tensor of the stage's current operation only while no rewrite replaced it
    // (cache_write and rfactor give the stage a new operation).
    const Operation &origin = stage->originOp;
    if (stage->op.same_as(origin) && origin->location.known()) {
        if (auto name = finalTarget(origin->location.line, 0, 1))
            return *name;
    }
    const auto &stages = m_sch.stages();
    const auto index = std::find_if(stages.begin(), stages.end(),
                                    [&](const Stage &s) { return s.same_as(stage); }) -
                       stages.begin();
    return QStringLiteral("%1.stages[%2].op.output(0)").arg(scheduleExpr()).arg(index);
}

QString PythonNames::stage(const Stage &stage) const {
    // s[T] finds a stage by the operation it was created for, so the original tensor's name
    // still reaches a stage whose operation a rewrite replaced.
    const Operation &origin = stage->originOp;
    if (origin->location.known()) {
        if (auto name = finalTarget(origin->location.line, 0, 1))
            return QStringLiteral("%1[%2]").arg(scheduleExpr(), *name);
    }
    const QString tensorExpr = tensor(stage);
    if (tensorExpr.endsWith(QLatin1String(".op.output(0)")))
        return tensorExpr.chopped(int(QStringLiteral(".op.output(0)").size()));
    return QStringLiteral("%1[%2]").arg(scheduleExpr(), tensorExpr);
}

std::optional<QString> PythonNames::rootAxisName(const Stage &stage, const IterVar &iv) const {
    const auto *compute = stage->op.as<ComputeOpNode>();
    if (!compute || !stage->op.same_as(stage->originOp))
        return std::nullopt;
    const std::vector<IterVar> *axes = &compute->axis;
    QString field = QStringLiteral("axis");
    auto it =
        std::find_if(axes->begin(), axes->end(), [&](const IterVar &a) { return a.same_as(iv); });
    if (it == axes->end()) {
        axes = &compute->reduceAxis;
        field = QStringLiteral("reduce_axis");
        it = std::find_if(axes->begin(), axes->end(),
                          [&](const IterVar &a) { return a.same_as(iv); });
        if (it == axes->end())
            return std::nullopt;
    }
    // `i, j = C.op.axis` or `i, j = s[C].op.axis` at the top level.
    const QString tensorName = tensor(stage);
    const QString wanted1 = QStringLiteral("%1.op.%2").arg(tensorName, field);
    const QString wanted2 = QStringLiteral("%1.op.%2").arg(this->stage(stage), field);
    for (int i = 0; i < m_lines.size(); ++i) {
        if (m_statementOf[i] != i)
            continue;
        QString rhs;
        const QStringList targets = plainTargets(m_lines[i], &rhs);
        if (rhs.remove(QLatin1Char(' ')) != wanted1 && rhs != wanted2)
            continue;
        if (auto name = finalTarget(i + 1, int(it - axes->begin()), int(axes->size())))
            return name;
    }
    return std::nullopt;
}

QString PythonNames::iterVar(const Stage &stage, const IterVar &iv) const {
    const int line = iv->location.line;
    for (const IterVarRelation &rel : stage->relations) {
        if (const auto *split = rel.as<SplitNode>()) {
            if (split->outer.same_as(iv) || split->inner.same_as(iv)) {
                if (auto name = finalTarget(line, split->outer.same_as(iv) ? 0 : 1, 2);
                    name && m_lines[statementStart(line)].contains(QLatin1String(".split(")))
                    return *name;
            }
        } else if (const auto *fuse = rel.as<FuseNode>(); fuse && fuse->fused.same_as(iv)) {
            if (auto name = finalTarget(line, 0, 1);
                name && m_lines[statementStart(line)].contains(QLatin1String(".fuse(")))
                return *name;
        }
    }
    if (auto name = rootAxisName(stage, iv))
        return *name;
    const QString stageExpr = this->stage(stage);
    if (const auto *compute = stage->op.as<ComputeOpNode>()) {
        for (size_t k = 0; k < compute->axis.size(); ++k) {
            if (compute->axis[k].same_as(iv))
                return QStringLiteral("%1.op.axis[%2]").arg(stageExpr).arg(k);
        }
        for (size_t k = 0; k < compute->reduceAxis.size(); ++k) {
            if (!compute->reduceAxis[k].same_as(iv))
                continue;
            // `k = te.reduce_axis((0, K), name="k")`, unless made inline in the compute.
            const int start = statementStart(line);
            if (start >= 0 && m_lines[start].contains(QLatin1String("reduce_axis(")) &&
                !m_lines[start].contains(QLatin1String("compute("))) {
                if (auto name = finalTarget(line, 0, 1))
                    return *name;
            }
            return QStringLiteral("%1.op.reduce_axis[%2]").arg(stageExpr).arg(k);
        }
    }
    if (const auto *scan = stage->op.as<ScanOpNode>(); scan && scan->scanAxis.same_as(iv))
        return QStringLiteral("%1.op.scan_axis").arg(stageExpr);
    const int leaf = stage.leafIndex(iv);
    if (leaf < 0)
        return QString();
    return QStringLiteral("%1.leaf_iter_vars[%2]").arg(stageExpr).arg(leaf);
}

QString PythonNames::threadAxis(const QString &tag, bool *needsImport) const {
    *needsImport = false;
    const QRegularExpression made(
        QStringLiteral("^(?:tvm\\.te\\.|tvm\\.|te\\.)?thread_axis\\(\\s*[\"']%1[\"']\\s*\\)$")
            .arg(QRegularExpression::escape(tag)));
    const QRegularExpression fromTvm(QStringLiteral("^from\\s+tvm\\s+import\\s+.*\\bte\\b"));
    const QRegularExpression importTvm(QStringLiteral("^import\\s+tvm\\s*(?:$|#|,)"));
    QString module;
    for (int i = 0; i < m_lines.size(); ++i) {
        if (m_statementOf[i] != i)
            continue;
        QString rhs;
        const QStringList targets = plainTargets(m_lines[i], &rhs);
        if (targets.size() == 1 && made.match(rhs).hasMatch() && !reassignedAfter(targets[0], i))
            return targets[0];
        if (fromTvm.match(m_lines[i]).hasMatch() && !reassignedAfter(QStringLiteral("te"), i))
            module = QStringLiteral("te");
        else if (module.isEmpty() && importTvm.match(m_lines[i]).hasMatch() &&
                 !reassignedAfter(QStringLiteral("tvm"), i))
            module = QStringLiteral("tvm.te");
    }
    if (module.isEmpty()) {
        *needsImport = true;
        module = QStringLiteral("tvm.te");
    }
    return QStringLiteral("%1.thread_axis(\"%2\")").arg(module, tag);
}

QString PythonNames::freshName(const QString &base) const {
    QString name = base;
    name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_]+")), QStringLiteral("_"));
    if (name.isEmpty() || name[0].isDigit())
        name.prepend(QLatin1Char('v'));
    QString candidate = name;
    for (int n = 2; m_identifiers.contains(candidate) || m_handedOut.contains(candidate) ||
                    isKeyword(candidate);
         ++n)
        candidate = QStringLiteral("%1_%2").arg(name).arg(n);
    m_handedOut.insert(candidate);
    return candidate;
}

} // namespace bs::gui
