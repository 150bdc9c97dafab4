#include "te/Reduce.h"

#include "ir/Op.h"
#include "ir/Printer.h"

#include <limits>

namespace bs {

namespace {

/// The largest finite value of a float type, as TVM spells its min/max values.
double largestFinite(DataType type) {
    if (type.bits() == 16)
        return 65504.0;
    if (type.bits() == 32)
        return double(std::numeric_limits<float>::max());
    return std::numeric_limits<double>::max();
}

void requireNumeric(const std::string& reducer, DataType type) {
    if (!type.isIntegral() && !type.isFloat())
        throw UserError(reducer + ": cannot reduce a value of type " + type.toString());
}

Reducer builtinSum() {
    return Reducer([](const std::vector<Var>& x,
                      const std::vector<Var>& y) { return std::vector<Expr>{x[0] + y[0]}; },
                   [](const std::vector<DataType>& t) { return std::vector<Expr>{makeZero(t[0])}; },
                   "sum");
}

Reducer builtinMax() {
    return Reducer(
        [](const std::vector<Var>& x, const std::vector<Var>& y) {
            return std::vector<Expr>{bs::max(Expr(x[0]), Expr(y[0]))};
        },
        [](const std::vector<DataType>& t) {
            requireNumeric("max", t[0]);
            return std::vector<Expr>{lowestValue(t[0])};
        },
        "max");
}

Reducer builtinMin() {
    return Reducer(
        [](const std::vector<Var>& x, const std::vector<Var>& y) {
            return std::vector<Expr>{bs::min(Expr(x[0]), Expr(y[0]))};
        },
        [](const std::vector<DataType>& t) {
            requireNumeric("min", t[0]);
            return std::vector<Expr>{highestValue(t[0])};
        },
        "min");
}

} // namespace

IterVar reduceAxis(const Range& dom, const std::string& name) {
    if (!dom.defined() || !dom.extent.defined())
        throw UserError("reduce_axis '" + name + "': a dom (min, extent) must be given");
    if (!dom.min.type().isIntegral() || !dom.extent.type().isIntegral())
        throw UserError("reduce_axis '" + name + "': the dom must be an integer range, got " +
                        toString(dom));
    return IterVar(dom, Var(name, dom.extent.type()), IterVarType::CommReduce);
}

Reducer::Reducer(FCombine combine, FIdentity identity, std::string name, std::string lhsName,
                 std::string rhsName)
    : m_combine(std::move(combine)), m_identity(std::move(identity)), m_name(std::move(name)),
      m_lhsName(std::move(lhsName)), m_rhsName(std::move(rhsName)) {}

void Reducer::checkOperands(const std::vector<Expr>& sources, const std::vector<IterVar>& axes,
                            const Expr& where) const {
    if (sources.empty())
        throw UserError(m_name + ": nothing to reduce");
    for (const Expr& s : sources)
        if (!s.defined() || s.type().isHandle() || !s.type().isScalar())
            throw UserError(m_name + ": the value to reduce must be a scalar expression");
    for (const IterVar& iv : axes) {
        if (!iv.defined() || !iv->dom.defined())
            throw UserError(m_name + ": a reduction axis needs a dom; create it with reduce_axis");
        if (iv->iterType != IterVarType::CommReduce)
            throw UserError(m_name + ": '" + iv->var.name() + "' is not a reduction axis (" +
                            iterVarTypeName(iv->iterType) + "); create it with reduce_axis");
    }
    if (where.defined() && !where.type().isBool())
        throw UserError(m_name + ": the where condition must be boolean, got " + toString(where));
}

CommReducer Reducer::makeCombiner(const std::vector<DataType>& types) const {
    const size_t n = types.size();
    std::vector<Var> lhs, rhs;
    for (size_t i = 0; i < n; ++i) {
        std::string suffix = n == 1 ? "" : "_" + std::to_string(i);
        lhs.emplace_back(m_lhsName + suffix, types[i]);
        rhs.emplace_back(m_rhsName + suffix, types[i]);
    }
    std::vector<Expr> result = m_combine(lhs, rhs);
    std::vector<Expr> identity = m_identity(types);
    auto checkValues = [&](const std::vector<Expr>& values, const char* what) {
        if (values.size() != n)
            throw UserError("reducer '" + m_name + "': the " + what + " function must return " +
                            std::to_string(n) + " value" + (n == 1 ? "" : "s") +
                            ", one per reduced value, got " + std::to_string(values.size()));
        for (size_t i = 0; i < n; ++i) {
            if (!values[i].defined() || values[i].type() != types[i])
                throw UserError(
                    "reducer '" + m_name + "': value " + std::to_string(i) + " of the " + what +
                    " function must have type " + types[i].toString() +
                    (values[i].defined() ? ", got " + values[i].type().toString() : ""));
        }
    };
    checkValues(result, "combine");
    checkValues(identity, "identity");
    return CommReducer(std::move(lhs), std::move(rhs), std::move(result), std::move(identity));
}

std::vector<Expr> Reducer::operator()(const std::vector<Expr>& sources,
                                      const std::vector<IterVar>& axes, const Expr& where,
                                      const std::vector<Expr>& init) const {
    checkOperands(sources, axes, where);
    checkReduceInit(m_name, sources, init);
    std::vector<DataType> types;
    for (const Expr& s : sources)
        types.push_back(s.type());
    CommReducer combiner = makeCombiner(types);
    Expr condition = where.defined() ? where : makeBool(true);
    std::vector<Expr> outputs;
    for (size_t i = 0; i < sources.size(); ++i)
        outputs.push_back(ReduceNode::make(combiner, sources, axes, condition, int(i), init));
    return outputs;
}

Expr Reducer::operator()(const Expr& source, const std::vector<IterVar>& axes, const Expr& where,
                         const Expr& init) const {
    std::vector<Expr> inits;
    if (init.defined())
        inits.push_back(init);
    return (*this)(std::vector<Expr>{source}, axes, where, inits)[0];
}

void checkReduceInit(const std::string& reducer, const std::vector<Expr>& sources,
                     const std::vector<Expr>& init) {
    if (init.empty())
        return;
    if (init.size() != sources.size())
        throw UserError(reducer + ": init needs one value per reduced value (" +
                        std::to_string(sources.size()) + "), got " + std::to_string(init.size()));
    for (size_t i = 0; i < init.size(); ++i) {
        const Expr& e = init[i];
        if (!e.defined() ||
            !(e.as<IntImmNode>() || e.as<FloatImmNode>() || e.as<ProducerLoadNode>()))
            throw UserError(reducer +
                            ": init can only be an integer or float constant or a "
                            "tensor element, got " +
                            (e.defined() ? toString(e) : "nothing"));
        if (e.type() != sources[i].type())
            throw UserError(reducer + ": init " + toString(e) + " has type " + e.type().toString() +
                            " but the reduced value has type " + sources[i].type().toString());
    }
}

Reducer commReducer(Reducer::FCombine combine, Reducer::FIdentity identity, const std::string& name,
                    const std::string& lhsName, const std::string& rhsName) {
    return Reducer(std::move(combine), std::move(identity), name, lhsName, rhsName);
}

Expr sum(const Expr& source, const std::vector<IterVar>& axes, const Expr& where,
         const Expr& init) {
    return builtinSum()(source, axes, where, init);
}
Expr sum(const Expr& source, const IterVar& axis, const Expr& where) {
    return sum(source, std::vector<IterVar>{axis}, where);
}
Expr max(const Expr& source, const std::vector<IterVar>& axes, const Expr& where,
         const Expr& init) {
    return builtinMax()(source, axes, where, init);
}
Expr max(const Expr& source, const IterVar& axis, const Expr& where) {
    return max(source, std::vector<IterVar>{axis}, where);
}
Expr min(const Expr& source, const std::vector<IterVar>& axes, const Expr& where,
         const Expr& init) {
    return builtinMin()(source, axes, where, init);
}
Expr min(const Expr& source, const IterVar& axis, const Expr& where) {
    return min(source, std::vector<IterVar>{axis}, where);
}

Expr lowestValue(DataType type) {
    if (type.isFloat())
        return makeConst(type, -largestFinite(type));
    return minValue(type);
}

Expr highestValue(DataType type) {
    if (type.isFloat())
        return makeConst(type, largestFinite(type));
    return maxValue(type);
}

} // namespace bs
