#pragma once

#include "common/JobControl.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace concorde {

/// `concorde merge-dataset`: joins the files written by `concorde dataset --shard I/N` into the
/// file one unsharded run writes, row for row.
///
/// Every shard must have been drawn with the same seed, hold-out list, inputs, grid, feature
/// layout and shard count N (their sources differ only in the "shard" field DatasetBuilder puts
/// there); this is checked before anything is written, and so is that no region has draws in
/// two different shards. Every row of a shard is decoded and checked before it is copied (a
/// damaged shard is refused: running its `dataset` command again repairs it). The merged file's
/// settings are those of the unsharded run.
///
/// Atomic and resumable: a new output is assembled in OUT.merging and renamed to OUT once every
/// given shard is in, so OUT is never half a merge; an existing OUT is extended, one transaction
/// per shard, with only the rows it lacks. Merging the same shards again changes nothing, and
/// shards can be merged as they finish.
class DatasetMerger {
public:
    struct Summary {
        std::size_t shards = 0;       ///< files given
        std::uint32_t shardCount = 0; ///< N of their `--shard I/N`
        /// Shard indices of 0..N-1 that no given file holds (their draws are missing).
        std::vector<std::uint32_t> missingShards;
        std::size_t copied = 0;   ///< rows added to the output
        std::size_t existing = 0; ///< rows of the shards the output already had
        std::size_t total = 0;    ///< rows in the output afterwards
        /// Draw ids below the largest one that the output lacks (a shard unfinished or absent).
        std::size_t gaps = 0;
    };

    /// `job` counts the shards merged, with a log line for each; a cancel stops between shards
    /// and throws jobCancelled (the rows copied so far stay in OUT.merging or OUT).
    static Summary merge(const std::filesystem::path& out,
                         const std::vector<std::filesystem::path>& shards,
                         const JobControl& job = {});

    /// Where a new output is assembled before it is renamed to `out`.
    static std::filesystem::path stagingPath(const std::filesystem::path& out);
};

} // namespace concorde
