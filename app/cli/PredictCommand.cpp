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
           "An ensemble model (concorde train --members N) also gives each CPI's band:\n"
           "the range the simulated CPI falls in for the calibrated share of regions the\n"
           "model never trained on (concorde info DB shows the share).\n\n"
           "JSON: {\"cpi\": program CPI, \"cpi_low\", \"cpi_high\", \"program\", \"regions\":\n"
           "[{\"index\", \"instructions\", \"cpi\", \"cpi_low\", \"cpi_high\"}], \"config\",\n"
           "\"model\"}; with --all, {\"programs\": [...the same per program...]}. A single\n"
           "model's band is its CPI. \"ood_score\" says how far a region's features lie from\n"
           "the training programs (above 1: outside them; a warning names such programs).\n\n"
           "Damaged data: a region whose row or series do not read is skipped with a warning\n"
           "naming it; its program's CPI is then the mean of its other regions. JSON lists\n"
           "them in \"damaged_regions\" [{\"program\", \"index\", \"region_id\", \"part\",\n"
           "\"problem\"}] and per program in \"skipped_regions\" (region indices). Exit code\n"
           "0 while anything is left to predict; 2 with the damage named when nothing is.\n";
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
    // Damaged regions are skipped, not fatal: say which, and mark their programs' CPIs as
    // coming from the remaining regions only.
    const auto& damaged = predictor->damaged();
    if (!damaged.empty())
        err << "predict: warning: " << predictor->catalog().damageSummary()
            << "; their programs' CPIs are from the remaining regions (concorde validate-db " << db_
            << " lists all damage)\n";
    nlohmann::json damagedJson = nlohmann::json::array();
    for (const auto& d : damaged)
        damagedJson.push_back({{"program", d.program},
                               {"index", d.regionIndex},
                               {"region_id", d.regionId},
                               {"part", d.part},
                               {"problem", d.problem}});
    const bool banded = predictor->model().band.calibrated();
    // "CPI 0.8123" or, with a band, "CPI 0.8123 [0.7712, 0.8541]".
    const auto cpiText = [&](const CpiBand& band) {
        char text[80];
        if (banded)
            std::snprintf(text, sizeof text, "CPI %.4f [%.4f, %.4f]", band.cpi, band.low,
                          band.high);
        else
            std::snprintf(text, sizeof text, "CPI %.4f", band.cpi);
        return std::string(text);
    };
    nlohmann::json programs = nlohmann::json::array();
    std::string text;
    for (const auto& name : predictor->programs()) {
        nlohmann::json regions = nlohmann::json::array();
        std::vector<CpiBand> bands;
        for (const std::size_t r : predictor->regionsOf(name)) {
            const auto& entry = predictor->regions()[r];
            const CpiBand band = predictor->regionBand(r, config_.config);
            bands.push_back(band);
            regions.push_back({{"index", entry.regionIndex},
                               {"instructions", entry.length},
                               {"cpi", band.cpi},
                               {"cpi_low", band.low},
                               {"cpi_high", band.high},
                               {"ood_score", predictor->regionOodScore(r)}});
        }
        const CpiBand band = predictor->programBand(name, bands);
        const double ood = predictor->programOodScore(name);
        nlohmann::json skipped = nlohmann::json::array();
        for (const auto& d : predictor->catalog().damageOf(name))
            skipped.push_back(d.regionIndex);
        programs.push_back({{"program", name},
                            {"skipped_regions", skipped},
                            {"cpi", band.cpi},
                            {"cpi_low", band.low},
                            {"cpi_high", band.high},
                            {"ood_score", ood},
                            {"outside_training", ood > 1},
                            {"regions", regions}});
        if (ood > 1)
            err << "predict: warning: " << name << " lies outside the model's training data "
                << "(distance score " << std::to_string(ood).substr(0, 4)
                << ", above 1 is outside); trust its CPI less than the model's measured "
                   "accuracy\n";
        char line[200];
        std::snprintf(line, sizeof line, "%-16s %s  (IPC %.3f, %zu regions", name.c_str(),
                      cpiText(band).c_str(), 1.0 / band.cpi, regions.size());
        text += line;
        if (!skipped.empty())
            text += ", " + std::to_string(skipped.size()) + " damaged skipped";
        text += ")\n";
        if (programs_.program)
            for (std::size_t k = 0; k < bands.size(); ++k) {
                std::snprintf(line, sizeof line, "  region %3d  %s\n",
                              regions[k]["index"].get<int>(), cpiText(bands[k]).c_str());
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
        result["damaged_regions"] = damagedJson;
        out << result.dump(2) << "\n";
    } else {
        out << text;
    }
    return 0;
}

} // namespace concorde::cli
