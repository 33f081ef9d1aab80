#include "MergeDbCommand.h"

#include "JobRunner.h"

#include "ArgParser.h"
#include "common/ConcordeError.h"
#include "store/DatabaseMerger.h"

#include <ostream>

namespace concorde::cli {

std::string MergeDbCommand::help() const {
    return "Usage: concorde merge-db --out ALL.sqlite SHARDS...\n\n"
           "Merges the databases written by `concorde build-db --shard I/N` (and `concorde\n"
           "label --shard I/N`) into one. The shards must come from the same TRACES list, grid\n"
           "and window size; this is checked. Every region is decoded and checked before it is\n"
           "copied, with its labels. The result equals one unsharded build. If ALL.sqlite exists\n"
           "it is extended, so shards can be merged as they finish.\n\n"
           "Example (a Slurm job array of 16 tasks, then one merge):\n"
           "  concorde build-db --shard $SLURM_ARRAY_TASK_ID/16 --out shard-$SLURM_ARRAY_TASK_ID"
           ".sqlite traces/*.ctrace\n"
           "  concorde merge-db --out all.sqlite shard-*.sqlite\n";
}

int MergeDbCommand::run(const std::vector<std::string>& args, std::ostream& out,
                        std::ostream& err) {
    ArgParser parser(args);
    const auto output = parser.takeValue("--out");
    const auto shards = parser.finish();
    if (!output)
        throw usageError("merge-db needs --out ALL.sqlite");
    if (shards.empty())
        throw usageError("merge-db needs at least one shard database");
    const std::vector<std::filesystem::path> paths(shards.begin(), shards.end());
    JobRunner runner(err, "merge-db");
    const auto summary = runner.run(
        [&](const JobControl& job) { return DatabaseMerger::merge(*output, paths, job); });
    out << "database:   " << *output << "\n"
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
