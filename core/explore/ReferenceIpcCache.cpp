#include "explore/ReferenceIpcCache.h"

#include "common/ConcordeError.h"
#include "store/DatabaseRows.h"
#include "store/FeatureDatabase.h"

namespace concorde {

ReferenceIpcCache::ReferenceIpcCache(FeatureDatabase& database)
    : path_(database.path()), grid_(database.buildSettings().grid) {}

void ReferenceIpcCache::load(FeatureDatabase& database, std::span<const std::int64_t> regionIds) {
    for (const std::int64_t regionId : regionIds) {
        if (holds(regionId))
            continue;
        const std::vector<LabelRow> rows = database.labels(regionId);
        Region region;
        if (!rows.empty()) {
            const std::string what = ReferenceIpc::describeRegion(database, regionId);
            try {
                region.labels.reserve(rows.size());
                for (const LabelRow& row : rows)
                    region.labels.push_back(ReferenceIpc::decode(row, what));
            } catch (const ConcordeError& e) {
                region.labels.clear();
                region.error = e.what();
            }
        }
        regions_.emplace(regionId, std::move(region));
    }
}

ReferenceIpc ReferenceIpcCache::lookup(std::int64_t regionId, const CoreConfig& config) const {
    const auto found = regions_.find(regionId);
    if (found == regions_.end())
        throw usageError(path_.string() + ": the labels of region id " + std::to_string(regionId) +
                         " were not loaded into the reference IPC cache");
    if (!found->second.error.empty())
        throw badInput(found->second.error);
    return ReferenceIpc::select(found->second.labels, config, grid_);
}

std::size_t ReferenceIpcCache::labelCount() const {
    std::size_t count = 0;
    for (const auto& [regionId, region] : regions_)
        count += region.labels.size();
    return count;
}

} // namespace concorde
