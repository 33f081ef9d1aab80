#include "PhasesCommand.h"

#include "CommonOptions.h"
#include "common/ConcordeError.h"
#include "pipeline/DatabasePhases.h"
#include "store/FeatureDatabase.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <ostream>

namespace concorde::cli {

std::string PhasesCommand::description() const {
    return "Clusters each program's regions into phases the way SimPoint does and stores the\n"
           "phase of every region in the database (regions.phase; concorde info shows it, the\n"
           "GUI colours the program timeline by it). One transaction per program.\n\n"
           "Regions are clustered by k-means on their basic-block vectors, randomly projected\n"
           "to 15 dimensions, with k chosen automatically: every k from 1 to\n"
           "min(K, regions / 2) is tried and the smallest whose BIC reaches 90 % of the BIC\n"
           "range wins. A program with a region without a basic-block vector falls back to\n"
           "feature vectors: one number per stored series at the database's reference\n"
           "configuration (each parameter's default if on the grid, else the grid's middle),\n"
           "z-normalised; only complete regions have them, the others get no phase.\n"
           "Phases are numbered by first appearance (region 0 is in phase 0); each phase's\n"
           "representative is its region closest to the centroid.\n\n"
           "JSON: {\"database\", \"programs\": [{\"program\", \"space\" (bbv or features),\n"
           "\"dimensions\", \"k\", \"regions\": [{\"region\", \"phase\"}], \"skipped\",\n"
           "\"phases\": [{\"phase\", \"size\", \"weight\", \"representative\", \"regions\"}],\n"
           "\"scores\": [{\"k\", \"bic\", \"distortion\"}]}]}.\n";
}

void PhasesCommand::declare(CLI::App& app) {
    app.add_option("--db", db_, "the feature database (opened for writing)")
        ->type_name("DB")
        ->required();
    programs_.addTo(app);
    app.add_option("--max-k", options_.clustering.maxK, "largest number of phases tried")
        ->type_name("K")
        ->check(wholeNumber(1, 10'000))
        ->capture_default_str();
    addSeedOption(app, options_.clustering.kmeans.seed, "seed of the k-means initialisations");
    app.add_flag("--json", json_, "JSON instead of text");
}

int PhasesCommand::run(std::ostream& out, std::ostream&) {
    std::vector<std::string> names = programs_.requested();
    FeatureDatabase::requireSqliteFile(db_);

    FeatureDatabase db = FeatureDatabase::openForWriting(db_);
    if (names.empty())
        for (const ProgramRow& row : db.programs())
            names.push_back(row.name);
    if (names.empty())
        throw badInput(db_ + " has no programs");

    nlohmann::json programs = nlohmann::json::array();
    std::string text;
    for (const std::string& name : names) {
        const DatabasePhases::Program result = DatabasePhases::compute(db, name, options_);
        DatabasePhases::store(db, result);
        programs.push_back(result.toJson());
        const PhaseClusters& c = result.clusters;
        text += name + ": " + std::to_string(c.k) + (c.k == 1 ? " phase" : " phases") + " over " +
                std::to_string(result.regionIds.size()) + " regions (from " +
                (c.space == "bbv" ? std::string("basic-block vectors")
                                  : std::string("feature vectors")) +
                ")\n";
        for (std::size_t p = 0; p < c.k; ++p) {
            std::string members;
            for (std::size_t i = 0; i < result.regionIndices.size(); ++i)
                if (c.phaseOf[i] == p)
                    members +=
                        (members.empty() ? "" : " ") + std::to_string(result.regionIndices[i]);
            text += "  phase " + std::to_string(p) + ": regions " + members + " (representative " +
                    std::to_string(result.regionIndices.at(c.representatives.at(p))) + ")\n";
        }
        if (!result.skipped.empty()) {
            std::string skipped;
            for (const auto index : result.skipped)
                skipped += (skipped.empty() ? "" : " ") + std::to_string(index);
            text += "  no phase (incomplete, no basic-block vector): regions " + skipped + "\n";
        }
    }
    db.close();
    if (json_)
        out << nlohmann::json{{"database", db_}, {"programs", programs}}.dump(2) << "\n";
    else
        out << text;
    return 0;
}

} // namespace concorde::cli
