#include "BuildDbCommand.h"

#include "CommonOptions.h"
#include "JobRunner.h"
#include "TextFormat.h"
#include "pipeline/DatabaseBuilder.h"
#include "store/FeatureDatabase.h"
#include "store/GridDescription.h"

#include <CLI/CLI.hpp>
#include <iomanip>
#include <ostream>
#include <sstream>

namespace concorde::cli {

std::string BuildDbCommand::description() const {
    return "Computes, for every region of every trace, the per-window series of every\n"
           "analytical model at every point of the parameter grid and stores them\n"
           "in an SQLite feature database with the region's trace records (so that `concorde\n"
           "label` needs no traces). Each region is written in its own transaction.\n\n"
           "Resumable: after a crash, kill or Ctrl-C, run the same command again; complete\n"
           "regions are skipped and the result is identical to an uninterrupted build. The\n"
           "program of a trace is named after the trace file (gzip.ctrace -> gzip).\n";
}

std::string BuildDbCommand::epilogue() const {
    return "Example:\n"
           "  concorde build-db --out progs.sqlite data/samples/*.ctrace\n";
}

void BuildDbCommand::declare(CLI::App& app) {
    app.add_option("TRACES", traces_, "the .ctrace files")->required();
    app.add_option("--out", output_, "the database (created, or resumed if it exists)")
        ->type_name("DB")
        ->required();
    app.add_option("--grid", grid_,
                   "default (the grid of docs/design.md §3), full (every integer width, pipe count "
                   "and misprediction "
                   "rate), or a JSON file {\"rob\": [64, 128], ...} whose parameters replace the "
                   "default grid's")
        ->type_name("G")
        ->capture_default_str();
    addJobsOption(app, options_.jobs);
    app.add_option("--window", options_.windowSize, "window size in instructions")
        ->type_name("W")
        ->check(wholeNumber(16, 1u << 20))
        ->capture_default_str();
    addLoadQueueModelOption(app, options_.analysis,
                            "A database that exists keeps the analysis it was built with");
    addShardOption(app, options_.shard,
                   "only regions whose global index % N == I (Slurm job arrays); combine the "
                   "shards' databases with `concorde merge-db`");
}

int BuildDbCommand::run(std::ostream& out, std::ostream& err) {
    options_.traces.assign(traces_.begin(), traces_.end());
    options_.grid = GridDescription::resolve(grid_);
    options_.createdBy = "concorde build-db";

    FeatureDatabase db = FeatureDatabase::openForWriting(output_);
    JobRunner runner(err, "build-db");
    const DatabaseBuilder::Summary summary = runner.run(
        [&](const JobControl& job) { return DatabaseBuilder::build(db, options_, job); });
    db.close();
    out << "database:   " << output_ << "\n"
        << "regions:    " << summary.regionsBuilt << " built, " << summary.alreadyComplete
        << " already complete, of " << summary.regionsInShard
        << (options_.shard.all() ? "" : " in shard " + options_.shard.toString()) << "\n";
    if (summary.regionsBuilt)
        out << "stored:     series "
            << TextFormat::kilobytes(summary.seriesBytes / summary.regionsBuilt)
            << " per region, records "
            << TextFormat::kilobytes(summary.recordBytes / summary.regionsBuilt) << " per region\n";
    out << "time:       " << std::fixed << std::setprecision(1) << summary.seconds << " s\n";
    return 0;
}

} // namespace concorde::cli
