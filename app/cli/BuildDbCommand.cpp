#include "BuildDbCommand.h"

#include "ArgParser.h"
#include "JobRunner.h"
#include "common/ConcordeError.h"
#include "pipeline/DatabaseBuilder.h"
#include "store/FeatureDatabase.h"
#include "store/GridDescription.h"

#include <iomanip>
#include <ostream>
#include <sstream>

namespace concorde::cli {

std::string BuildDbCommand::help() const {
    return "Usage: concorde build-db --out DB.sqlite [--grid default|full|FILE.json] [--jobs N]\n"
           "                         [--window W] [--shard I/N] TRACES...\n\n"
           "Computes, for every region of every trace, the per-window series of every\n"
           "analytical model at every point of the parameter grid (DESIGN §7) and stores them\n"
           "in an SQLite feature database with the region's trace records (so that `concorde\n"
           "label` needs no traces). Each region is written in its own transaction.\n\n"
           "Resumable: after a crash, kill or Ctrl-C, run the same command again; complete\n"
           "regions are skipped and the result is identical to an uninterrupted build. The\n"
           "program of a trace is named after the trace file (gzip.ctrace -> gzip).\n\n"
           "Options:\n"
           "  --out DB        the database (created, or resumed if it exists)\n"
           "  --grid G        default (DESIGN §3), full (every integer width, pipe count and\n"
           "                  misprediction rate), or a JSON file {\"rob\": [64, 128], ...}\n"
           "                  whose parameters replace the default grid's (default: default)\n"
           "  --jobs N        threads (default: every core)\n"
           "  --window W      window size in instructions (default 400)\n"
           "  --shard I/N     only regions whose global index % N == I (Slurm job arrays);\n"
           "                  combine the shards' databases with `concorde merge-db`\n\n"
           "Example:\n"
           "  concorde build-db --out progs.sqlite data/samples/*.ctrace\n";
}

namespace {

std::string kilobytes(std::uint64_t bytes) {
    std::ostringstream text;
    text << std::fixed << std::setprecision(1) << bytes / 1000.0 << " kB";
    return text.str();
}

std::string seconds(double value) {
    std::ostringstream text;
    text << std::fixed << std::setprecision(1) << value << " s";
    return text.str();
}

} // namespace

int BuildDbCommand::run(const std::vector<std::string>& args, std::ostream& out,
                        std::ostream& err) {
    ArgParser parser(args);
    const auto output = parser.takeValue("--out");
    const std::string gridSpec = parser.takeValue("--grid").value_or("default");
    const auto jobs = static_cast<unsigned>(parser.takeUnsigned("--jobs", 0, 1, 4096));
    const auto window =
        static_cast<std::uint32_t>(parser.takeUnsigned("--window", 400, 16, 1u << 20));
    const auto shardText = parser.takeValue("--shard");
    const auto traces = parser.finish();
    if (!output)
        throw usageError("build-db needs --out DB.sqlite");
    if (traces.empty())
        throw usageError("build-db needs at least one TRACE");

    DatabaseBuilder::Options options;
    options.traces.assign(traces.begin(), traces.end());
    options.grid = GridDescription::resolve(gridSpec);
    options.windowSize = window;
    options.jobs = jobs;
    if (shardText)
        options.shard = Shard::parse(*shardText);
    options.createdBy = "concorde build-db";

    FeatureDatabase db = FeatureDatabase::openForWriting(*output);
    JobRunner runner(err, "build-db");
    const DatabaseBuilder::Summary summary = runner.run(
        [&](const JobControl& job) { return DatabaseBuilder::build(db, options, job); });
    db.close();
    out << "database:   " << *output << "\n"
        << "regions:    " << summary.regionsBuilt << " built, " << summary.alreadyComplete
        << " already complete, of " << summary.regionsInShard
        << (options.shard.all() ? "" : " in shard " + options.shard.toString()) << "\n";
    if (summary.regionsBuilt)
        out << "stored:     series " << kilobytes(summary.seriesBytes / summary.regionsBuilt)
            << " per region, records " << kilobytes(summary.recordBytes / summary.regionsBuilt)
            << " per region\n";
    out << "time:       " << std::fixed << std::setprecision(1) << summary.seconds << " s\n";
    return 0;
}

} // namespace concorde::cli
