#include "LabelCommand.h"

#include "CommonOptions.h"
#include "ConfigOptions.h"
#include "JobRunner.h"
#include "common/ConcordeError.h"
#include "params/PresetLibrary.h"
#include "pipeline/RegionLabeler.h"
#include "store/FeatureDatabase.h"

#include <CLI/CLI.hpp>
#include <iomanip>
#include <ostream>

namespace concorde::cli {

std::string LabelCommand::description() const {
    return "Runs the reference simulator on every complete region of the database, from the\n"
           "trace records stored in it, and stores cycles, CPI and per-window IPC as labels:\n"
           "for N random configurations per region (every parameter drawn uniformly from the\n"
           "database's grid; the draws depend only on the seed, the program and the region, so\n"
           "a larger N later adds to the same draws) and, with --presets, for every preset.\n"
           "Configurations already labelled are skipped, so running it again does nothing new;\n"
           "each region's labels are written in one transaction.\n";
}

void LabelCommand::declare(CLI::App& app) {
    app.add_option("--db", db_, "the feature database (built by concorde build-db)")
        ->type_name("DB")
        ->required();
    app.add_option("--configs", options_.randomConfigs, "random configurations per region")
        ->type_name("N")
        ->check(wholeNumber(0, 1'000'000))
        ->capture_default_str();
    app.add_flag("--presets", presets_, "also label every preset (big, n1-like, little, your own)");
    addSeedOption(app, options_.seed, "seed of the random configurations");
    addJobsOption(app, options_.jobs);
    addShardOption(app, options_.shard, "only complete regions whose index % N == I");
}

int LabelCommand::run(std::ostream& out, std::ostream& err) {
    if (options_.randomConfigs == 0 && !presets_)
        throw usageError("nothing to label: give --configs N and/or --presets");
    if (presets_)
        options_.presets = ConfigOptions::loadPresets().presets();
    FeatureDatabase::requireSqliteFile(db_);

    FeatureDatabase db = FeatureDatabase::openForWriting(db_);
    JobRunner runner(err, "label");
    const RegionLabeler::Summary summary =
        runner.run([&](const JobControl& job) { return RegionLabeler::label(db, options_, job); });
    db.close();
    out << "database:   " << db_ << "\n"
        << "regions:    " << summary.regions
        << (options_.shard.all() ? "" : " in shard " + options_.shard.toString()) << "\n"
        << "labels:     " << summary.labelsWritten << " written, " << summary.labelsExisting
        << " already present\n"
        << "time:       " << std::fixed << std::setprecision(1) << summary.seconds << " s\n";
    return 0;
}

} // namespace concorde::cli
