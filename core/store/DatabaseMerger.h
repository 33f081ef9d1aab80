#pragma once

#include "common/JobControl.h"

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace concorde {

/// `concorde merge-db`: combines the outputs of `build-db --shard I/N` (and `label --shard`)
/// into one database. The shards must have been built from the same traces with the same grid
/// and window size (checked: every shard registers every program and region with the same ids,
/// see DatabaseBuilder). Every complete region of every shard is checked (each blob decoded)
/// and copied with its labels; regions already complete in the output are kept. The result
/// equals a single unsharded build. Merging into an existing output adds what it lacks, so
/// shards can be merged as they finish.
class DatabaseMerger {
public:
    struct Summary {
        std::size_t shards = 0;
        std::size_t regions = 0;         ///< regions in the merged database
        std::size_t completeRegions = 0; ///< of those, complete after merging
        std::size_t regionsCopied = 0;
        std::size_t labelsCopied = 0;
    };

    /// `job` counts the shards merged, with a log line for each. A cancel stops between shards
    /// (each shard's copy is one transaction) and throws jobCancelled.
    static Summary merge(const std::filesystem::path& out,
                         const std::vector<std::filesystem::path>& shards,
                         const JobControl& job = {});
};

} // namespace concorde
