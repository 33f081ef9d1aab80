#include "MergeDbCommand.h"

#include "JobRunner.h"
#include "store/DatabaseMerger.h"

#include <CLI/CLI.hpp>
#include <ostream>

namespace concorde::cli {

std::string MergeDbCommand::description() const {
    return "Merges the databases written by `concorde build-db --shard I/N` (and `concorde\n"
           "label --shard I/N`) into one. The shards must come from the same TRACES list, grid\n"
           "and window size; this is checked. Every region is decoded and checked before it is\n"
           "copied, with its labels. The result equals one unsharded build. If ALL.sqlite exists\n"
           "it is extended, so shards can be merged as they finish.\n";
}

std::string MergeDbCommand::epilogue() const {
    return "Example (a Slurm job array of 16 tasks, then one merge):\n"
           "  concorde build-db --shard $SLURM_ARRAY_TASK_ID/16 --out shard-$SLURM_ARRAY_TASK_ID"
           ".sqlite traces/*.ctrace\n"
           "  concorde merge-db --out all.sqlite shard-*.sqlite\n";
}

void MergeDbCommand::declare(CLI::App& app) {
    app.add_option("SHARDS", shards_, "the shard databases")->required();
    app.add_option("--out", output_, "the merged database (created or extended)")
        ->type_name("ALL.sqlite")
        ->required();
}

int MergeDbCommand::run(std::ostream& out, std::ostream& err) {
    const std::vector<std::filesystem::path> paths(shards_.begin(), shards_.end());
    JobRunner runner(err, "merge-db");
    const auto summary = runner.run(
        [&](const JobControl& job) { return DatabaseMerger::merge(output_, paths, job); });
    out << "database:   " << output_ << "\n"
        << "shards:     " << summary.shards << "\n"
        << "copied:     " << summary.regionsCopied << " regions, " << summary.labelsCopied
        << " labels\n"
        << "complete:   " << summary.completeRegions << " of " << summary.regions << " regions\n";
    if (summary.completeRegions < summary.regions)
        err << "merge-db: warning: " << summary.regions - summary.completeRegions
            << " regions are still missing (a shard not merged yet, or not finished)\n";
    return 0;
}

} // namespace concorde::cli
