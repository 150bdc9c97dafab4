/// \file
/// Small statements over flat buffers that the cross-thread reduction (ComputeStmt.h) and its
/// device form (LowerThreadAllreduce.h) both write: a scoped allocation, and the loads and
/// stores of one element of each buffer of a tuple.
#pragma once

#include "ir/Op.h"
#include "ir/Stmt.h"

#include <string>
#include <vector>

namespace bs {

/// `// attr [buffer] storage_scope = "<scope>"` over `allocate buffer[type * size] { body }`.
inline Stmt allocateInScope(const Var& buffer, DataType type, int64_t size,
                            const std::string& scope, Stmt body) {
    return AttrStmtNode::make(buffer, attr::kStorageScope, StringImmNode::make(scope),
                              AllocateNode::make(buffer, type, {makeConst(DataType::int32(), size)},
                                                 makeBool(true), std::move(body)));
}

/// `buffers[i][index]`, of type `types[i]`, for each buffer.
inline std::vector<Expr> loadsAt(const std::vector<Var>& buffers,
                                 const std::vector<DataType>& types, const Expr& index) {
    std::vector<Expr> loads;
    for (size_t i = 0; i < buffers.size(); ++i)
        loads.push_back(LoadNode::make(types[i], buffers[i], index));
    return loads;
}

/// `buffers[i][index] = values[i]` for each buffer.
inline std::vector<Stmt> storesAt(const std::vector<Var>& buffers, const std::vector<Expr>& values,
                                  const Expr& index) {
    std::vector<Stmt> stores;
    for (size_t i = 0; i < buffers.size(); ++i)
        stores.push_back(StoreNode::make(buffers[i], values[i], index));
    return stores;
}

} // namespace bs
