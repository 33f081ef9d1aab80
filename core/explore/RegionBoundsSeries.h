#pragma once

#include "features/Cdf.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace concorde {

class CoreConfig;
class SeriesSource;

/// What the explorer's CDF and timeseries views show for one region (or one program, as its
/// regions' windows end to end) at one configuration: every resource's per-window IPC bound
/// (BoundResources order), the per-window minimum, which resource binds each window, the share
/// of windows each resource binds, and the empirical CDF of each resource's bounds (Cdf, the same
/// class the feature encoding uses, so a curve passes through the model's percentiles).
///
/// **Binding resource** of a window: the resource with the smallest bound; on a tie the earlier
/// resource in BoundResources order (e.g. ROB before load queue). **Dominant resource**: the one
/// binding the most windows; a tie goes to the resource with the larger resourceCpi() (the worse
/// one alone), then to the earlier one.
///
/// An immutable value: built once, then shared with the views.
class RegionBoundsSeries {
public:
    /// No resources and no windows.
    RegionBoundsSeries() = default;

    /// Reads the resources' series for `config` from `source` (BoundResources::key). Throws a
    /// bad-input ConcordeError when a series is missing (a configuration off the grid) or the
    /// series disagree in length.
    static RegionBoundsSeries compute(const SeriesSource& source, const CoreConfig& config,
                                      std::string label = {});
    /// From explicit bounds, bounds[resource][window] (every row equally long; at most 255
    /// resources; values non-negative, not NaN). Throws a bad-input ConcordeError otherwise.
    static RegionBoundsSeries fromBounds(std::vector<std::vector<float>> bounds,
                                         std::string label = {});
    /// The parts' windows end to end (e.g. a program's regions in execution order); each part
    /// becomes a segment. Every part must have the same number of resources.
    static RegionBoundsSeries concatenate(std::span<const RegionBoundsSeries> parts,
                                          std::string label);

    /// One segment of a join: per resource, its bound per window and the same values sorted
    /// ascending (e.g. CompactRegionSeries::sortedSeries, sorted once when a database is read).
    /// The spans must outlive the join.
    struct SortedPart {
        std::string label;
        std::vector<std::span<const float>> bounds;
        std::vector<std::span<const float>> sorted;
    };
    /// The parts' windows end to end, one segment per part, like concatenate(), but each CDF
    /// merges the parts' sorted values instead of sorting (the resources in parallel, TBB): a
    /// program of 64 regions at a new configuration costs merges, not 800 sorts. Throws a
    /// bad-input ConcordeError when the parts disagree in resource count, a resource's rows
    /// disagree in length within a part, or a sorted row is not its bounds sorted (length).
    ///
    /// With `previous`, a resource whose sorted runs are the very ones `previous` merged for it
    /// (the same memory, in the same order) reuses that CDF instead of merging again: a slider
    /// step changes the rows of one or two resources. `previous` must come from a join over
    /// runs that are still alive (e.g. the same DatabaseBounds), or memory since reused could
    /// pass for the same runs.
    static RegionBoundsSeries join(std::span<const SortedPart> parts, std::string label,
                                   const RegionBoundsSeries* previous = nullptr);

    const std::string& label() const { return label_; }
    std::size_t resourceCount() const { return bounds_.size(); }
    std::size_t windows() const { return minimum_.size(); }
    bool empty() const { return minimum_.empty(); }

    /// Resource `resource`'s bound per window.
    std::span<const float> bound(std::size_t resource) const;
    /// The smallest bound per window (the min-of-bounds IPC).
    std::span<const float> minimum() const { return minimum_; }
    /// The binding resource per window.
    std::span<const std::uint8_t> binding() const { return binding_; }
    /// Windows bound by `resource`.
    std::size_t bindingCount(std::size_t resource) const;
    /// bindingCount / windows (0 with no windows).
    double bindingShare(std::size_t resource) const;
    /// See the class comment; 0 when there are no windows.
    std::size_t dominantResource() const { return dominant_; }

    /// The distribution of resource `resource`'s bounds.
    const Cdf& cdf(std::size_t resource) const;
    /// The distribution of the per-window minimum.
    const Cdf& minimumCdf() const { return minimumCdf_; }
    /// CPI under resource `resource` alone: the mean over windows of 1 / bound (bounds floored at
    /// 1e-3 IPC, as the feature encoding does).
    double resourceCpi(std::size_t resource) const;
    /// The min-of-bounds CPI: the mean over windows of 1 / minimum (the analytical baseline of
    /// FeatureAssembler::minimumBoundCpi).
    double minimumBoundCpi() const { return minimumCpi_; }

    /// First window of each segment (one segment, {0}, unless concatenated).
    const std::vector<std::size_t>& segmentStarts() const { return segmentStarts_; }
    /// Each segment's label (the parts' labels).
    const std::vector<std::string>& segmentLabels() const { return segmentLabels_; }

private:
    /// Derives the minimum, binding, means and dominant resource from bounds_, and, unless
    /// `sortedParts` gives each resource's sorted runs (their windows end to end are bounds_),
    /// the CDFs by sorting.
    void finish(std::span<const SortedPart> sortedParts = {},
                const RegionBoundsSeries* previous = nullptr);

    std::string label_;
    std::vector<std::vector<float>> bounds_;
    std::vector<float> minimum_;
    std::vector<std::uint8_t> binding_;
    std::vector<std::size_t> bindingCount_;
    std::vector<Cdf> cdfs_;
    std::vector<double> resourceCpi_;
    Cdf minimumCdf_;
    double minimumCpi_ = 0;
    std::size_t dominant_ = 0;
    /// Per resource, the sorted runs its CDF merged (join only): what a later join compares to
    /// reuse it.
    std::vector<std::vector<std::span<const float>>> sortedRuns_;
    std::vector<std::size_t> segmentStarts_;
    std::vector<std::string> segmentLabels_;
};

} // namespace concorde
