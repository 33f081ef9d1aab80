#pragma once

#include "explore/ReferenceIpc.h"
#include "features/ParameterGrid.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace concorde {

class CoreConfig;
class FeatureDatabase;

/// The reference simulator's labels of a database's regions, read and decoded once, so that
/// choosing a region's reference IPC for a configuration (ReferenceIpc) is answered from memory:
/// the bound timeseries asks for every region of the program on each slider step, and reading
/// the labels from SQLite each time costs much of the 16 ms a step may take (docs/design.md §12).
///
/// lookup() gives exactly what ReferenceIpc::forRegion() gives on the same database: the label
/// of the configuration shown, else the nearest labelled one, else none. It is stricter about
/// damage: every label is decoded when loaded, so a region with any undecodable label is an
/// error, where forRegion() only decodes the per-window IPC of the label it chooses.
class ReferenceIpcCache {
public:
    /// An empty cache for `database`: its path and grid (for distances) are read now.
    explicit ReferenceIpcCache(FeatureDatabase& database);

    /// Reads and decodes the labels of each region of `regionIds` that is not held yet (one query
    /// per region) from `database`, the one the cache was made for. A region whose labels cannot
    /// be decoded is held with its error, which lookup() throws: a bad label is read once.
    void load(FeatureDatabase& database, std::span<const std::int64_t> regionIds);

    /// Whether the region's labels have been loaded (a region without labels counts).
    bool holds(std::int64_t regionId) const { return regions_.contains(regionId); }
    /// What ReferenceIpc::forRegion(database, regionId, config) returns, without I/O. A region
    /// not loaded is a usage ConcordeError; one whose labels did not decode, that bad-input error.
    ReferenceIpc lookup(std::int64_t regionId, const CoreConfig& config) const;

    const std::filesystem::path& databasePath() const { return path_; }
    /// Regions loaded, labelled or not.
    std::size_t regionCount() const { return regions_.size(); }
    /// Labels held, over every region loaded.
    std::size_t labelCount() const;

private:
    struct Region {
        std::vector<ReferenceIpc::Label> labels; ///< in storage order, as forRegion() reads them
        std::string error;                       ///< why they could not be decoded, if so
    };

    std::filesystem::path path_;
    ParameterGrid grid_;
    std::unordered_map<std::int64_t, Region> regions_;
};

} // namespace concorde
