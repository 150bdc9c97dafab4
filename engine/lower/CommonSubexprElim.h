/// \file
/// Common subexpression elimination for the loop IR, as TVM's CommonSubexprElimTIR (seed 001,
/// TVM PR #9482) does it: redundant computations, whole expressions or sub-expressions, are
/// computed once into a fresh variable `cse_var_N` bound by a `let` placed before their first
/// use, at the outermost statement (or expression) that does them at least twice and where
/// every variable they use is in scope. A loop or an if only does what two of its three parts
/// do (min/extent/body, condition/then/else), so nothing is moved out of a loop body or out of
/// one branch.
///
/// At every statement and expression, from the root down, the pass:
/// 1. counts the eligible computations done there (the syntactic computations table),
/// 2. merges equivalent ones through `equivalentTerms` (the semantic entities),
/// 3. sorts them from biggest to smallest (size = number of nodes), then for each candidate:
///    case 1, a variable in scope already holds it (`let x = A in ...A...`): A becomes x;
///    case 2, all its variables are in scope and it is seen at least twice: it goes into
///    `let cse_var_N = A` around the current root and every occurrence becomes cse_var_N;
///    case 3, otherwise its direct sub-expressions join the sorted candidates (lazily, so a
///    candidate that gets introduced never leaves stale smaller ones behind).
/// Then it recurses into the children, with the variables in scope (the context) extended by
/// let, for, allocate and thread_extent.
#pragma once

#include "ir/Stmt.h"

#include <vector>

namespace bs {

struct CseOptions {
    /// Variables in scope at the root besides those the IR binds: the kernel's parameters and
    /// symbolic shape variables (TVM puts the PrimFunc's params there). A computation using a
    /// variable that is not in scope is never introduced above that variable's binding.
    std::vector<Var> contextVars;
    /// When a statement's level introduces only fresh variables, each holding a computation
    /// with no eligible computation inside it, and replaces nothing by a variable a let of the
    /// program already holds it in, the levels of the chain of lets it builds and
    /// the statement under them can introduce nothing more: the pass goes on below them
    /// without running the algorithm there (a statement that repeats N computations built N
    /// levels, each with up to N candidates). Off: every level runs, as seed 001 writes it.
    bool skipQuietLetChains = true;
};

/// Runs CSE over `stmt`. New variables are named `cse_var_1`, `cse_var_2`, ... in order of
/// creation, skipping names the program already uses. Loads, tensor reads, impure calls and
/// reductions are never moved into a variable (memory or side effects could change between two
/// occurrences); expressions inside them (e.g. indices) can be.
Stmt commonSubexprElim(const Stmt& stmt, const CseOptions& options = {});

/// The one notion of "same computation" the pass uses to merge syntactic computations into
/// semantic entities, to find a variable that already holds a computation, and to select the
/// occurrences to replace. Today it is structural equality (variables by identity).
///
/// To identify terms modulo commutativity, associativity or any other rewriting, replace its
/// body with a comparison of canonical forms, e.g. `structuralEqual(canonical(a), canonical(b))`
/// with arith's canonical simplifier; nothing else in the pass needs to change (seed 001).
bool equivalentTerms(const Expr& a, const Expr& b);

} // namespace bs
