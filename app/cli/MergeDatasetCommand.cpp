#include "MergeDatasetCommand.h"

#include "JobRunner.h"
#include "pipeline/DatasetMerger.h"

#include <CLI/CLI.hpp>
#include <ostream>

namespace concorde::cli {

std::string MergeDatasetCommand::description() const {
    return "Merges the dataset files written by `concorde dataset --shard I/N` into the file one\n"
           "unsharded run writes, row for row. The shards must come from the same command (seed,\n"
           "inputs, hold-out list, grid, N); this is checked, and every row is decoded before it\n"
           "is copied. A new ALL is assembled in ALL.merging and renamed when complete; an\n"
           "existing ALL is extended with the rows it lacks, so shards can be merged as they\n"
           "finish and merging again changes nothing.\n";
}

std::string MergeDatasetCommand::epilogue() const {
    return "Example (a Slurm job array of 16 tasks, then one merge):\n"
           "  concorde dataset --db all.sqlite --samples 100000 --seed 1 --shard "
           "$SLURM_ARRAY_TASK_ID/16 --out dataset-$SLURM_ARRAY_TASK_ID.dataset\n"
           "  concorde merge-dataset --out all.dataset dataset-*.dataset\n";
}

void MergeDatasetCommand::declare(CLI::App& app) {
    app.add_option("SHARDS", shards_, "the shard dataset files")->required();
    app.add_option("--out", output_, "the merged dataset (created or extended)")
        ->type_name("ALL.dataset")
        ->required();
}

int MergeDatasetCommand::run(std::ostream& out, std::ostream& err) {
    const std::vector<std::filesystem::path> paths(shards_.begin(), shards_.end());
    JobRunner runner(err, "merge-dataset");
    const auto summary = runner.run(
        [&](const JobControl& job) { return DatasetMerger::merge(output_, paths, job); });
    out << "dataset:    " << output_ << "\n"
        << "shards:     " << summary.shards << " files of " << summary.shardCount << " shards\n"
        << "samples:    " << summary.copied << " copied, " << summary.existing
        << " already present, " << summary.total << " in the file\n";
    if (!summary.missingShards.empty()) {
        err << "merge-dataset: warning: shard";
        for (std::size_t i = 0; i < summary.missingShards.size(); ++i)
            err << (i ? ", " : " ") << summary.missingShards[i] << "/" << summary.shardCount;
        err << " not given; their draws are missing\n";
    }
    if (summary.gaps > 0)
        err << "merge-dataset: warning: " << summary.gaps
            << " draws below the last one are missing (a shard not merged yet, or not "
               "finished)\n";
    return 0;
}

} // namespace concorde::cli
