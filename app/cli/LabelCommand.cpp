#include "LabelCommand.h"

#include "ArgParser.h"
#include "JobRunner.h"
#include "common/ConcordeError.h"
#include "params/PresetLibrary.h"
#include "store/FeatureDatabase.h"
#include "pipeline/RegionLabeler.h"

#include <iomanip>
#include <ostream>

namespace concorde::cli {

std::string LabelCommand::help() const {
    return "Usage: concorde label --db DB.sqlite [--configs N] [--presets] [--seed S]\n"
           "                      [--jobs N] [--shard I/N]\n\n"
           "Runs the reference simulator on every complete region of the database, from the\n"
           "trace records stored in it, and stores cycles, CPI and per-window IPC as labels:\n"
           "for N random configurations per region (every parameter drawn uniformly from the\n"
           "database's grid; the draws depend only on the seed, the program and the region, so\n"
           "a larger N later adds to the same draws) and, with --presets, for every preset.\n"
           "Configurations already labelled are skipped, so running it again does nothing new;\n"
           "each region's labels are written in one transaction.\n\n"
           "Options:\n"
           "  --db DB        the feature database (built by concorde build-db)\n"
           "  --configs N    random configurations per region (default 0)\n"
           "  --presets      also label every preset (big, n1-like, little, your own)\n"
           "  --seed S       seed of the random configurations (default 1)\n"
           "  --jobs N       threads (default: every core)\n"
           "  --shard I/N    only complete regions whose index % N == I\n";
}

int LabelCommand::run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    ArgParser parser(args);
    const auto dbPath = parser.takeValue("--db");
    RegionLabeler::Options options;
    options.randomConfigs = parser.takeUnsigned("--configs", 0, 0, 1'000'000);
    const bool presets = parser.takeFlag("--presets");
    options.seed = parser.takeUnsigned("--seed", 1);
    options.jobs = static_cast<unsigned>(parser.takeUnsigned("--jobs", 0, 1, 4096));
    if (const auto shard = parser.takeValue("--shard"))
        options.shard = Shard::parse(*shard);
    const auto rest = parser.finish();
    if (!dbPath)
        throw usageError("label needs --db DB.sqlite");
    if (!rest.empty())
        throw usageError("unexpected argument '" + rest.front() + "'");
    if (options.randomConfigs == 0 && !presets)
        throw usageError("nothing to label: give --configs N and/or --presets");
    if (presets)
        options.presets = PresetLibrary::loadDefault().presets();
    if (!FeatureDatabase::isSqliteFile(*dbPath))
        FeatureDatabase::openReadOnly(*dbPath); // the precise missing/empty/not-SQLite error

    FeatureDatabase db = FeatureDatabase::openForWriting(*dbPath);
    JobRunner runner(err, "label");
    const RegionLabeler::Summary summary =
        runner.run([&](const JobControl& job) { return RegionLabeler::label(db, options, job); });
    db.close();
    out << "database:   " << *dbPath << "\n"
        << "regions:    " << summary.regions
        << (options.shard.all() ? "" : " in shard " + options.shard.toString()) << "\n"
        << "labels:     " << summary.labelsWritten << " written, " << summary.labelsExisting
        << " already present\n"
        << "time:       " << std::fixed << std::setprecision(1) << summary.seconds << " s\n";
    return 0;
}

} // namespace concorde::cli
