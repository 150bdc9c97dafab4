#include "models/EngineText.h"

#include "ir/Printer.h"

namespace bs::gui {

QString qstr(const std::string& s) { return QString::fromStdString(s); }

QString exprText(const Expr& e) { return e.defined() ? qstr(toString(e)) : QStringLiteral("?"); }

QString rangeText(const Range& r) {
    if (!r.defined())
        return QStringLiteral("undefined");
    return QStringLiteral("min=%1, ext=%2").arg(exprText(r.min), exprText(r.extent));
}

QString intSetText(const IntSet& s) { return qstr(s.toString()); }

QString iterVarName(const IterVar& iv) { return iv.defined() ? qstr(iv->var.name()) : QString(); }

} // namespace bs::gui
