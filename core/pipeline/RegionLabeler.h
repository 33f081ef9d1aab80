#pragma once

#include "bounds/GridBounds.h"
#include "common/JobControl.h"
#include "params/CoreConfig.h"
#include "params/Preset.h"
#include "store/Shard.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace concorde {

class FeatureDatabase;

/// `concorde label`: reference-simulator labels (CPI, cycles, per-window IPC) for the regions of
/// a feature database, from the records stored in the database itself.
///
/// Per region: `randomConfigs` distinct random configurations — every parameter drawn uniformly
/// and independently from the database's grid, the k-th draw a pure function of (seed, program
/// name, region index, k), so re-running with a larger N only adds configurations — and, when
/// asked, every preset. Configurations a region already has a label for are skipped, so
/// labelling is idempotent and resumable. Each region's new labels are one transaction.
/// Simulations run in parallel with TBB (regions in a pipeline, configurations in parallel).
class RegionLabeler {
public:
    struct Options {
        std::size_t randomConfigs = 0;
        std::vector<Preset> presets; ///< labelled with source "preset:NAME"
        std::uint64_t seed = 1;
        unsigned jobs = 0; ///< 0: every core
        Shard shard;       ///< over complete regions, in region id order
    };
    struct Summary {
        std::size_t regions = 0; ///< complete regions in the shard
        std::size_t labelsWritten = 0;
        std::size_t labelsExisting = 0; ///< requested configurations that were already labelled
        double seconds = 0;
    };

    /// Progress counts the regions of the shard that have something to label, with a log line
    /// per region written. A cancelled job writes no partial region and throws jobCancelled
    /// saying how to resume.
    static Summary label(FeatureDatabase& db, const Options& options, const JobControl& job = {});

    /// The `draw`-th random configuration of a region (see the class comment).
    static CoreConfig randomConfig(const BoundsGrid& grid, std::uint64_t seed,
                                   const std::string& program, std::uint32_t regionIndex,
                                   std::uint64_t draw);
    /// The region's random configurations: the first `count` distinct draws (fewer only if the
    /// grid has fewer distinct points than 64 × count draws find).
    static std::vector<CoreConfig> randomConfigs(const BoundsGrid& grid, std::uint64_t seed,
                                                 const std::string& program,
                                                 std::uint32_t regionIndex, std::size_t count);
};

} // namespace concorde
