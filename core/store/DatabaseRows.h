#pragma once

#include "bounds/AnalysisRevision.h"
#include "bounds/GridBounds.h"
#include "params/MethodConstants.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace concorde {

/// A row of `programs`: one traced program (one .ctrace file).
struct ProgramRow {
    std::int64_t id = 0;
    std::string name;        ///< the trace file's stem, unique in the database
    std::string commandLine; ///< the traced command line (TraceInfo::commandLine)
    std::string sourceTrace; ///< absolute path of the trace when the database was built
    std::uint64_t instructionsTraced = 0; ///< records in the trace, warm-up included
};

/// A row of `regions`.
struct RegionRow {
    std::int64_t id = 0;
    std::int64_t programId = 0;
    std::uint32_t regionIndex = 0; ///< position in its trace's region table
    std::uint64_t programStart = 0;
    std::uint64_t warmup = 0;
    std::uint64_t length = 0; ///< measured instructions
    /// Functional warm-up instructions summarised in the region's warm state (0: cold).
    std::uint64_t functionalWarmup = 0;
    std::optional<std::int64_t> phase; ///< NULL until phases are computed
    std::vector<std::pair<std::uint64_t, std::uint64_t>> basicBlockVector;
    bool complete = false; ///< every series and the records are stored
};

/// One row of `series`: every series of one name for one region, encoded by SeriesGroupCodec.
struct SeriesGroupBlob {
    std::string name;
    std::uint32_t seriesCount = 0;
    std::uint32_t windows = 0;
    int encoding = 1;
    std::vector<std::uint8_t> data;
};

/// One row of `region_records`, encoded by RecordBlobCodec.
struct RecordsBlob {
    std::uint64_t recordCount = 0;
    int encoding = 1;
    std::vector<std::uint8_t> data;
    /// The region's warm state in WarmState's byte form (Region::warmState); empty: cold.
    std::vector<std::uint8_t> warmState;
};

/// Everything build-db stores for one region, written in one transaction.
struct RegionData {
    std::vector<SeriesGroupBlob> groups;
    RecordsBlob records;
};

/// A row of `labels`: one reference simulation of one region on one configuration.
struct LabelRow {
    std::int64_t id = 0;
    std::int64_t regionId = 0;
    std::string configJson; ///< CoreConfig::toJson()
    std::string configKey;  ///< CoreConfig::toAssignments(), unique per region
    std::string source;     ///< "random" or "preset:NAME"
    std::uint64_t instructions = 0;
    std::uint64_t cycles = 0;
    double cpi = 0;
    std::vector<std::uint8_t> windowIpc; ///< SeriesGroupCodec blob of one series
};

/// A row of `models` without its weights (what `concorde info` lists).
struct ModelSummary {
    std::int64_t id = 0;
    std::string name;
    std::string created;
    std::uint64_t weightBytes = 0;
};

/// The database-wide settings in `meta`: all regions are built with them.
struct BuildSettings {
    std::uint32_t windowSize = kDefaultWindowSize;
    std::uint64_t regionLength = 0; ///< measured length of the first region registered (nominal)
    BoundsGrid grid;
    std::string createdBy;
    /// The analysis the bounds come from (meta.store_queue_model and meta.load_timing); older
    /// databases lack the keys and are extended with their own revision.
    AnalysisRevision analysis;
};

} // namespace concorde
