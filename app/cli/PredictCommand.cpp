#include "PredictCommand.h"

#include "JobRunner.h"
#include "explore/DatabasePredictor.h"
#include "store/FeatureDatabase.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>

namespace concorde::cli {

std::string PredictCommand::description() const {
    return "Predicts with the CPI model, from the database's stored series: each\n"
           "region's CPI (block-precomputed inference) and the program's CPI,\n"
           "the instruction-weighted mean of its regions'. Every parameter must be on\n"
           "the database's grid (concorde info DB lists it).\n\n"
           "JSON: {\"cpi\": program CPI, \"program\", \"regions\": [{\"index\",\n"
           "\"instructions\", \"cpi\"}], \"config\", \"model\"}; with --all,\n"
           "{\"programs\": [...the same per program...]}.\n";
}

void PredictCommand::declare(CLI::App& app) {
    app.add_option("--db", db_, "the feature database")->type_name("DB")->required();
    programs_.addTo(app);
    config_.addTo(app);
    model_.addTo(app);
    app.add_flag("--json", json_, "JSON instead of text");
}

int PredictCommand::run(std::ostream& out, std::ostream& err) {
    const std::vector<std::string> requested = programs_.requested();
    FeatureDatabase db = FeatureDatabase::openReadOnly(db_);
    CpiModel model = model_.load(db_);
    const std::string modelName = model.name;
    // Precomputing every region (predict --all on a large database) is a job: progress and
    // Ctrl-C like every other long verb.
    JobRunner runner(err, "predict");
    const std::unique_ptr<const DatabasePredictor> predictor =
        runner.run([&](const JobControl& job) {
            return std::make_unique<const DatabasePredictor>(db, std::move(model), requested, job);
        });
    nlohmann::json programs = nlohmann::json::array();
    std::string text;
    for (const auto& name : predictor->programs()) {
        nlohmann::json regions = nlohmann::json::array();
        double weighted = 0, total = 0;
        for (const std::size_t r : predictor->regionsOf(name)) {
            const auto& entry = predictor->regions()[r];
            const double cpi = predictor->regionCpi(r, config_.config);
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
        if (programs_.program)
            for (const auto& r : regions) {
                std::snprintf(line, sizeof line, "  region %3d  CPI %.4f\n", r["index"].get<int>(),
                              r["cpi"].get<double>());
                text += line;
            }
    }
    if (json_) {
        nlohmann::json result;
        if (programs_.program)
            result = programs.front();
        else
            result["programs"] = programs;
        result["config"] = config_.config.toJson();
        if (!config_.presetName.empty())
            result["preset"] = config_.presetName;
        result["model"] = modelName;
        out << result.dump(2) << "\n";
    } else {
        out << text;
    }
    return 0;
}

} // namespace concorde::cli
