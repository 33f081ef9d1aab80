#include "DatasetCommand.h"

#include "CommonOptions.h"
#include "ConfigOptions.h"
#include "JobRunner.h"
#include "common/ConcordeError.h"
#include "pipeline/DatasetBuilder.h"
#include "store/GridDescription.h"
#include "store/Shard.h"

#include <CLI/CLI.hpp>
#include <iomanip>
#include <ostream>

namespace concorde::cli {

std::string DatasetCommand::description() const {
    return "Draws N random (region, configuration) samples, from traces (--traces) or from a\n"
           "feature database (--db): a region with probability proportional to its length, every\n"
           "parameter independently from the grid. For each it stores the feature vector for\n"
           "exactly that configuration, the reference simulator's CPI (the label) and the\n"
           "min-of-bounds CPI (the no-ML baseline). --balanced and --near-presets make a\n"
           "fraction of the draws balanced cores or presets with one to three sliders moved.\n"
           "From traces, each region's series are\n"
           "computed as build-db would (seconds per region); from a feature database they are\n"
           "read, with the trace records stored in it.\n\n"
           "Splits: samples of --hold-out programs are 'held_out' and never trained on; regions\n"
           "3, 11, 19... of the other programs are 'test' (never trained on); the rest 'train'.\n\n"
           "Parallel over regions and samples; resumable: samples are written region by region,\n"
           "and running the same command again (or with a larger N) adds only missing draws.\n\n"
           "Sharded (--shard I/N, e.g. a Slurm job array): each shard draws the same plan and\n"
           "keeps the draws on its regions; `concorde merge-dataset` joins the N files into the\n"
           "file one unsharded run writes.\n";
}

void DatasetCommand::declare(CLI::App& app) {
    CLI::Option* traces =
        app.add_option("--traces", traces_, ".ctrace files (the program is named after the file)")
            ->type_name("T")
            // An option name right after --traces means it was given no file.
            ->check(CLI::Validator(
                [](std::string& value) {
                    return value.rfind('-', 0) == 0
                               ? "needs at least one .ctrace file before " + value
                               : std::string();
                },
                "", "not an option"));
    app.add_option("--db", db_, "a feature database instead of traces")
        ->type_name("DB")
        ->excludes(traces);
    app.add_option("--samples", options_.samples, "number of draws")
        ->type_name("N")
        ->check(wholeNumber(1, 100'000'000))
        ->required();
    app.add_option("--out", output_, "the dataset file (SQLite; created or resumed)")
        ->type_name("FILE")
        ->required();
    addSeedOption(app, options_.seed, "seed of the draws");
    addJobsOption(app, options_.jobs);
    app.add_option("--hold-out", holdOut_, "a program to keep out of training, or P1,P2")
        ->type_name("P")
        ->delimiter(',')
        ->allow_extra_args(false);
    app.add_option("--grid", grid_, "default, full or FILE.json")
        ->type_name("G")
        ->capture_default_str()
        ->needs(traces);
    addLoadQueueModelOption(app, options_.analysis)->needs(traces);
    app.add_option("--balanced", options_.balancedFraction,
                   "fraction of draws that are balanced cores (every parameter near one common "
                   "size level) instead of independent draws")
        ->type_name("F")
        ->check(realNumber(0.0, 1.0))
        ->capture_default_str();
    app.add_option("--near-presets", options_.nearAnchorFraction,
                   "fraction of draws that start at a preset (big, n1-like, little, your own) and "
                   "move one to three of its parameters to random grid values")
        ->type_name("F")
        ->check(realNumber(0.0, 1.0))
        ->capture_default_str();
    app.add_option("--labels-from", labelsFrom_,
                   "an earlier dataset with the same seed and inputs: its labels are reused for "
                   "the same draws (only features are recomputed, e.g. after a feature layout "
                   "change)")
        ->type_name("D");
    addShardOption(app, options_.shard,
                   "only the draws on regions whose position in the inputs % N == I; merge the "
                   "shards' files with `concorde merge-dataset`");
}

int DatasetCommand::run(std::ostream& out, std::ostream& err) {
    if (traces_.empty() && !db_)
        throw usageError("dataset needs either --traces TRACES... or --db DB.sqlite");
    for (const auto& program : holdOut_)
        if (!program.empty()) // "--hold-out a,,b" and a trailing comma name no program
            options_.holdOut.push_back(program);
    if (labelsFrom_)
        options_.labelsFrom = *labelsFrom_;
    if (options_.balancedFraction + options_.nearAnchorFraction > 1.0)
        throw usageError("--balanced and --near-presets add up to more than 1");
    if (options_.nearAnchorFraction > 0) {
        const PresetLibrary library = ConfigOptions::loadPresets();
        for (const Preset& preset : library.presets())
            options_.anchors.emplace_back(preset.name, preset.config);
    }

    JobRunner runner(err, "dataset");
    const DatasetBuilder::Summary summary = runner.run([&](const JobControl& job) {
        if (db_)
            return DatasetBuilder::fromDatabase(*db_, output_, options_, job);
        const std::vector<std::filesystem::path> traces(traces_.begin(), traces_.end());
        return DatasetBuilder::fromTraces(traces, GridDescription::resolve(grid_), output_,
                                          options_, job);
    });
    if (summary.removed > 0)
        out << "repaired:   " << summary.removed << " damaged sample"
            << (summary.removed == 1 ? "" : "s")
            << " removed and drawn again (first: " << summary.firstRemovedProblem << ")\n";
    out << "dataset:    " << output_ << "\n"
        << "samples:    " << summary.written << " drawn, " << summary.existing
        << " already present, " << summary.total << " in the file\n";
    if (!options_.shard.all())
        out << "shard:      " << options_.shard.toString() << ", " << summary.drawsInShard << " of "
            << options_.samples << " draws\n";
    out << "regions:    " << summary.regions << " sampled this run\n"
        << "time:       " << std::fixed << std::setprecision(1) << summary.seconds << " s\n";
    return 0;
}

} // namespace concorde::cli
