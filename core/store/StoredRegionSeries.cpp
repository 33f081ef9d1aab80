#include "store/StoredRegionSeries.h"

#include "common/ConcordeError.h"
#include "store/FeatureDatabase.h"
#include "store/SeriesCatalog.h"

#include <algorithm>

namespace concorde {

std::shared_ptr<const StoredRegionSeries::KeyIndex>
StoredRegionSeries::indexFor(const SeriesCatalog& catalog) {
    auto index = std::make_shared<KeyIndex>();
    const auto& groups = catalog.groups();
    // The grid's largest memory configuration: where stores miss least.
    MemoryConfig largest{0, 0, 0, 0};
    for (const MemoryConfig& m : catalog.memoryConfigs())
        largest = {std::max(largest.l1dKb, m.l1dKb), std::max(largest.l1iKb, m.l1iKb),
                   std::max(largest.l2Kb, m.l2Kb),
                   std::max(largest.prefetchDegree, m.prefetchDegree)};
    for (std::uint32_t g = 0; g < groups.size(); ++g)
        for (std::uint32_t i = 0; i < groups[g].series.size(); ++i) {
            const auto& key = groups[g].series[i];
            const SeriesKey full{groups[g].name, key.memoryDependent, key.memory, key.settings};
            index->emplace(full.text(), std::make_pair(g, i));
            // A database from before the store drain has one "sq" series per SQ size; a layout
            // that asks for one per memory configuration gets that series for every one.
            if (!catalog.timedStores() && groups[g].name == "sq" && !key.memoryDependent)
                for (const MemoryConfig& memory : catalog.memoryConfigs())
                    index->emplace(SeriesKey{groups[g].name, true, memory, key.settings}.text(),
                                   std::make_pair(g, i));
            // The other way, for a model trained before (e.g. the shipped one on a database of
            // the user's programs): its "sq" assumed that stores never miss, and the largest
            // memory configuration is the closest the grid has.
            if (catalog.timedStores() && groups[g].name == "sq" && key.memoryDependent &&
                key.memory == largest)
                index->emplace(SeriesKey{groups[g].name, false, {}, key.settings}.text(),
                               std::make_pair(g, i));
        }
    return index;
}

StoredRegionSeries StoredRegionSeries::load(FeatureDatabase& database, std::int64_t regionId,
                                            std::shared_ptr<const KeyIndex> index,
                                            std::string* reading) {
    const SeriesCatalog& catalog = database.catalog();
    if (!index)
        index = indexFor(catalog);
    std::vector<SeriesMatrix> groups;
    groups.reserve(catalog.groups().size());
    for (const auto& group : catalog.groups()) {
        if (reading)
            *reading = "series group " + group.name;
        groups.push_back(database.readSeriesGroup(regionId, group.name));
    }
    return StoredRegionSeries(database.path().string() + ": " + database.describeRegion(regionId),
                              std::move(index), std::move(groups));
}

std::span<const float> StoredRegionSeries::series(const SeriesKey& key) const {
    const auto found = index_->find(key.text());
    if (found == index_->end())
        throw badInput(description_ + ": the database grid has no series " + key.text() +
                       " (the configuration is off the database's grid)");
    return groups_[found->second.first].row(found->second.second);
}

} // namespace concorde
