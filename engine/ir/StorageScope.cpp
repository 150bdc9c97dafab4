#include "ir/StorageScope.h"

#include "ir/ThreadTag.h"
#include "support/Diagnostic.h"

namespace bs {

StorageScope StorageScope::create(const std::string& scope) {
    if (std::optional<StorageScope> s = parse(scope))
        return *s;
    throw UserError("unknown storage scope '" + scope +
                    "': expected global, shared, warp, local or wmma.*");
}

std::optional<StorageScope> StorageScope::parse(const std::string& scope) {
    StorageScope s;
    auto startsWith = [&scope](const char* prefix) { return scope.rfind(prefix, 0) == 0; };
    if (scope.empty() || startsWith("global")) {
        s.rank = StorageRank::Global;
        s.tag = scope.size() > 6 ? scope.substr(6) : "";
    } else if (startsWith("shared")) {
        s.rank = StorageRank::Shared;
        s.tag = scope.substr(6);
    } else if (startsWith("warp")) {
        s.rank = StorageRank::Warp;
        s.tag = scope.substr(4);
    } else if (startsWith("local")) {
        s.rank = StorageRank::Local;
        s.tag = scope.substr(5);
    } else if (scope == "wmma.matrix_a") {
        s.rank = StorageRank::WMMAMatrixA;
    } else if (scope == "wmma.matrix_b") {
        s.rank = StorageRank::WMMAMatrixB;
    } else if (scope == "wmma.accumulator") {
        s.rank = StorageRank::WMMAAccumulator;
    } else {
        return std::nullopt;
    }
    if (!s.tag.empty() && s.tag[0] != '.')
        return std::nullopt;
    return s;
}

StorageScope StorageScope::fromThreadRank(int threadRank) {
    StorageScope s;
    if (threadRank < 0)
        s.rank = StorageRank::Global;
    else if (threadRank == 0)
        s.rank = StorageRank::Shared;
    else
        s.rank = StorageRank::Local;
    return s;
}

std::string StorageScope::toString() const {
    switch (rank) {
    case StorageRank::Global:
        return "global" + tag;
    case StorageRank::Shared:
        return "shared" + tag;
    case StorageRank::Warp:
        return "warp" + tag;
    case StorageRank::Local:
        return "local" + tag;
    case StorageRank::WMMAMatrixA:
        return "wmma.matrix_a";
    case StorageRank::WMMAMatrixB:
        return "wmma.matrix_b";
    case StorageRank::WMMAAccumulator:
        return "wmma.accumulator";
    }
    return "global";
}

bool threadSharesStorage(const StorageScope& scope, const ThreadScope& thread) {
    if (scope.rank == StorageRank::Warp && thread.rank == 1 && thread.dimIndex == 0)
        return true;
    return int(scope.rank) <= thread.rank;
}

bool threadSharesStorage(const std::string& scope, const std::string& tag) {
    return scope.empty() ||
           threadSharesStorage(StorageScope::create(scope), ThreadScope::create(tag));
}

bool isValidThreadTag(const std::string& tag) {
    return threadTagIndex(tag) >= 0 || tag == "cthread" || tag.rfind("vthread", 0) == 0;
}

ThreadScope ThreadScope::create(const std::string& tag) {
    if (!isValidThreadTag(tag))
        throw UserError("unknown thread tag '" + tag +
                        "': expected blockIdx.x/y/z, threadIdx.x/y/z, vthread or cthread");
    // kThreadTags: blockIdx.x/y/z (rank 0), then threadIdx.x/y/z (rank 1).
    const int index = threadTagIndex(tag);
    if (index < 0)
        return ThreadScope{1, -1}; // a virtual thread
    return ThreadScope{index / 3, index % 3};
}

} // namespace bs
