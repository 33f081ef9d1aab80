#include "PredictCommand.h"

#include "ArgParser.h"
#include "ConfigOptions.h"
#include "ModelOption.h"
#include "common/ConcordeError.h"
#include "explore/DatabasePredictor.h"
#include "store/FeatureDatabase.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <ostream>

namespace concorde::cli {

std::string PredictCommand::help() const {
    return std::string(
               "Usage: concorde predict --db DB.sqlite (--program P | --all)\n"
               "                        [--preset NAME] [--set key=value ...] [--json]\n\n"
               "Predicts with the CPI model, from the database's stored series: each\n"
               "region's CPI (block-precomputed inference, DESIGN §8) and the program's CPI,\n"
               "the instruction-weighted mean of its regions'. Every parameter must be on\n"
               "the database's grid (concorde info DB lists it).\n\n"
               "JSON: {\"cpi\": program CPI, \"program\", \"regions\": [{\"index\",\n"
               "\"instructions\", \"cpi\"}], \"config\", \"model\"}; with --all,\n"
               "{\"programs\": [...the same per program...]}.\n\n"
               "Options:\n"
               "  --db DB           the feature database\n"
               "  --program P       the program (concorde info DB lists them)\n"
               "  --all             every program\n") +
           ConfigOptions::helpText() + ModelOption::helpText() +
           "  --json            JSON instead of text\n";
}

int PredictCommand::run(const std::vector<std::string>& args, std::ostream& out,
                        std::ostream& err) {
    (void)err;
    ArgParser parser(args);
    const auto dbPath = parser.takeValue("--db");
    const auto program = parser.takeValue("--program");
    const bool all = parser.takeFlag("--all");
    const ConfigOptions config = ConfigOptions::take(parser);
    const ModelOption modelOption = ModelOption::take(parser);
    const bool json = parser.takeFlag("--json");
    const auto rest = parser.finish();
    if (!rest.empty())
        throw usageError("unexpected argument '" + rest.front() + "'");
    if (!dbPath)
        throw usageError("predict needs --db DB.sqlite");
    if (program.has_value() == all)
        throw usageError("predict needs --program P or --all");

    FeatureDatabase db = FeatureDatabase::openReadOnly(*dbPath);
    CpiModel model = modelOption.load(*dbPath);
    const std::string modelName = model.name;
    const DatabasePredictor predictor(db, std::move(model),
                                      program ? std::vector<std::string>{*program}
                                              : std::vector<std::string>{});
    nlohmann::json programs = nlohmann::json::array();
    std::string text;
    for (const auto& name : predictor.programs()) {
        nlohmann::json regions = nlohmann::json::array();
        double weighted = 0, total = 0;
        for (const std::size_t r : predictor.regionsOf(name)) {
            const auto& entry = predictor.regions()[r];
            const double cpi = predictor.regionCpi(r, config.config);
            weighted += cpi * static_cast<double>(entry.length);
            total += static_cast<double>(entry.length);
            regions.push_back(
                {{"index", entry.regionIndex}, {"instructions", entry.length}, {"cpi", cpi}});
        }
        const double cpi = weighted / total;
        programs.push_back({{"program", name}, {"cpi", cpi}, {"regions", regions}});
        char line[160];
        std::snprintf(line, sizeof line, "%-16s CPI %.4f  (IPC %.3f, %zu regions)\n", name.c_str(),
                      cpi, 1.0 / cpi, regions.size());
        text += line;
        if (program)
            for (const auto& r : regions) {
                std::snprintf(line, sizeof line, "  region %3d  CPI %.4f\n", r["index"].get<int>(),
                              r["cpi"].get<double>());
                text += line;
            }
    }
    if (json) {
        nlohmann::json result;
        if (program)
            result = programs.front();
        else
            result["programs"] = programs;
        result["config"] = config.config.toJson();
        if (!config.presetName.empty())
            result["preset"] = config.presetName;
        result["model"] = modelName;
        out << result.dump(2) << "\n";
    } else {
        out << text;
    }
    return 0;
}

} // namespace concorde::cli
