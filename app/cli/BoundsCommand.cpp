/// `boundscope bounds FILE.py [--rules R] [--json]`: every IterVar of every stage of the
/// script's current (normalized) schedule with its range: stage, role (root, leaf, inner), name,
/// min, extent, and for an extent that is not a constant what it depends on and its maximum
/// where that is known (`at most 2; depends on i.j.fused.outer`, `depends on f`).

#include "Commands.h"
#include "ScriptAnalysis.h"

#include "analysis/BoundsTable.h"
#include "ir/Printer.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iostream>
#include <memory>

namespace bs::cli {

namespace {

struct BoundsCommandOptions {
    std::string file;
    std::string rules = "tvm";
    bool json = false;
};

int runBounds(const BoundsCommandOptions& options) {
    int exitCode = kExitOk;
    auto analysis = analyzeScript(options.file,
                                  AnalysisOptions{rulesFromName(options.rules), false}, &exitCode);
    if (!analysis)
        return exitCode;
    const std::vector<BoundsRow> rows = boundsTable(*analysis);
    if (options.json) {
        nlohmann::ordered_json out = nlohmann::ordered_json::array();
        for (const BoundsRow& row : rows) {
            nlohmann::ordered_json item{{"stage", row.stage},
                                        {"role", row.role},
                                        {"name", row.name},
                                        {"min", row.min},
                                        {"extent", row.extent}};
            if (!row.bound.isPlain) {
                item["max_extent"] = row.bound.maximum ? nlohmann::ordered_json(*row.bound.maximum)
                                                       : nlohmann::ordered_json(nullptr);
                nlohmann::ordered_json deps = nlohmann::ordered_json::array();
                for (const Var& v : row.bound.loopVars)
                    deps.push_back(v.name());
                for (const Var& v : row.bound.scalars)
                    deps.push_back(v.name());
                item["depends_on"] = deps;
            }
            out.push_back(item);
        }
        std::cout << nlohmann::ordered_json{{"rules", options.rules}, {"bounds", out}}.dump(2)
                  << '\n';
        return kExitOk;
    }
    size_t w[4] = {5, 4, 4, 3};
    for (const BoundsRow& row : rows) {
        w[0] = std::max(w[0], row.stage.size());
        w[1] = std::max(w[1], row.role.size());
        w[2] = std::max(w[2], row.name.size());
        w[3] = std::max(w[3], row.min.size());
    }
    auto pad = [](const std::string& s, size_t n) {
        return s + std::string(n - s.size() + 2, ' ');
    };
    std::cout << pad("stage", w[0]) << pad("role", w[1]) << pad("name", w[2]) << pad("min", w[3])
              << "extent\n";
    for (const BoundsRow& row : rows) {
        std::cout << pad(row.stage, w[0]) << pad(row.role, w[1]) << pad(row.name, w[2])
                  << pad(row.min, w[3]) << row.extent;
        if (!row.bound.isPlain)
            std::cout << "  (" << describe(row.bound) << ")";
        std::cout << '\n';
    }
    return kExitOk;
}

} // namespace

Subcommand addBoundsCommand(CLI::App& parent) {
    auto options = std::make_shared<BoundsCommandOptions>();
    CLI::App* command =
        parent.add_subcommand("bounds", "Print the range InferBound gives every IterVar");
    addScriptArgument(*command, options->file);
    addRulesOption(*command, options->rules);
    command->add_flag("--json", options->json, "Print JSON");
    return {command, [options] { return runBounds(*options); }};
}

} // namespace bs::cli
