/// \file
/// Engine values as the app's text: expressions, ranges, integer sets and IterVar names, the
/// way every table, panel and tooltip prints them.
#pragma once

#include "arith/IntSet.h"
#include "ir/Expr.h"

#include <QString>

#include <string>

namespace bs::gui {

QString qstr(const std::string& s);
/// `(i*8)`; `?` for an undefined expression.
QString exprText(const Expr& e);
/// `min=0, ext=8`; `undefined` for a range without a min.
QString rangeText(const Range& r);
QString intSetText(const IntSet& s);
/// The IterVar's variable name, `i.inner`; empty for an undefined IterVar.
QString iterVarName(const IterVar& iv);

} // namespace bs::gui
