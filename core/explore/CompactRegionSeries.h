#pragma once

#include "features/SeriesSource.h"
#include "store/DatabaseRows.h"
#include "store/StoredRegionSeries.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace concorde {

class SeriesCatalog;

/// Some series groups of one region of a feature database, decoded and de-duplicated, as a
/// SeriesSource. The explorer keeps the resource-bound groups (BoundResources::seriesGroups())
/// of every region in memory so that any configuration's bounds and CDFs are available without
/// touching the database.
///
/// Why de-duplicate: neighbouring grid points very often give bit-identical series (a ROB bound
/// does not move with the L1i size when fetch never misses, a queue that never fills bounds
/// nothing at every size), so of the 1,735 resource series of a region on the default grid only
/// about 8 % are distinct (measured on the 192 regions of the default database). Each group keeps
/// its distinct rows once and a row index per series: about 0.15 MB per region instead of 1.7 MB.
///
/// Immutable once decoded; series() is thread-safe.
class CompactRegionSeries : public SeriesSource {
public:
    /// Decodes the rows of `blobs` whose names are in `groups` (other blobs are ignored; a
    /// missing one is a bad-input error). Each blob is checked against the catalog (series count)
    /// and `windows(group)` by SeriesGroupCodec::decode. `description` names the region in
    /// errors ("db.sqlite: gzip region 3 (id 4)").
    static CompactRegionSeries
    decode(const std::vector<SeriesGroupBlob>& blobs, const std::vector<std::string>& groups,
           const SeriesCatalog& catalog, std::shared_ptr<const StoredRegionSeries::KeyIndex> index,
           std::uint64_t regionLength, std::uint32_t windowSize, std::string description);

    std::span<const float> series(const SeriesKey& key) const override;
    /// The same series' values sorted ascending (each distinct row is sorted once, when
    /// decoded, so the explorer's CDFs at any configuration merge instead of sort).
    std::span<const float> sortedSeries(const SeriesKey& key) const;

    /// Distinct rows kept, over every loaded group.
    std::size_t distinctRows() const;
    /// Series the loaded groups hold.
    std::size_t seriesCount() const;
    /// Bytes of series data kept (values and row indices).
    std::size_t bytes() const;
    const std::string& description() const { return description_; }

private:
    struct Group {
        bool loaded = false;
        std::uint32_t windows = 0;
        std::vector<float> rows;        ///< distinct rows, windows floats each
        std::vector<float> sortedRows;  ///< each of rows sorted ascending
        std::vector<std::uint32_t> row; ///< series index → distinct row
    };

    /// The group holding `key` and the offset of its row in rows/sortedRows (errors as for
    /// series()).
    std::pair<const Group*, std::size_t> locate(const SeriesKey& key) const;

    std::string description_;
    std::shared_ptr<const StoredRegionSeries::KeyIndex> index_;
    std::vector<Group> groups_; ///< catalog group order
};

} // namespace concorde
