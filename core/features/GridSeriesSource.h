#pragma once

#include "bounds/GridBounds.h"
#include "features/SeriesSource.h"

#include <string>
#include <unordered_map>

namespace concorde {

/// A SeriesSource over series computed in memory by GridBounds::build.
class GridSeriesSource : public SeriesSource {
public:
    explicit GridSeriesSource(GridBounds::Result result);

    std::span<const float> series(const SeriesKey& key) const override;
    const GridBounds::Result& result() const { return result_; }

private:
    GridBounds::Result result_;
    std::unordered_map<std::string, std::size_t> index_; ///< SeriesKey::text() → position
};

} // namespace concorde
