#pragma once

#include "bounds/GridBounds.h"
#include "common/JobControl.h"
#include "params/MethodConstants.h"
#include "store/DatabaseRows.h"
#include "store/SeriesCatalog.h"
#include "store/SeriesGroupCodec.h"
#include "store/Shard.h"

#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace concorde {

class FeatureDatabase;

/// What `concorde build-db` does: computes every series of the grid (GridBounds) for every
/// region of the given traces and stores each region in its own transaction.
///
/// Resumable and deterministic: all programs and regions are registered first, in trace order
/// then region order, so their ids do not depend on which regions happen to be built (or in
/// which shard); complete regions are skipped; encoding is deterministic. A build interrupted at
/// any point (Ctrl-C, SIGKILL, a crash) and re-run ends with exactly the content of an
/// uninterrupted build, and so does merging the outputs of every shard.
///
/// Parallel with TBB inside an arena of `jobs` threads: a pipeline reads a region's records
/// (serial), computes and encodes it (parallel: up to `jobs` regions in flight, each also
/// parallel over memory configurations) and commits it (serial, in order).
class DatabaseBuilder {
public:
    struct Options {
        std::vector<std::filesystem::path> traces;
        BoundsGrid grid = defaultBoundsGrid();
        std::uint32_t windowSize = kDefaultWindowSize;
        unsigned jobs = 0; ///< 0: every core
        Shard shard;
        int seriesLevel = SeriesGroupCodec::kDefaultLevel;
        std::string createdBy = "concorde build-db";
        /// The analysis of a new database; one that exists keeps its own.
        AnalysisRevision analysis = AnalysisRevision::current();
    };

    struct Summary {
        std::size_t regionsInShard = 0;
        std::size_t alreadyComplete = 0;
        std::size_t regionsBuilt = 0;
        std::uint64_t seriesBytes = 0; ///< series blobs written by this run
        std::uint64_t recordBytes = 0; ///< record blobs written by this run
        double seconds = 0;
    };

    /// Builds into `db` (open for writing).
    ///
    /// Progress counts memory configurations computed over all regions of this run, with the
    /// regions committed as the item ("3/12 regions"). Log lines: one after registration (how
    /// many regions the shard has, how many are already complete) and one per committed region
    /// with its size and wall time. A cancelled job stops after the regions it committed and
    /// throws jobCancelled saying how to resume.
    static Summary build(FeatureDatabase& db, const Options& options, const JobControl& job = {});

    /// The program name for a trace file: its stem ("data/gzip-decompress.ctrace" →
    /// "gzip-decompress").
    static std::string programName(const std::filesystem::path& trace);

    /// Encodes one region's computed series (groups in parallel) and records.
    static RegionData encodeRegion(const SeriesCatalog& catalog, const GridBounds::Result& result,
                                   std::span<const TraceRecord> records,
                                   int level = SeriesGroupCodec::kDefaultLevel);
};

} // namespace concorde
