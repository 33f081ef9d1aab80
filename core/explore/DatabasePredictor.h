#pragma once

#include "common/JobControl.h"
#include "features/ParameterGrid.h"
#include "ml/BlockPrecomputedMlp.h"
#include "ml/CpiModel.h"
#include "store/RegionCatalog.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace concorde {

class CoreConfig;
class FeatureDatabase;
class SeriesSource;

/// Live CPI predictions for the regions of a feature database (docs/design.md §8): per region, one
/// BlockPrecomputedMlp built from the region's stored series, so a prediction for any
/// configuration on the database's grid is a sum of one precomputed vector per feature block
/// and the small layers. A program's CPI is the instruction-weighted mean of its regions' CPIs.
/// Immutable once built; predictions are thread-safe.
class DatabasePredictor {
public:
    struct RegionEntry {
        std::int64_t regionId = 0;
        std::string program;
        std::uint32_t regionIndex = 0;
        std::uint64_t length = 0; ///< measured instructions (the region's weight)
    };
    /// Loads the complete regions of `programs` (every program when empty; an unknown name is a
    /// usage error listing the programs) and precomputes them in parallel. `job` counts the
    /// regions ready (reports come from worker threads); a cancel throws jobCancelled.
    DatabasePredictor(FeatureDatabase& database, CpiModel model,
                      const std::vector<std::string>& programs = {}, const JobControl& job = {});
    ///
    /// Damaged data degrades, it does not refuse: a region left out of `catalog` as damaged, or
    /// whose series groups do not decode (a bad-input error), is skipped and listed in
    /// damaged(); the others predict. Only when no region is left is it a bad-input error that
    /// names the damage.
    /// The same over the regions of `catalog` (read once from `database` by the caller). With
    /// `grid` (a subset of the database's grid), only its combinations are precomputed: what a
    /// one-shot export needs, a fraction of the work; configurations off it are then refused as
    /// off the grid.
    DatabasePredictor(FeatureDatabase& database, CpiModel model, const RegionCatalog& catalog,
                      const JobControl& job = {}, const ParameterGrid* grid = nullptr);

    /// The precomputed predictor of one region from its series (used here and by evaluate).
    static std::unique_ptr<BlockPrecomputedMlp>
    precompute(const CpiModel& model, const ParameterGrid& grid, const SeriesSource& source);

    const CpiModel& model() const { return model_; }
    /// The grid predictions are precomputed on (the database's, or the subset given).
    const ParameterGrid& grid() const { return grid_; }
    const std::vector<RegionEntry>& regions() const { return regions_; }
    /// The regions predicted (regions() in the same order) and, as damaged(), those skipped.
    const RegionCatalog& catalog() const { return catalog_; }
    /// The damaged regions skipped, in region id order (empty for an intact database).
    const std::vector<RegionCatalog::Damage>& damaged() const { return catalog_.damaged(); }
    /// Program names in database order.
    const std::vector<std::string>& programs() const { return programs_; }
    /// Indices into regions() of a program's regions (usage error for an unknown program).
    const std::vector<std::size_t>& regionsOf(const std::string& program) const;

    /// CPI of region `region` (an index into regions()). Throws a bad-input ConcordeError naming
    /// the parameter if `config` is off the grid.
    double regionCpi(std::size_t region, const CoreConfig& config) const;
    /// Batched region CPIs, one per configuration.
    void regionCpi(std::size_t region, std::span<const CoreConfig> configs,
                   std::span<double> out) const;
    /// Region `region`'s mean CPI and band (an ensemble model's; a single model's band is its
    /// CPI).
    CpiBand regionBand(std::size_t region, const CoreConfig& config) const;
    /// Batched region bands, one per configuration (their `cpi` equals regionCpi()'s).
    void regionBands(std::size_t region, std::span<const CoreConfig> configs,
                     std::span<CpiBand> out) const;
    /// The program's mean CPI and band: instruction-weighted means of its regions' CPIs and
    /// band ends.
    CpiBand programBand(const std::string& program, const CoreConfig& config) const;
    /// The same from the bands of the program's regions, already computed in regionsOf() order
    /// (for a caller that also reports them).
    CpiBand programBand(const std::string& program, std::span<const CpiBand> regionBands) const;
    /// How far region `region`'s features lie from the training programs
    /// (OutOfDistributionScore; above 1: outside; 0 for models without the statistics).
    double regionOodScore(std::size_t region) const;
    /// The instruction-weighted mean of the program's region scores.
    double programOodScore(const std::string& program) const;
    /// The program's CPI: instruction-weighted mean of its regions' CPIs.
    double programCpi(const std::string& program, const CoreConfig& config) const;
    /// Batched program CPIs, one per configuration.
    void programCpi(const std::string& program, std::span<const CoreConfig> configs,
                    std::span<double> out) const;

private:
    CpiModel model_;
    ParameterGrid grid_;
    RegionCatalog catalog_;
    std::vector<RegionEntry> regions_;
    std::vector<std::string> programs_;
    std::vector<std::vector<std::size_t>> programRegions_;
    std::vector<std::unique_ptr<BlockPrecomputedMlp>> predictors_;
};

} // namespace concorde
