/// \file
/// The statements that bind a thread: `// attr [iter_var(threadIdx.x, ...)] thread_extent = n`
/// and `virtual_thread`, whose node is the thread's IterVar. Passes that scope variables or
/// loops treat them like loops over that IterVar's variable.
#pragma once

#include "ir/Stmt.h"

namespace bs {

/// The IterVar a `thread_extent` or `virtual_thread` attr binds; null for any other attr (and
/// for one of those keys on a node that is not an IterVar).
inline const IterVarNode* boundThread(const AttrStmtNode& op) {
    if (op.key != attr::kThreadExtent && op.key != attr::kVirtualThread)
        return nullptr;
    return op.node.as<IterVarNode>();
}

} // namespace bs
