/// \file
/// A stage's attach path (seed 000, "Attach Paths"; notes section 2): the loops it runs inside,
/// innermost first. Paths are copied into every step, visit and trace that names them, and a
/// nest of N attached stages has paths up to N loops long, so a path is an immutable vector
/// shared by its copies: copying one costs a reference count, not N IterVars. A path also
/// knows the path it continues (that of the stage it is computed in), so what is derived from
/// paths can be built once per stage from the outer path's, instead of once per loop.
#pragma once

#include "ir/Expr.h"

#include <memory>
#include <vector>

namespace bs {

class AttachPath {
public:
    using const_iterator = std::vector<IterVar>::const_iterator;
    using const_reverse_iterator = std::vector<IterVar>::const_reverse_iterator;

    AttachPath() = default;
    /// A path of `loops` alone (no outer path).
    AttachPath(std::vector<IterVar> loops) : AttachPath(std::move(loops), AttachPath()) {}
    /// `segment` (innermost first) followed by `outer`'s loops: the path of a stage computed in
    /// a stage whose own path is `outer`.
    AttachPath(std::vector<IterVar> segment, const AttachPath& outer);

    /// The loops, innermost first.
    const std::vector<IterVar>& loops() const;
    operator const std::vector<IterVar>&() const { return loops(); }
    /// The path this one continues: its loops are the last ones of this path.
    AttachPath outer() const;
    /// How many loops come before the outer path's.
    size_t segmentSize() const;
    /// Identifies the path: copies share it (null for the empty path).
    const void* id() const { return m_rep.get(); }

    size_t size() const { return loops().size(); }
    bool empty() const { return loops().empty(); }
    const IterVar& operator[](size_t i) const { return loops()[i]; }
    const IterVar& front() const { return loops().front(); }
    const IterVar& back() const { return loops().back(); }
    const_iterator begin() const { return loops().begin(); }
    const_iterator end() const { return loops().end(); }
    const_reverse_iterator rbegin() const { return loops().rbegin(); }
    const_reverse_iterator rend() const { return loops().rend(); }

private:
    struct Rep;
    explicit AttachPath(std::shared_ptr<const Rep> rep) : m_rep(std::move(rep)) {}
    std::shared_ptr<const Rep> m_rep;
};

struct AttachPath::Rep {
    std::vector<IterVar> loops;
    std::shared_ptr<const Rep> outer;
    size_t segment = 0;
};

inline AttachPath::AttachPath(std::vector<IterVar> segment, const AttachPath& outer) {
    if (segment.empty() && outer.empty())
        return;
    const size_t own = segment.size();
    segment.insert(segment.end(), outer.begin(), outer.end());
    m_rep = std::make_shared<const Rep>(Rep{std::move(segment), outer.m_rep, own});
}

inline const std::vector<IterVar>& AttachPath::loops() const {
    static const std::vector<IterVar> none;
    return m_rep ? m_rep->loops : none;
}

inline AttachPath AttachPath::outer() const {
    return m_rep ? AttachPath(m_rep->outer) : AttachPath();
}

inline size_t AttachPath::segmentSize() const { return m_rep ? m_rep->segment : 0; }

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
