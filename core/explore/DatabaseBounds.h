#pragma once

#include "common/JobControl.h"
#include "explore/CompactRegionSeries.h"
#include "explore/RegionBoundsSeries.h"
#include "features/ParameterGrid.h"
#include "params/MethodConstants.h"
#include "store/RegionCatalog.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace concorde {

class CoreConfig;
class FeatureDatabase;

/// The per-window resource bounds of every complete region of a feature database, held in
/// memory so that the explorer's CDF and timeseries views follow the sliders without touching
/// the database (docs/design.md §7, §11). Loading reads each region's resource series groups
/// (BoundResources::seriesGroups()) and decodes and de-duplicates them (CompactRegionSeries) in
/// parallel with TBB, each worker thread reading through its own read-only connection.
///
/// Regions are in database order and only complete regions are kept, so indices agree with a
/// DatabasePredictor loaded with every program.
///
/// Immutable once loaded; every const member is thread-safe.
class DatabaseBounds {
public:
    using Region = RegionCatalog::Region;
    /// Loads every complete region. Throws a bad-input ConcordeError naming the database and the
    /// region for a missing or corrupt series group, jobCancelled ("loading the bounds was
    /// cancelled") when `job` is cancelled. `job` counts the regions decoded. A database without
    /// complete regions gives an empty DatabaseBounds.
    static DatabaseBounds load(FeatureDatabase& database, const JobControl& job = {});
    /// The same over the regions of `catalog` (read once from `database` by the caller).
    static DatabaseBounds load(FeatureDatabase& database, const RegionCatalog& catalog,
                               const JobControl& job = {});

    std::uint32_t windowSize() const { return windowSize_; }
    const ParameterGrid& grid() const { return grid_; }
    const std::vector<Region>& regions() const { return regions_; }
    /// Program names in database order (programs with at least one complete region).
    const std::vector<std::string>& programs() const { return programs_; }
    /// Indices into regions() of a program's regions, in region-index order (a usage error
    /// listing the programs for an unknown name).
    const std::vector<std::size_t>& regionsOf(const std::string& program) const;
    /// The region's stored resource series.
    const CompactRegionSeries& series(std::size_t region) const;

    /// One region's bounds at `config` (a bad-input error when `config` is off the grid).
    RegionBoundsSeries region(std::size_t region, const CoreConfig& config) const;
    /// Every region's bounds at `config`, computed in parallel (TBB), in regions() order.
    std::vector<RegionBoundsSeries> allRegions(const CoreConfig& config) const;
    /// A program's regions end to end in region-index order, one segment per region. With
    /// `previous`, the same program computed by this DatabaseBounds at another configuration,
    /// the CDFs of the resources whose rows did not change are reused (RegionBoundsSeries::join).
    RegionBoundsSeries program(const std::string& program, const CoreConfig& config,
                               const RegionBoundsSeries* previous = nullptr) const;

    /// Bytes of series data kept in memory.
    std::size_t bytes() const;

private:
    /// The region's bounds at `config` and their sorted copies, as views of series_.
    RegionBoundsSeries::SortedPart sortedPart(std::size_t region, const CoreConfig& config) const;

    std::uint32_t windowSize_ = kDefaultWindowSize;
    ParameterGrid grid_;
    std::vector<Region> regions_;
    std::vector<std::string> programs_;
    std::vector<std::vector<std::size_t>> programRegions_;
    std::vector<CompactRegionSeries> series_;
};

} // namespace concorde
