#pragma once

#include "params/CoreConfig.h"
#include "phases/PhaseClustering.h"
#include "phases/PhaseClusters.h"

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace concorde {

class FeatureDatabase;

/// The phases of a feature database's programs (docs/design.md §10: `regions.phase`), computed with
/// PhaseClustering and stored one program per transaction. What `concorde phases` runs.
///
/// **Input per program**: its regions in region-index order.
/// - When every region of the program has a basic-block vector (build-db stores the trace's),
///   every region is clustered, complete or not, from its BBV (SimPoint: random projection).
/// - Otherwise the program falls back to feature vectors, which come from stored series and so
///   exist only for complete regions; incomplete regions are left out and keep a NULL phase.
///   A region's feature vector is a compact summary of its behaviour at the database's
///   reference configuration (referenceConfig()): one number per series of the standard feature
///   layout's distribution blocks — for the per-window IPC bounds of the resource blocks the
///   region's CPI under that resource alone (the block's reciprocal mean), for the auxiliary
///   distributions (fence and branch densities, mispredictions, ROB latency components) the
///   series' mean — plus the aux.rob_sizes scalars (the region's IPC at six ROB sizes). That is
///   27 numbers, z-normalised by PhaseClustering; parameter columns are left out (they are the
///   same for every region). PhaseClustering's documentation explains why a compact summary
///   rather than the full 479-wide feature vector.
///
/// Phases are numbered by first appearance in region order (phase 0 holds region 0).
class DatabasePhases {
public:
    struct Options {
        PhaseClustering::Options clustering;
    };

    /// One program's result.
    struct Program {
        std::int64_t programId = 0;
        std::string program;
        /// The clustered regions, in region-index order, parallel to clusters.phaseOf.
        std::vector<std::int64_t> regionIds;
        std::vector<std::uint32_t> regionIndices;
        /// Regions left out (feature fallback only: incomplete regions), by region index.
        std::vector<std::uint32_t> skipped;
        PhaseClusters clusters;

        /// {"program", "space", "k", "regions": [{"region", "phase"}], "skipped": [...],
        ///  "phases": [{"phase", "size", "weight", "representative" (a region index),
        ///  "regions": [...]}], "scores": [{"k", "bic", "distortion"}]}
        nlohmann::json toJson() const;
    };

    /// The configuration the feature fallback reads series at: per parameter its default value
    /// (ParameterSpec::defaultValue) when the database's grid holds it, else the middle value of
    /// the database's grid (the lower of the two middle ones for an even count).
    static CoreConfig referenceConfig(FeatureDatabase& database);

    /// Clusters one program (by name; a usage error listing the programs for an unknown one, a
    /// bad-input error when it has no region to cluster). Reads only.
    static Program compute(FeatureDatabase& database, const std::string& program,
                           const Options& options);
    /// Writes the result with FeatureDatabase::setPhases (one transaction).
    static void store(FeatureDatabase& database, const Program& result);
};

} // namespace concorde
