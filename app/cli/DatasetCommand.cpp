#include "DatasetCommand.h"

#include "ArgParser.h"
#include "JobRunner.h"
#include "common/ConcordeError.h"
#include "pipeline/DatasetBuilder.h"
#include "store/GridDescription.h"

#include <iomanip>
#include <ostream>
#include <sstream>

namespace concorde::cli {

std::string DatasetCommand::help() const {
    return "Usage: concorde dataset --traces TRACES... --samples N --out FILE [--seed S]\n"
           "                        [--jobs N] [--hold-out PROGRAM...] [--grid G]\n"
           "                        [--labels-from OLD]\n"
           "       concorde dataset --db DB.sqlite --samples N --out FILE [options]\n\n"
           "Draws N random (region, configuration) samples: a region with probability\n"
           "proportional to its length, every parameter independently from the grid. For each\n"
           "it stores the feature vector for exactly that configuration, the reference\n"
           "simulator's CPI (the label) and the min-of-bounds CPI (the no-ML baseline).\n"
           "From traces, each region's series are computed as build-db would (seconds per\n"
           "region); from a feature database they are read, with the trace records stored in "
           "it.\n\n"
           "Splits: samples of --hold-out programs are 'held_out' and never trained on; regions\n"
           "3, 11, 19... of the other programs are 'test' (never trained on); the rest 'train'.\n\n"
           "Parallel over regions and samples; resumable: samples are written region by region,\n"
           "and running the same command again (or with a larger N) adds only missing draws.\n\n"
           "Options:\n"
           "  --traces T...   .ctrace files (the program is named after the file)\n"
           "  --db DB         a feature database instead of traces\n"
           "  --samples N     number of draws\n"
           "  --out FILE      the dataset file (SQLite; created or resumed)\n"
           "  --seed S        seed of the draws (default 1)\n"
           "  --jobs N        threads (default: every core)\n"
           "  --hold-out P    a program to keep out of training (repeatable, or P1,P2)\n"
           "  --grid G        traces only: default, full or FILE.json (default: default)\n"
           "  --balanced F    fraction of draws that are balanced cores (every parameter near\n"
           "                  one common size level) instead of independent draws (default 0)\n"
           "  --labels-from D an earlier dataset with the same seed and inputs: its labels\n"
           "                  are reused for the same draws (only features are recomputed,\n"
           "                  e.g. after a feature layout change)\n";
}

int DatasetCommand::run(const std::vector<std::string>& args, std::ostream& out,
                        std::ostream& err) {
    ArgParser parser(args);
    const bool fromTraces = parser.takeFlag("--traces");
    const auto dbPath = parser.takeValue("--db");
    const auto output = parser.takeValue("--out");
    const auto grid = parser.takeValue("--grid");
    const auto labelsFrom = parser.takeValue("--labels-from");
    DatasetBuilder::Options options;
    options.samples = parser.takeUnsigned("--samples", 0, 1, 100'000'000);
    options.seed = parser.takeUnsigned("--seed", 1);
    options.jobs = static_cast<unsigned>(parser.takeUnsigned("--jobs", 0, 1, 4096));
    for (const auto& value : parser.takeValues("--hold-out")) {
        std::stringstream list(value);
        for (std::string item; std::getline(list, item, ',');)
            if (!item.empty())
                options.holdOut.push_back(item);
    }
    if (labelsFrom)
        options.labelsFrom = *labelsFrom;
    options.balancedFraction = parser.takeDouble("--balanced", 0.0, 0.0, 1.0);
    const auto rest = parser.finish();
    if (!output)
        throw usageError("dataset needs --out FILE");
    if (options.samples == 0)
        throw usageError("dataset needs --samples N");
    if (fromTraces == dbPath.has_value())
        throw usageError("dataset needs either --traces TRACES... or --db DB.sqlite");
    if (dbPath && !rest.empty())
        throw usageError("unexpected argument '" + rest.front() + "' (traces go after --traces)");
    if (dbPath && grid)
        throw usageError("--grid applies to traces only; a database has its own grid");
    if (fromTraces && rest.empty())
        throw usageError("--traces needs at least one .ctrace file");

    JobRunner runner(err, "dataset");
    const DatasetBuilder::Summary summary = runner.run([&](const JobControl& job) {
        if (dbPath)
            return DatasetBuilder::fromDatabase(*dbPath, *output, options, job);
        std::vector<std::filesystem::path> traces(rest.begin(), rest.end());
        return DatasetBuilder::fromTraces(traces, GridDescription::resolve(grid.value_or("default")),
                                          *output, options, job);
    });
    out << "dataset:    " << *output << "\n"
        << "samples:    " << summary.written << " drawn, " << summary.existing
        << " already present, " << summary.total << " in the file\n"
        << "regions:    " << summary.regions << " sampled this run\n"
        << "time:       " << std::fixed << std::setprecision(1) << summary.seconds << " s\n";
    return 0;
}

} // namespace concorde::cli
