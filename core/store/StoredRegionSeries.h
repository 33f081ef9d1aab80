#pragma once

#include "features/SeriesSource.h"
#include "store/SeriesGroupCodec.h"

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace concorde {

class FeatureDatabase;
class SeriesCatalog;

/// Every stored series of one region of a feature database, decoded, as a SeriesSource for the
/// feature assembler. Holds about 4 bytes × windows × series (3.7 MB for a 100k-instruction
/// region on the default grid).
class StoredRegionSeries : public SeriesSource {
public:
    /// Where each series sits: SeriesKey::text() → (group position in the catalog, row). The
    /// same for every region of a database, so callers loading many regions build it once.
    using KeyIndex = std::unordered_map<std::string, std::pair<std::uint32_t, std::uint32_t>>;
    static std::shared_ptr<const KeyIndex> indexFor(const SeriesCatalog& catalog);

    /// Reads and decodes every series group of region `regionId` (errors name the database, the
    /// region and the group). With `reading`, it is set to the part being read ("series group
    /// rob") before each read, so a caller catching an error knows which blob was damaged.
    static StoredRegionSeries load(FeatureDatabase& database, std::int64_t regionId,
                                   std::shared_ptr<const KeyIndex> index = nullptr,
                                   std::string* reading = nullptr);

    std::span<const float> series(const SeriesKey& key) const override;

private:
    StoredRegionSeries(std::string description, std::shared_ptr<const KeyIndex> index,
                       std::vector<SeriesMatrix> groups)
        : description_(std::move(description)), index_(std::move(index)),
          groups_(std::move(groups)) {}

    std::string description_;
    std::shared_ptr<const KeyIndex> index_;
    std::vector<SeriesMatrix> groups_; ///< catalog group order
};

} // namespace concorde
