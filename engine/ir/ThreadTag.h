/// \file
/// The GPU launch axes a loop can be bound to, in one fixed order: grid (block indices) first,
/// then block (thread indices). A kernel's launch extents are in this order (lower/
/// SplitHostDevice), and so are the interpreter's GPU emulation's.
#pragma once

#include <array>
#include <string>

namespace bs {

inline constexpr std::array<const char*, 6> kThreadTags = {
    "blockIdx.x", "blockIdx.y", "blockIdx.z", "threadIdx.x", "threadIdx.y", "threadIdx.z"};

/// The position of `tag` in kThreadTags, or -1 for any other tag (`vthread`, ...).
inline int threadTagIndex(const std::string& tag) {
    for (size_t i = 0; i < kThreadTags.size(); ++i)
        if (tag == kThreadTags[i])
            return int(i);
    return -1;
}

/// `threadIdx.x` -> 0, `.y` -> 1, `.z` -> 2; -1 for any other tag.
inline int threadIdxDim(const std::string& tag) {
    const int index = threadTagIndex(tag);
    return index >= 3 ? index - 3 : -1;
}

} // namespace bs
