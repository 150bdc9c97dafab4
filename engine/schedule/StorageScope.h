/// \file
/// Storage scopes and thread scopes, ranked as TVM ranks them (runtime/thread_storage_scope.h):
/// storage global 0 < shared 1 < warp 2 < local 3; threads blockIdx.* rank 0,
/// threadIdx.* / vthread / cthread rank 1. InferBound relaxes a thread axis when the storage is
/// shared by that axis' threads (storage rank <= thread rank).
#pragma once

#include <string>

namespace bs {

enum class StorageRank {
    Global = 0,
    Shared = 1,
    Warp = 2,
    Local = 3,
    WMMAMatrixA = 4,
    WMMAMatrixB = 5,
    WMMAAccumulator = 6
};

struct StorageScope {
    StorageRank rank = StorageRank::Global;
    std::string tag; ///< a suffix such as `.dyn` in `shared.dyn`

    /// Parses `global`, `shared`, `shared.dyn`, `warp`, `local`, `wmma.*`; "" is global.
    /// Throws UserError for anything else.
    static StorageScope create(const std::string& scope);
    /// TVM's DefaultStorageRank: no thread -> global, blockIdx -> shared, threadIdx -> local.
    static StorageScope fromThreadRank(int threadRank);
    std::string toString() const;
};

struct ThreadScope {
    int rank = 0;     ///< 0 for blocks, 1 for threads
    int dimIndex = 0; ///< x = 0, y = 1, z = 2; -1 for vthread/cthread

    /// Parses `blockIdx.x`, `threadIdx.y`, `vthread`, `cthread`; throws UserError otherwise.
    static ThreadScope create(const std::string& tag);
};

/// True for tags a loop can be bound to (`blockIdx.[xyz]`, `threadIdx.[xyz]`, `vthread`, ...).
bool isValidThreadTag(const std::string& tag);

} // namespace bs
