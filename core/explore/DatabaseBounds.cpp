#include "explore/DatabaseBounds.h"

#include "explore/LoadInParallel.h"

#include "common/ConcordeError.h"
#include "explore/BoundResources.h"
#include "params/CoreConfig.h"
#include "store/FeatureDatabase.h"

#include <algorithm>
#include <exception>
#include <map>
#include <mutex>
#include <tbb/parallel_for.h>

namespace concorde {


DatabaseBounds DatabaseBounds::load(FeatureDatabase& database, const JobControl& job) {
    return load(database, RegionCatalog::read(database), job);
}

DatabaseBounds DatabaseBounds::load(FeatureDatabase& database, const RegionCatalog& catalog,
                                    const JobControl& job) {
    DatabaseBounds result;
    const BuildSettings settings = database.buildSettings();
    result.windowSize_ = settings.windowSize;
    result.grid_ = ParameterGrid(settings.grid);
    result.regions_ = catalog.regions();
    for (const RegionCatalog::Program& program : catalog.programs()) {
        result.programs_.push_back(program.name);
        result.programRegions_.push_back(program.regions);
    }
    if (result.regions_.empty())
        return result;

    const SeriesCatalog& seriesCatalog = database.catalog();
    const auto index = StoredRegionSeries::indexFor(seriesCatalog);
    const std::string file = database.path().string();
    result.series_.resize(result.regions_.size());
    loadInParallel(database.path(), result.regions_.size(), job, "loading the bounds",
                   [&](std::size_t r, FeatureDatabase& connection) {
                       const Region& region = result.regions_[r];
                       result.series_[r] = CompactRegionSeries::decode(
                           connection.seriesGroupBlobs(region.id), BoundResources::seriesGroups(),
                           seriesCatalog, index, region.length, settings.windowSize,
                           file + ": " + connection.describeRegion(region.id));
                   });
    return result;
}

const std::vector<std::size_t>& DatabaseBounds::regionsOf(const std::string& program) const {
    const auto it = std::find(programs_.begin(), programs_.end(), program);
    if (it == programs_.end()) {
        std::string list;
        for (const auto& p : programs_)
            list += (list.empty() ? "" : ", ") + p;
        throw usageError("no program '" + program + "' (the database has: " + list + ")");
    }
    return programRegions_[static_cast<std::size_t>(it - programs_.begin())];
}

const CompactRegionSeries& DatabaseBounds::series(std::size_t region) const {
    if (region >= series_.size())
        throw usageError("no region " + std::to_string(region) + " (there are " +
                         std::to_string(series_.size()) + ")");
    return series_[region];
}

RegionBoundsSeries::SortedPart DatabaseBounds::sortedPart(std::size_t region,
                                                          const CoreConfig& config) const {
    const CompactRegionSeries& stored = series(region);
    RegionBoundsSeries::SortedPart part;
    part.label = regions_[region].label();
    for (std::size_t r = 0; r < BoundResources::count(); ++r) {
        const SeriesKey key = BoundResources::key(r, config);
        part.bounds.push_back(stored.series(key));
        part.sorted.push_back(stored.sortedSeries(key));
    }
    return part;
}

RegionBoundsSeries DatabaseBounds::region(std::size_t region, const CoreConfig& config) const {
    const RegionBoundsSeries::SortedPart part = sortedPart(region, config);
    return RegionBoundsSeries::join({&part, 1}, part.label);
}

std::vector<RegionBoundsSeries> DatabaseBounds::allRegions(const CoreConfig& config) const {
    std::vector<RegionBoundsSeries> result(regions_.size());
    tbb::parallel_for(std::size_t(0), regions_.size(),
                      [&](std::size_t r) { result[r] = region(r, config); });
    return result;
}

RegionBoundsSeries DatabaseBounds::program(const std::string& program, const CoreConfig& config,
                                           const RegionBoundsSeries* previous) const {
    std::vector<RegionBoundsSeries::SortedPart> parts;
    for (const std::size_t index : regionsOf(program))
        parts.push_back(sortedPart(index, config));
    return RegionBoundsSeries::join(parts, program, previous);
}

std::size_t DatabaseBounds::bytes() const {
    std::size_t total = 0;
    for (const auto& s : series_)
        total += s.bytes();
    return total;
}

} // namespace concorde
