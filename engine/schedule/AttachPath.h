/// \file
/// A stage's attach path (seed 000, "Attach Paths"; notes section 2): the loops it runs inside,
/// innermost first. Paths are copied into every step, visit and trace that names them, and a
/// nest of N attached stages has paths up to N loops long, so a path is immutable and shared by
/// its copies: copying one costs a reference count, not N IterVars. A path also knows the path
/// it continues (that of the stage it is computed in), so what is derived from paths can be
/// built once per stage from the outer path's, instead of once per loop.
///
/// The loops are stored outermost first, and a path that continues another stores its own
/// segment after the outer path's loops, in the same storage when the Builder that made that
/// storage extends it and no other path has extended it yet: a chain of N nested stages stores
/// N loops in all, not N^2 / 2.
#pragma once

#include "ir/Expr.h"

#include <atomic>
#include <cstdint>
#include <iterator>
#include <memory>
#include <vector>

namespace bs {

class AttachPath {
public:
    /// Walks the loops innermost first.
    using const_iterator = std::reverse_iterator<const IterVar*>;
    /// Walks the loops outermost first.
    using const_reverse_iterator = const IterVar*;

    AttachPath() = default;
    /// A path of `loops` (innermost first) alone: no outer path.
    AttachPath(const std::vector<IterVar>& loops) : AttachPath(loops, AttachPath()) {}
    /// `segment` (innermost first) followed by `outer`'s loops: the path of a stage computed in
    /// a stage whose own path is `outer`. The loops are copied; a Builder shares them.
    AttachPath(const std::vector<IterVar>& segment, const AttachPath& outer);

    /// Builds the paths of one schedule: a path it continues with Builder::continuing shares
    /// the outer path's storage when this builder made it and nothing follows its loops there
    /// yet (the next path continuing it copies them). Appending can move that storage, so the
    /// builder's paths go to other threads only once it is done with them.
    class Builder {
    public:
        Builder();
        AttachPath continuing(const std::vector<IterVar>& segment, const AttachPath& outer) const;

    private:
        uint64_t m_id;
    };

    /// The loops, innermost first (a copy: walk the path itself where a copy is not needed).
    std::vector<IterVar> loops() const { return std::vector<IterVar>(begin(), end()); }
    /// The path this one continues: its loops are the last ones of this path.
    AttachPath outer() const;
    /// How many loops come before the outer path's.
    size_t segmentSize() const { return m_rep ? m_rep->segment : 0; }
    /// Identifies the path: copies share it (null for the empty path).
    const void* id() const { return m_rep.get(); }

    size_t size() const { return m_rep ? m_rep->length : 0; }
    bool empty() const { return size() == 0; }
    /// Loop `i`, counted from the innermost.
    const IterVar& operator[](size_t i) const { return outermost()[size() - 1 - i]; }
    const IterVar& front() const { return (*this)[0]; }
    const IterVar& back() const { return outermost()[0]; }
    const_iterator begin() const { return const_iterator(outermost() + size()); }
    const_iterator end() const { return const_iterator(outermost()); }
    const_reverse_iterator rbegin() const { return outermost(); }
    const_reverse_iterator rend() const { return outermost() + size(); }

private:
    struct Storage {
        std::vector<IterVar> loops; ///< outermost first
        uint64_t builder = 0;       ///< the Builder that may append to it; 0: none
    };
    struct Rep {
        std::shared_ptr<Storage> storage; ///< shared along a chain built by one Builder
        size_t length = 0;                ///< this path's loops: storage->loops[0, length)
        size_t segment = 0;
        std::shared_ptr<const Rep> outer;
    };
    AttachPath(const std::vector<IterVar>& segment, const AttachPath& outer, uint64_t builder);
    explicit AttachPath(std::shared_ptr<const Rep> rep) : m_rep(std::move(rep)) {}
    const IterVar* outermost() const { return m_rep ? m_rep->storage->loops.data() : nullptr; }
    std::shared_ptr<const Rep> m_rep;
};

inline AttachPath::AttachPath(const std::vector<IterVar>& segment, const AttachPath& outer)
    : AttachPath(segment, outer, 0) {}

inline AttachPath::AttachPath(const std::vector<IterVar>& segment, const AttachPath& outer,
                              uint64_t builder) {
    if (segment.empty() && outer.empty())
        return;
    if (segment.empty()) {
        m_rep = std::make_shared<const Rep>(
            Rep{outer.m_rep->storage, outer.m_rep->length, 0, outer.m_rep});
        return;
    }
    std::shared_ptr<Storage> storage;
    if (builder != 0 && outer.m_rep && outer.m_rep->storage->builder == builder &&
        outer.m_rep->storage->loops.size() == outer.size()) {
        storage = outer.m_rep->storage; // nothing follows outer's loops yet: extend in place
    } else {
        storage = std::make_shared<Storage>(
            Storage{std::vector<IterVar>(outer.rbegin(), outer.rend()), builder});
    }
    storage->loops.insert(storage->loops.end(), segment.rbegin(), segment.rend());
    const size_t length = storage->loops.size();
    m_rep =
        std::make_shared<const Rep>(Rep{std::move(storage), length, segment.size(), outer.m_rep});
}

inline AttachPath::Builder::Builder() {
    static std::atomic<uint64_t> made{0};
    m_id = ++made;
}

inline AttachPath AttachPath::Builder::continuing(const std::vector<IterVar>& segment,
                                                  const AttachPath& outer) const {
    return AttachPath(segment, outer, m_id);
}

inline AttachPath AttachPath::outer() const {
    return m_rep ? AttachPath(m_rep->outer) : AttachPath();
}

/// `path` and the paths it continues that `built(id)` says are not built yet, outermost first:
/// what is derived from a path is built from its outer path's, once per path.
template <typename Built>
std::vector<AttachPath> pathsToBuild(const AttachPath& path, Built built) {
    std::vector<AttachPath> chain;
    for (AttachPath p = path; p.id() && !built(p.id()); p = p.outer())
        chain.push_back(p);
    return std::vector<AttachPath>(chain.rbegin(), chain.rend());
}

} // namespace bs
