#include "schedule/BoundRules.h"

#include "support/Check.h"
#include "support/Diagnostic.h"

namespace bs {

const char* boundRulesName(BoundRules rules) {
    switch (rules) {
    case BoundRules::Tvm:
        return "tvm";
    case BoundRules::Tvm05:
        return "tvm-0.5";
    case BoundRules::Tight:
        return "tight";
    case BoundRules::Compact:
        return "compact";
    }
    BS_UNREACHABLE("unknown rule set");
}

std::optional<BoundRules> parseBoundRules(const std::string& name) {
    if (name == "tvm")
        return BoundRules::Tvm;
    if (name == "tvm-0.5" || name == "tvm05" || name == "tvm0.5" || isOldSeedRulesName(name))
        return BoundRules::Tvm05;
    if (name == "tight")
        return BoundRules::Tight;
    if (name == "compact")
        return BoundRules::Compact;
    return std::nullopt;
}

BoundRules boundRulesNamed(const std::string& name) {
    std::optional<BoundRules> rules = parseBoundRules(name);
    if (!rules)
        throw UserError("unknown rule set '" + name + "': expected tvm, tvm-0.5, tight or compact");
    return *rules;
}

bool isOldSeedRulesName(const std::string& name) {
    return name == "tvm-0.6" || name == "tvm06" || name == "tvm0.6";
}

const char* oldSeedRulesNote() {
    return "'tvm-0.6' is the old name of the rule set 'tvm-0.5': its rules are those of TVM "
           "v0.5's sources (v0.6.0 already has PR #3073's tight fused box), see "
           "docs/RULES.md";
}

std::vector<std::string> boundRulesNames() { return {"tvm", "tvm-0.5", "tight", "compact"}; }

} // namespace bs
