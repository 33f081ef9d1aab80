#include "PhasesCommand.h"

#include "ArgParser.h"
#include "common/ConcordeError.h"
#include "pipeline/DatabasePhases.h"
#include "store/FeatureDatabase.h"

#include <nlohmann/json.hpp>
#include <ostream>

namespace concorde::cli {

std::string PhasesCommand::help() const {
    return "Usage: concorde phases --db DB.sqlite (--program P | --all) [--max-k K] [--seed S]\n"
           "                       [--json]\n\n"
           "Clusters each program's regions into phases the way SimPoint does and stores the\n"
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
           "\"scores\": [{\"k\", \"bic\", \"distortion\"}]}]}.\n\n"
           "Options:\n"
           "  --db DB        the feature database (opened for writing)\n"
           "  --program P    one program (concorde info DB lists them)\n"
           "  --all          every program\n"
           "  --max-k K      largest number of phases tried (default 10)\n"
           "  --seed S       seed of the k-means initialisations (default: a fixed one)\n"
           "  --json         JSON instead of text\n";
}

int PhasesCommand::run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    (void)err;
    ArgParser parser(args);
    const auto dbPath = parser.takeValue("--db");
    const auto program = parser.takeValue("--program");
    const bool all = parser.takeFlag("--all");
    DatabasePhases::Options options;
    options.clustering.maxK = parser.takeUnsigned("--max-k", options.clustering.maxK, 1, 10'000);
    options.clustering.kmeans.seed = parser.takeUnsigned("--seed", options.clustering.kmeans.seed);
    const bool json = parser.takeFlag("--json");
    const auto rest = parser.finish();
    if (!rest.empty())
        throw usageError("unexpected argument '" + rest.front() + "'");
    if (!dbPath)
        throw usageError("phases needs --db DB.sqlite");
    if (program.has_value() == all)
        throw usageError("phases needs --program P or --all");
    if (!FeatureDatabase::isSqliteFile(*dbPath))
        FeatureDatabase::openReadOnly(*dbPath); // the precise missing/empty/not-SQLite error

    FeatureDatabase db = FeatureDatabase::openForWriting(*dbPath);
    std::vector<std::string> names;
    if (program)
        names.push_back(*program);
    else
        for (const ProgramRow& row : db.programs())
            names.push_back(row.name);
    if (names.empty())
        throw badInput(*dbPath + " has no programs");

    nlohmann::json programs = nlohmann::json::array();
    std::string text;
    for (const std::string& name : names) {
        const DatabasePhases::Program result = DatabasePhases::compute(db, name, options);
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
    if (json)
        out << nlohmann::json{{"database", *dbPath}, {"programs", programs}}.dump(2) << "\n";
    else
        out << text;
    return 0;
}

} // namespace concorde::cli
