#include "features/GridSeriesSource.h"

#include "common/ConcordeError.h"

namespace concorde {

GridSeriesSource::GridSeriesSource(GridBounds::Result result) : result_(std::move(result)) {
    for (std::size_t i = 0; i < result_.series.size(); ++i)
        index_.emplace(SeriesKey::of(result_.series[i]).text(), i);
}

std::span<const float> GridSeriesSource::series(const SeriesKey& key) const {
    const auto found = index_.find(key.text());
    if (found == index_.end())
        throw badInput("no computed series " + key.text() +
                       " (is the configuration on the grid the bounds were computed for?)");
    return result_.series[found->second].values;
}

} // namespace concorde
