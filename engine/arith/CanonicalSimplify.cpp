// The canonical simplifier (TVM's canonical_simplify.cc): +, - and * of index type build sums
// in the normal form of CanonicalForm.h, so like terms collect (`(x + 1) - 1` is `x`,
// `((x*8 + 7) - x*8) + 1` is `8`) and print in TVM's order (`j + i*64` is `((i*64) + j)`).
// Every other node goes through the rewrite rules with normalized children.

#include "arith/Simplify_Internal.h"

#include "ir/Op.h"

namespace bs {

namespace {

/// TVM's TryConstFold on canonical operands: only plain integer constants fold; an identity
/// operand (x + 0, x * 1) gives the other operand unchanged, still in canonical form.
std::optional<CanonValue> foldAdd(const CanonValue& a, const CanonValue& b) {
    auto ca = canonConst(a), cb = canonConst(b);
    if (ca && cb)
        return std::get<Expr>(a) + std::get<Expr>(b);
    if (ca && *ca == 0)
        return b;
    if (cb && *cb == 0)
        return a;
    return std::nullopt;
}

std::optional<CanonValue> foldSub(const CanonValue& a, const CanonValue& b) {
    auto ca = canonConst(a), cb = canonConst(b);
    if (ca && cb)
        return std::get<Expr>(a) - std::get<Expr>(b);
    if (cb && *cb == 0)
        return a;
    return std::nullopt;
}

std::optional<CanonValue> foldMul(const CanonValue& a, const CanonValue& b) {
    auto ca = canonConst(a), cb = canonConst(b);
    if (ca && cb)
        return std::get<Expr>(a) * std::get<Expr>(b);
    if (ca && (*ca == 0 || *ca == 1))
        return *ca == 0 ? a : b;
    if (cb && (*cb == 0 || *cb == 1))
        return *cb == 0 ? b : a;
    return std::nullopt;
}

void addTo(SumForm& sum, const CanonValue& v, int64_t factor) {
    if (auto c = canonConst(v))
        sum.add(*c * factor);
    else if (const auto* other = std::get_if<SumForm>(&v))
        sum.add(*other, factor);
    else
        sum.add(toSplit(v), factor);
}

} // namespace

CanonValue CanonicalSimplifier::mutateCanonical(const Expr& e) {
    if (isIndexType(e.type())) {
        switch (e.kind()) {
        case NodeKind::Add:
            return canonicalAdd(e.as<AddNode>());
        case NodeKind::Sub:
            return canonicalSub(e.as<SubNode>());
        case NodeKind::Mul:
            return canonicalMul(e.as<MulNode>());
        case NodeKind::Div:
            return canonicalDiv(e.as<DivNode>());
        case NodeKind::Mod:
            return canonicalMod(e.as<ModNode>());
        case NodeKind::FloorDiv:
            return canonicalFloorDiv(e.as<FloorDivNode>());
        case NodeKind::FloorMod:
            return canonicalFloorMod(e.as<FloorModNode>());
        default:
            break;
        }
    }
    // Not linear arithmetic: the rewrite rules, whose children come back here normalized.
    return RewriteSimplifier::visitExpr(e);
}

CanonValue CanonicalSimplifier::canonicalAdd(const AddNode* op) {
    CanonValue a = mutateCanonical(op->a);
    CanonValue b = mutateCanonical(op->b);
    if (auto folded = foldAdd(a, b))
        return *folded;
    SumForm sum = toSum(a);
    addTo(sum, b, 1);
    return sum;
}

CanonValue CanonicalSimplifier::canonicalSub(const SubNode* op) {
    CanonValue a = mutateCanonical(op->a);
    CanonValue b = mutateCanonical(op->b);
    if (auto folded = foldSub(a, b))
        return *folded;
    SumForm sum = toSum(a);
    addTo(sum, b, -1);
    return sum;
}

CanonValue CanonicalSimplifier::canonicalMul(const MulNode* op) {
    CanonValue a = mutateCanonical(op->a);
    CanonValue b = mutateCanonical(op->b);
    if (auto folded = foldMul(a, b))
        return *folded;
    if (canonConst(a))
        std::swap(a, b);
    if (auto factor = canonConst(b)) {
        if (auto* sum = std::get_if<SumForm>(&a)) {
            sum->multiplyBy(*factor);
            return a;
        }
        SplitTerm term = toSplit(a);
        term.scale *= *factor;
        return term;
    }
    // A product of two non-constants stays a product (the rewrite rules handle x*y + x*z).
    return rebuild(op, a, b, [](Expr x, Expr y) { return x * y; });
}

} // namespace bs
