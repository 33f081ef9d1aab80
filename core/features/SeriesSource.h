#pragma once

#include "features/SeriesKey.h"

#include <span>

namespace concorde {

/// Where the feature assembler reads a region's precomputed series from: computed in memory
/// (GridSeriesSource) or decoded from a feature database (StoredRegionSeries).
class SeriesSource {
public:
    virtual ~SeriesSource() = default;
    /// The series named by `key`. Throws a bad-input ConcordeError naming the key if the source
    /// does not hold it (e.g. a configuration off the grid the source was built on).
    virtual std::span<const float> series(const SeriesKey& key) const = 0;
};

} // namespace concorde
