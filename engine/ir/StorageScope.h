/// \file
/// Storage scopes and thread scopes, ranked as TVM ranks them (runtime/thread_storage_scope.h):
/// storage global 0 < shared 1 < warp 2 < local 3; threads blockIdx.* rank 0,
/// threadIdx.* / vthread / cthread rank 1. InferBound relaxes a thread axis when the storage is
/// shared by that axis' threads (storage rank <= thread rank).
#pragma once

#include <array>
#include <optional>
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
    /// The same, nullopt for anything else.
    static std::optional<StorageScope> parse(const std::string& scope);
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

/// The storage scopes a stage can be given (set_scope), without tags.
inline constexpr std::array<const char*, 7> kStorageScopeNames = {
    "global", "shared", "local", "warp", "wmma.matrix_a", "wmma.matrix_b", "wmma.accumulator"};

/// Whether the units of thread scope `thread` share one buffer of storage `scope` (TVM's rule,
/// the same in NeedRelax and MakeLoopNest, notes sections 4 and 8): storage at or below the
/// thread's rank (shared storage and threadIdx; global storage and anything), and warp storage
/// and threadIdx.x, the lanes of a warp. TVM takes threadIdx.y and .z as different warps, and
/// warns when they index warp storage.
bool threadSharesStorage(const StorageScope& scope, const ThreadScope& thread);
/// MakeLoopNest's use of it: a stage's loop bound to thread `tag` takes the thread's variable
/// when the units share the stage's storage `scope` (none set counts as shared), each unit
/// computing its part; otherwise (local storage and threadIdx, shared storage and blockIdx)
/// the loop stands at its min and every unit computes the whole region into its own copy.
/// Throws UserError for a scope or tag that is neither.
bool threadSharesStorage(const std::string& scope, const std::string& tag);

/// True for tags a loop can be bound to (`blockIdx.[xyz]`, `threadIdx.[xyz]`, `vthread`, ...).
bool isValidThreadTag(const std::string& tag);

} // namespace bs
