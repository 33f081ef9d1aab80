#include "explore/CompactRegionSeries.h"

#include "common/ConcordeError.h"
#include "store/SeriesCatalog.h"
#include "store/SeriesGroupCodec.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>

namespace concorde {
namespace {

/// A cheap hash of a row: a few values spread over it (candidates are compared in full, so a
/// collision costs a memcmp, never a wrong answer). Hashing every byte cost more than decoding.
std::size_t hashRow(std::span<const float> row) {
    std::uint64_t h = 0x9E3779B97F4A7C15ull ^ row.size();
    const std::size_t step = std::max<std::size_t>(1, row.size() / 24);
    for (std::size_t i = 0; i < row.size(); i += step) {
        std::uint32_t bits;
        std::memcpy(&bits, &row[i], sizeof bits);
        h = (h ^ bits) * 0x100000001B3ull;
        h ^= h >> 29;
    }
    return static_cast<std::size_t>(h);
}

} // namespace

CompactRegionSeries CompactRegionSeries::decode(
    const std::vector<SeriesGroupBlob>& blobs, const std::vector<std::string>& groups,
    const SeriesCatalog& catalog, std::shared_ptr<const StoredRegionSeries::KeyIndex> index,
    std::uint64_t regionLength, std::uint32_t windowSize, std::string description) {
    CompactRegionSeries result;
    result.description_ = std::move(description);
    result.index_ = index ? std::move(index) : StoredRegionSeries::indexFor(catalog);
    result.groups_.resize(catalog.groups().size());
    for (const std::string& name : groups) {
        const auto& all = catalog.groups();
        const auto at = std::find_if(all.begin(), all.end(),
                                     [&](const SeriesCatalog::Group& g) { return g.name == name; });
        if (at == all.end())
            throw usageError("the database grid has no series group '" + name + "'");
        const auto blob = std::find_if(blobs.begin(), blobs.end(),
                                       [&](const SeriesGroupBlob& b) { return b.name == name; });
        const std::string what = result.description_ + ", series group " + name;
        if (blob == blobs.end())
            throw badInput(what + ": missing from table series");
        const std::uint32_t windows = SeriesCatalog::windowsFor(*at, regionLength, windowSize);
        const SeriesMatrix matrix = SeriesGroupCodec::decode(
            blob->data, what, static_cast<std::int64_t>(at->series.size()), windows);

        Group& group = result.groups_[static_cast<std::size_t>(at - all.begin())];
        group.loaded = true;
        group.windows = windows;
        group.row.resize(matrix.count);
        std::unordered_multimap<std::size_t, std::uint32_t> seen;
        seen.reserve(matrix.count);
        std::uint32_t distinct = 0;
        for (std::uint32_t i = 0; i < matrix.count; ++i) {
            const auto values = matrix.row(i);
            const std::size_t hash = hashRow(values);
            const auto [first, last] = seen.equal_range(hash);
            std::int64_t match = -1;
            for (auto it = first; it != last && match < 0; ++it)
                if (std::memcmp(group.rows.data() + std::size_t(it->second) * windows,
                                values.data(), values.size_bytes()) == 0)
                    match = it->second;
            if (match < 0) {
                match = distinct++;
                group.rows.insert(group.rows.end(), values.begin(), values.end());
                seen.emplace(hash, static_cast<std::uint32_t>(match));
            }
            group.row[i] = static_cast<std::uint32_t>(match);
        }
        group.rows.shrink_to_fit();
        group.sortedRows = group.rows;
        for (std::size_t at = 0; at < group.sortedRows.size(); at += windows)
            std::sort(group.sortedRows.begin() + std::ptrdiff_t(at),
                      group.sortedRows.begin() + std::ptrdiff_t(at + windows));
    }
    return result;
}

std::pair<const CompactRegionSeries::Group*, std::size_t>
CompactRegionSeries::locate(const SeriesKey& key) const {
    const auto found = index_->find(key.text());
    if (found == index_->end())
        throw badInput(description_ + ": the database grid has no series " + key.text() +
                       " (the configuration is off the database's grid)");
    const auto [g, i] = found->second;
    if (g >= groups_.size() || !groups_[g].loaded)
        throw usageError(description_ + ": series group " + key.name +
                         " is not loaded (only the resource bounds are kept)");
    const Group& group = groups_[g];
    return {&group, std::size_t(group.row[i]) * group.windows};
}

std::span<const float> CompactRegionSeries::series(const SeriesKey& key) const {
    const auto [group, offset] = locate(key);
    return {group->rows.data() + offset, group->windows};
}

std::span<const float> CompactRegionSeries::sortedSeries(const SeriesKey& key) const {
    const auto [group, offset] = locate(key);
    return {group->sortedRows.data() + offset, group->windows};
}

std::size_t CompactRegionSeries::distinctRows() const {
    std::size_t rows = 0;
    for (const Group& g : groups_)
        rows += g.windows == 0 ? 0 : g.rows.size() / g.windows;
    return rows;
}

std::size_t CompactRegionSeries::seriesCount() const {
    std::size_t count = 0;
    for (const Group& g : groups_)
        count += g.row.size();
    return count;
}

std::size_t CompactRegionSeries::bytes() const {
    std::size_t total = 0;
    for (const Group& g : groups_)
        total += (g.rows.size() + g.sortedRows.size()) * sizeof(float) +
                 g.row.size() * sizeof(std::uint32_t);
    return total;
}

} // namespace concorde
