/// \file
/// Structural equality and hashing of IR trees (TVM's ExprDeepEqual / StructuralEqual).
/// Variables compare by identity unless `mapFreeVars` is set, in which case two trees are equal
/// when a consistent one-to-one renaming of their variables makes them equal (so
/// `let x = 1 in x` equals `let y = 1 in y`). Used by CSE (seed 001's "equivalent terms"),
/// the simplifier's tests and the golden tests.
#pragma once

#include "ir/Stmt.h"

namespace bs {

bool structuralEqual(const Expr& a, const Expr& b, bool mapFreeVars = false);
bool structuralEqual(const Stmt& a, const Stmt& b, bool mapFreeVars = false);
/// Equal trees (with variables by identity) hash equally; variables hash by name.
size_t structuralHash(const Expr& e);
size_t structuralHash(const Stmt& s);

/// Hash and equality functors for containers keyed by expression structure.
struct StructuralHash {
    size_t operator()(const Expr& e) const { return structuralHash(e); }
};
struct StructuralEqual {
    bool operator()(const Expr& a, const Expr& b) const { return structuralEqual(a, b); }
};

} // namespace bs
