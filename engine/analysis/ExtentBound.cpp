#include "analysis/ExtentBound.h"

#include "arith/Analyzer.h"
#include "ir/Op.h"
#include "ir/Substitute.h"

namespace bs {

ExtentBound boundOfExtent(const Expr& extent, const IterVarMap<Range>& bounds) {
    ExtentBound out;
    if (!extent.defined() || asConstInt(extent))
        return out;
    out.isPlain = extent.as<VarNode>() != nullptr;
    VarMap<Range> loops;
    for (const auto& [iv, r] : bounds)
        loops[iv->var] = r;
    Analyzer analyzer;
    VarMap<IntSet> domain;
    for (const Var& v : usedVars(extent)) {
        auto it = loops.find(v);
        if (it == loops.end()) {
            out.scalars.push_back(v);
            continue;
        }
        out.loopVars.push_back(v);
        domain[v] = IntSet::fromRange(it->second);
        analyzer.bind(v, it->second);
    }
    if (!out.scalars.empty())
        return out;
    IntSet set = analyzer.intSet(extent, domain);
    if (set.hasUpperBound())
        out.maximum = asConstInt(analyzer.simplify(set.max()));
    return out;
}

std::string describe(const ExtentBound& bound) {
    if (bound.isPlain)
        return "";
    std::string text;
    if (bound.maximum)
        text = "at most " + std::to_string(*bound.maximum) + "; ";
    text += "depends on ";
    std::vector<Var> vars = bound.loopVars;
    vars.insert(vars.end(), bound.scalars.begin(), bound.scalars.end());
    for (size_t i = 0; i < vars.size(); ++i)
        text += (i ? ", " : "") + vars[i].name();
    return text;
}

} // namespace bs
