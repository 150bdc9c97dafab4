// Conversions between our integer expressions and ISL's quasi-affine ones (the tight rules,
// DESIGN.md "InferBound, faithful first"). Expressions go to ISL as text, which ISL's parser
// turns into piecewise quasi-affine functions (it accepts floor, mod by a constant, min and
// max); they come back through ISL's AST generator, which writes a function of several pieces
// with min/max/select.
#ifdef BOUNDSCOPE_WITH_ISL

#include "schedule/InferBoundTightIsl.h"

#include "arith/Analyzer.h"
#include "ir/Op.h"
#include "support/Check.h"

#include <isl/ast.h>
#include <isl/ast_build.h>
#include <isl/ilp.h>
#include <isl/options.h>

#include <algorithm>

namespace bs::tight {

IslContext::IslContext() : m_ctx(isl_ctx_alloc()) {
    BS_CHECK(m_ctx) << "cannot allocate an ISL context";
    isl_options_set_on_error(m_ctx, ISL_ON_ERROR_CONTINUE);
}

IslContext::~IslContext() { isl_ctx_free(m_ctx); }

ParamSpace::Entry* ParamSpace::find(const Var& v) {
    for (Entry& e : m_entries)
        if (e.var.same_as(v))
            return &e;
    return nullptr;
}

std::string ParamSpace::name(const Var& v) {
    if (auto it = m_aliases.find(v); it != m_aliases.end())
        return it->second;
    if (Entry* e = find(v))
        return e->name;
    if (m_resolver && m_resolved.insert(v).second) {
        m_resolver(v); // may alias `v` or register it (naming it again lands below)
        return name(v);
    }
    m_entries.push_back(Entry{v, "p" + std::to_string(m_entries.size()), false, false});
    return m_entries.back().name;
}

void ParamSpace::alias(const Var& v, std::string islValue) {
    BS_CHECK(!find(v)) << "'" << v.name() << "' is already a parameter";
    m_aliases[v] = "(" + islValue + ")";
}

bool ParamSpace::isAlias(const Var& v) const { return m_aliases.count(v) != 0; }

void ParamSpace::setResolver(Resolver resolver) { m_resolver = std::move(resolver); }

void ParamSpace::markAttach(const Var& v) {
    name(v); // resolved first: it may be an alias
    if (isAlias(v))
        return; // a loop of one iteration: its min's parameters are marked
    find(v)->attach = true;
}

void ParamSpace::markSize(const Var& v) {
    name(v);
    if (isAlias(v))
        return;
    find(v)->size = true;
}

bool ParamSpace::isAttach(const std::string& name) const {
    return std::any_of(m_entries.begin(), m_entries.end(),
                       [&](const Entry& e) { return e.name == name && e.attach; });
}

std::string ParamSpace::header() const {
    std::string out = "[";
    for (size_t i = 0; i < m_entries.size(); ++i)
        out += (i ? ", " : "") + m_entries[i].name;
    return out + "] -> ";
}

std::string ParamSpace::sizeConstraints() const {
    std::string out;
    for (const Entry& e : m_entries)
        if (e.size && !e.attach)
            out += (out.empty() ? "" : " and ") + e.name + " >= 1";
    return out;
}

std::optional<Var> ParamSpace::varOf(const std::string& name) const {
    for (const Entry& e : m_entries)
        if (e.name == name)
            return e.var;
    return std::nullopt;
}

std::string ParamSpace::signature() const {
    std::string out;
    for (const Entry& e : m_entries)
        out += e.name + "=" + e.var.name() + (e.attach ? ":attach" : "") + (e.size ? ":size" : "") +
               ", ";
    return out;
}

std::vector<std::string> ParamSpace::attachNames() const {
    std::vector<std::string> out;
    for (const Entry& e : m_entries)
        if (e.attach)
            out.push_back(e.name);
    return out;
}

namespace {

std::optional<std::string> affineBinary(const Expr& e, const IslNamer& nameOf);

/// A positive constant divisor, or nullopt.
std::optional<int64_t> positiveConstant(const Expr& e) {
    std::optional<int64_t> c = asConstInt(e);
    if (c && *c > 0)
        return c;
    return std::nullopt;
}

} // namespace

std::string join(const std::vector<std::string>& parts, const char* sep) {
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i)
        out += (i ? sep : "") + parts[i];
    return out;
}

std::optional<std::string> islAffine(const Expr& e, const IslNamer& nameOf) {
    if (!e.defined() || !(e.type().isIntegral() || e.type().isBool()))
        return std::nullopt;
    if (const auto* imm = e.as<IntImmNode>())
        return imm->value < 0 ? "(" + std::to_string(imm->value) + ")" : std::to_string(imm->value);
    if (const auto* v = e.as<VarNode>())
        return nameOf(Var(v));
    if (const auto* c = e.as<CastNode>())
        return c->value.type().isIntegral() ? islAffine(c->value, nameOf) : std::nullopt;
    return affineBinary(e, nameOf);
}

namespace {

std::optional<std::string> affineBinary(const Expr& e, const IslNamer& nameOf) {
    auto both = [&](const Expr& a, const Expr& b, const char* fmtOp,
                    bool call) -> std::optional<std::string> {
        auto x = islAffine(a, nameOf), y = islAffine(b, nameOf);
        if (!x || !y)
            return std::nullopt;
        return call ? std::string(fmtOp) + "(" + *x + ", " + *y + ")" : "(" + *x + fmtOp + *y + ")";
    };
    if (const auto* op = e.as<AddNode>())
        return both(op->a, op->b, " + ", false);
    if (const auto* op = e.as<SubNode>())
        return both(op->a, op->b, " - ", false);
    if (const auto* op = e.as<MinNode>())
        return both(op->a, op->b, "min", true);
    if (const auto* op = e.as<MaxNode>())
        return both(op->a, op->b, "max", true);
    if (const auto* op = e.as<MulNode>()) {
        // Quasi-affine only when one side is a constant, written first and bare: ISL reads
        // `-1*i` but not `(-1)*i` nor `i*(-1)` (a syntax error, which cost an exact box).
        std::optional<int64_t> c = asConstInt(op->a);
        const Expr* other = &op->b;
        if (!c) {
            c = asConstInt(op->b);
            other = &op->a;
        }
        if (c == 0)
            return std::string("0"); // whatever the other side is
        auto x = c ? islAffine(*other, nameOf) : std::nullopt;
        if (!x)
            return std::nullopt;
        return "(" + std::to_string(*c) + "*" + *x + ")";
    }
    if (const auto* op = e.as<FloorDivNode>()) {
        auto d = positiveConstant(op->b);
        auto x = islAffine(op->a, nameOf);
        if (!d || !x)
            return std::nullopt;
        return "floor((" + *x + ")/" + std::to_string(*d) + ")";
    }
    if (const auto* op = e.as<FloorModNode>()) {
        auto d = positiveConstant(op->b);
        auto x = islAffine(op->a, nameOf);
        if (!d || !x)
            return std::nullopt;
        return "((" + *x + ") mod " + std::to_string(*d) + ")";
    }
    return std::nullopt;
}

/// Builds our expression from one node of ISL's AST (isl/ast.h), or nullopt.
class AstReader {
public:
    explicit AstReader(const ParamSpace& space) : m_space(space) {}

    std::optional<Expr> read(isl_ast_expr* e) {
        switch (isl_ast_expr_get_type(e)) {
        case isl_ast_expr_int: {
            isl_val* v = isl_ast_expr_get_val(e);
            std::optional<Expr> out;
            if (isl_val_is_int(v) == isl_bool_true)
                out = makeConst(DataType::int32(), int64_t(isl_val_get_num_si(v)));
            isl_val_free(v);
            return out;
        }
        case isl_ast_expr_id: {
            isl_id* id = isl_ast_expr_get_id(e);
            std::optional<Var> var = m_space.varOf(isl_id_get_name(id));
            isl_id_free(id);
            if (!var)
                return std::nullopt;
            return var->type() == DataType::int32() ? Expr(*var) : cast(DataType::int32(), *var);
        }
        case isl_ast_expr_op:
            return readOp(e);
        default:
            return std::nullopt;
        }
    }

private:
    std::optional<Expr> arg(isl_ast_expr* e, int i) {
        isl_ast_expr* a = isl_ast_expr_op_get_arg(e, i);
        std::optional<Expr> out = read(a);
        isl_ast_expr_free(a);
        return out;
    }

    /// Multiplication with the constant on the right, as TVM prints `(i*16)`.
    static Expr product(const Expr& a, const Expr& b) { return asConstInt(a) ? b * a : a * b; }

    std::optional<Expr> readOp(isl_ast_expr* e) {
        isl_size n = isl_ast_expr_op_get_n_arg(e);
        std::vector<Expr> args;
        for (int i = 0; i < n; ++i) {
            std::optional<Expr> a = arg(e, i);
            if (!a)
                return std::nullopt;
            args.push_back(*a);
        }
        auto fold = [&](Expr (*f)(Expr, Expr)) {
            Expr acc = args[0];
            for (size_t i = 1; i < args.size(); ++i)
                acc = f(acc, args[i]);
            return acc;
        };
        switch (isl_ast_expr_op_get_type(e)) {
        case isl_ast_expr_op_max:
            return fold([](Expr a, Expr b) { return max(a, b); });
        case isl_ast_expr_op_min:
            return fold([](Expr a, Expr b) { return min(a, b); });
        case isl_ast_expr_op_minus:
            return makeZero(args[0].type()) - args[0];
        case isl_ast_expr_op_add:
            return args[0] + args[1];
        case isl_ast_expr_op_sub:
            return args[0] - args[1];
        case isl_ast_expr_op_mul:
            return product(args[0], args[1]);
        // Exact, floor and non-negative divisions are all floordiv for our integers; the
        // remainders only appear compared with 0, where floormod and truncmod agree.
        case isl_ast_expr_op_div:
        case isl_ast_expr_op_fdiv_q:
        case isl_ast_expr_op_pdiv_q:
            return floordiv(args[0], args[1]);
        case isl_ast_expr_op_pdiv_r:
        case isl_ast_expr_op_zdiv_r:
            return floormod(args[0], args[1]);
        case isl_ast_expr_op_cond:
        case isl_ast_expr_op_select:
            return select(args[0], args[1], args[2]);
        case isl_ast_expr_op_eq:
            return eq(args[0], args[1]);
        case isl_ast_expr_op_le:
            return args[0] <= args[1];
        case isl_ast_expr_op_lt:
            return args[0] < args[1];
        case isl_ast_expr_op_ge:
            return args[0] >= args[1];
        case isl_ast_expr_op_gt:
            return args[0] > args[1];
        case isl_ast_expr_op_and:
        case isl_ast_expr_op_and_then:
            return args[0] && args[1];
        case isl_ast_expr_op_or:
        case isl_ast_expr_op_or_else:
            return args[0] || args[1];
        default:
            return std::nullopt;
        }
    }

    const ParamSpace& m_space;
};

bool isBounded(const isl::pw_aff& pa) {
    return isl_pw_aff_involves_nan(pa.get()) != isl_bool_true && !pa.domain().is_empty();
}

} // namespace

std::optional<isl::pw_aff> toPwAff(isl::ctx ctx, const Expr& e, ParamSpace& space) {
    std::optional<std::string> text = islAffine(e, space.namer());
    if (!text)
        return std::nullopt;
    try {
        return isl::pw_aff(ctx, space.header() + "{ [(" + *text + ")] }");
    } catch (const isl::exception_quota&) {
        throw; // a work limit (InferBoundTightCount's budget) is its caller's to report
    } catch (const isl::exception&) {
        return std::nullopt;
    }
}

/// One piece of `pa` whose expression gives `pa`'s value on all of its domain (ISL may keep two
/// pieces that differ only in form, `p mod 4` and `3 - (-1 - p) mod 4`), over that domain; or
/// nullopt.
std::optional<isl::pw_aff> singlePieceForm(const isl::pw_aff& pa) {
    struct Search {
        isl_pw_aff* whole;
        isl_pw_aff* found = nullptr;
    } search{pa.get()};
    isl_pw_aff_foreach_piece(
        pa.get(),
        [](isl_set* set, isl_aff* aff, void* user) {
            isl_set_free(set);
            auto* s = static_cast<Search*>(user);
            if (s->found) {
                isl_aff_free(aff);
                return isl_stat_ok;
            }
            isl_pw_aff* piece = isl_pw_aff_intersect_domain(
                isl_pw_aff_from_aff(aff), isl_pw_aff_domain(isl_pw_aff_copy(s->whole)));
            isl_set* same = isl_pw_aff_eq_set(isl_pw_aff_copy(piece), isl_pw_aff_copy(s->whole));
            isl_set* domain = isl_pw_aff_domain(isl_pw_aff_copy(s->whole));
            isl_bool everywhere = isl_set_is_subset(domain, same); // takes neither
            isl_set_free(domain);
            isl_set_free(same);
            if (everywhere == isl_bool_true)
                s->found = piece;
            else
                isl_pw_aff_free(piece);
            return isl_stat_ok;
        },
        &search);
    if (!search.found)
        return std::nullopt;
    return isl::manage(search.found);
}

std::optional<Expr> toExpr(const isl::pw_aff& pa, const isl::set& context, const ParamSpace& space,
                           bool singlePieceOnly) {
    try {
        if (!isBounded(pa))
            return std::nullopt;
        isl::pw_aff simple = pa.gist(context).coalesce();
        if (singlePieceOnly && simple.n_piece() != 1) {
            std::optional<isl::pw_aff> single = singlePieceForm(simple);
            if (!single)
                return std::nullopt;
            simple = single->gist(context).coalesce();
        }
        isl::ast_build build = isl::ast_build::from_context(context);
        isl::ast_expr ast = build.expr_from(simple);
        std::optional<Expr> e = AstReader(space).read(ast.get());
        if (!e)
            return std::nullopt;
        Analyzer analyzer;
        return analyzer.simplify(*e);
    } catch (const isl::exception_quota&) {
        throw; // a work limit (InferBoundTightCount's budget) is its caller's to report
    } catch (const isl::exception&) {
        return std::nullopt;
    }
}

isl::pw_aff maxOverAttach(const isl::pw_aff& pa, const ParamSpace& space) {
    // { [v] : v = pa(params) }, then every attach parameter becomes a set dimension in front of
    // v, and the maximum of v is a function of the free parameters alone.
    isl_set* graph = isl_set_from_pw_aff(pa.copy());
    for (const std::string& name : space.attachNames()) {
        int pos = isl_set_find_dim_by_name(graph, isl_dim_param, name.c_str());
        if (pos >= 0)
            graph = isl_set_move_dims(graph, isl_dim_set, 0, isl_dim_param, unsigned(pos), 1);
    }
    isl_size dims = isl_set_dim(graph, isl_dim_set);
    return isl::manage(isl_set_dim_max(graph, dims - 1));
}

bool equalsOn(isl::ctx ctx, const Expr& e, const isl::pw_aff& target, ParamSpace& space) {
    std::optional<isl::pw_aff> pa = toPwAff(ctx, e, space);
    if (!pa)
        return false;
    try {
        isl::set same = pa->eq_set(target);
        return target.domain().is_subset(same);
    } catch (const isl::exception_quota&) {
        throw; // a work limit (InferBoundTightCount's budget) is its caller's to report
    } catch (const isl::exception&) {
        return false;
    }
}

} // namespace bs::tight

#endif // BOUNDSCOPE_WITH_ISL
