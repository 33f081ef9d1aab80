#pragma once

#include "analysis/AnnotatedRegion.h"
#include "bounds/AnalysisRevision.h"
#include "bounds/IssueModel.h"
#include "bounds/RegionIndex.h"
#include "bounds/ResourceBounds.h"
#include "bounds/RobModel.h"
#include "params/CoreConfig.h"
#include "params/MethodConstants.h"

#include <map>
#include <vector>

namespace concorde {

/// Computes every analytical model of docs/design.md §7 for one region (already analysed for the
/// configuration's memory parameters) and one configuration.
class BoundsCalculator {
public:
    /// ROB sizes whose overall throughput is an auxiliary scalar for every configuration.
    static const std::vector<std::uint32_t>& auxiliaryRobSizes();

    /// `analysis` chooses between revisions of a model (AnalysisRevision); the SQ bound is
    /// always the timed one.
    explicit BoundsCalculator(std::uint32_t windowSize = kDefaultWindowSize,
                              std::uint32_t icacheHitCycles = 1,
                              AnalysisRevision analysis = AnalysisRevision::current())
        : windowSize_(windowSize), icacheHitCycles_(icacheHitCycles), analysis_(analysis) {}

    /// Everything about one analysed region that does not depend on the core parameters,
    /// computed once and shared by every configuration with the same memory parameters.
    /// Holds references into `region`, which must outlive it. Not thread-safe (one per thread).
    class Prepared {
    public:
        Prepared(const AnnotatedRegion& region, std::uint32_t windowSize);
        const AnnotatedRegion& region;
        RegionIndex index;
        RobModel rob;
        IssueModel::Counts counts;
        std::map<std::string, WindowSeries> fixedAuxiliary; ///< fences, branch kinds
    };

    Prepared prepare(const AnnotatedRegion& region) const { return Prepared(region, windowSize_); }

    /// All bounds for one configuration. Throws a bad-input ConcordeError when the region was
    /// analysed for other memory parameters than `config`'s.
    ResourceBounds compute(Prepared& prepared, const CoreConfig& config,
                           bool withFixedRobSizes = true) const;

    /// Convenience: prepare and compute. Throws a bad-input ConcordeError when `region` was
    /// analysed for other memory parameters than `config`'s. The ROB throughput at the
    /// auxiliaryRobSizes() depends only on the memory parameters; with `withFixedRobSizes` false it
    /// is left out (a database computes it once per memory configuration).
    ResourceBounds compute(const AnnotatedRegion& region, const CoreConfig& config,
                           bool withFixedRobSizes = true) const;

    std::uint32_t windowSize() const { return windowSize_; }

private:
    std::uint32_t windowSize_;
    std::uint32_t icacheHitCycles_;
    AnalysisRevision analysis_;
};

} // namespace concorde
