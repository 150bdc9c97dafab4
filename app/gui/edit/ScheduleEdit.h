/// \file
/// Schedule edits as the app names them. The engine resolves, checks, writes and places an edit
/// (script/edit/ScheduleEdit.h, the call `boundscope edit` makes too); the app only offers them
/// and shows their names in Qt strings.
#pragma once

#include "script/edit/ScheduleEdit.h"

#include <QString>
#include <QStringList>

namespace bs::gui {

using script::EditKind;
using script::isIterVarEdit;
using script::ScheduleEdit;

/// `split`, `fuse`, `reorder`, ..., as the Python method is called.
inline QString primitiveName(EditKind kind) {
    return QString::fromStdString(script::editKindName(kind));
}

inline QStringList toQStringList(const std::vector<std::string>& items) {
    QStringList list;
    for (const std::string& item : items)
        list << QString::fromStdString(item);
    return list;
}

/// The thread tags a loop can be bound to, in menu order.
inline QStringList threadTags() { return toQStringList(script::threadTags()); }
/// The storage scopes offered for set_scope and the caches.
inline QStringList storageScopes() { return toQStringList(script::storageScopes()); }

} // namespace bs::gui
