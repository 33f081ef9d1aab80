#pragma once

#include "analysis/MemoryConfig.h"
#include "analysis/WarmState.h"
#include "bounds/AnalysisRevision.h"
#include "bounds/WindowBounds.h"
#include "common/JobControl.h"
#include "params/MethodConstants.h"
#include "params/ParameterSpec.h"
#include "trace/TraceRecord.h"

#include <array>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace concorde {

/// The grid values of each parameter that a database precomputes (docs/design.md §3 default grid
/// unless replaced), indexed by ParamId.
using BoundsGrid = std::array<std::vector<double>, kParamCount>;
BoundsGrid defaultBoundsGrid();

/// One precomputed per-window series: a resource (or auxiliary feature) at one setting of the
/// parameters it depends on.
struct GridSeries {
    std::string name; ///< "rob", "lq", "rob.issue_wait", "mispredicts_pki", ...
    bool memoryDependent = false;
    MemoryConfig memory;                              ///< when memoryDependent
    std::vector<std::pair<ParamId, double>> settings; ///< the non-memory parameters it depends on
    WindowSeries values;
};

/// Every series of one region over a whole parameter grid — what `build-db` stores per region.
/// The trace analysis runs once per memory configuration and each model once per value of its
/// own parameters: memory-dependent models (ROB, LQ, SQ, I-cache fills, fetch buffers, the ROB
/// latency components and fixed-size ROB throughputs) per memory configuration, the others
/// (issue widths, pipes, fetch width, mispredictions, branch and fence counts) once.
/// Memory configurations are processed in parallel with TBB; those that differ only in the L1i
/// share their ROB and LQ series where the L1i changed no data access.
class GridBounds {
public:
    struct Result {
        std::vector<GridSeries> series;
        std::uint64_t instructions = 0;
        std::uint32_t windowSize = 0;
        std::size_t memoryConfigurations = 0;
        /// Memory configurations whose ROB and LQ series are copies of another's, whose data
        /// side of the analysis was the same (RobModel::sameSystemAs).
        std::size_t reusedMemoryConfigurations = 0;
    };

    /// `job` gets the memory configurations finished out of all of them (reports may come from
    /// worker threads). A cancelled job stops and throws jobCancelled.
    /// `revision`: the analysis to compute, the current one unless a database built by an
    /// older Concorde is extended (its model reads features of that kind).
    static Result build(std::span<const TraceRecord> records, std::uint64_t warmup,
                        const BoundsGrid& grid, std::uint32_t windowSize = kDefaultWindowSize,
                        const JobControl& job = {}, std::shared_ptr<const WarmState> warm = {},
                        AnalysisRevision revision = AnalysisRevision::current());
};

} // namespace concorde
