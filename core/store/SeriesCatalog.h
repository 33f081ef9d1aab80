#pragma once

#include "analysis/MemoryConfig.h"
#include "bounds/GridBounds.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace concorde {

/// Which series a database holds for each region, derived from its grid alone: the same names,
/// memory configurations and settings, in the same order, as GridBounds::build produces (checked
/// for every region built, so the two cannot drift apart silently).
///
/// Series are grouped by name: one group is one row of the `series` table (e.g. group "rob" holds
/// every ROB size × memory configuration). Inside a group, series are ordered by memory
/// configuration (MemoryConfig::packedKey) then settings — GridBounds' order.
class SeriesCatalog {
public:
    struct Key {
        bool memoryDependent = false;
        MemoryConfig memory;              ///< when memoryDependent
        std::uint32_t memoryConfigId = 0; ///< 1-based position in memoryConfigs(), 0 for none
        std::vector<std::pair<ParamId, double>> settings; ///< the other parameters it depends on
    };
    struct Group {
        std::string name;
        bool singleValue = false; ///< a region-wide scalar stored as a series of one window (rob_N)
        std::vector<Key> series;
        /// Per series, earlier series of the group worth trying as delta references: the
        /// previous setting at the same memory configuration, and the same setting at each
        /// earlier memory configuration that differs in one memory parameter.
        std::vector<std::vector<std::uint32_t>> referenceCandidates;
    };

    /// `timedStores`: "sq" per SQ size and memory configuration (GridBounds today); false for a
    /// database built before the store drain was modelled, with one "sq" series per SQ size.
    explicit SeriesCatalog(const BoundsGrid& grid, bool timedStores = true);

    bool timedStores() const { return timedStores_; }

    const std::vector<Group>& groups() const { return groups_; }
    /// The group called `name`, or nullptr.
    const Group* find(const std::string& name) const;
    /// Memory configurations of the grid, in grid order (l1d_kb, l1i_kb, l2_kb, pf_degree
    /// nested, first outermost): `memory_configs.id` is the position + 1.
    const std::vector<MemoryConfig>& memoryConfigs() const { return memories_; }
    std::size_t seriesCount() const;

    /// Windows of each series of `group` in a region of `instructions` measured instructions.
    static std::uint32_t windowsFor(const Group& group, std::uint64_t instructions,
                                    std::uint32_t windowSize);
    /// Canonical text of a series' settings: "rob=128", "ls_pipes=2,load_pipes=1", "" for none.
    static std::string settingsText(const std::vector<std::pair<ParamId, double>>& settings);

    /// Throws a runtime ConcordeError (an internal inconsistency, not a user error) unless
    /// `result` holds exactly the catalog's series, in order, each with the expected windows.
    void requireMatches(const GridBounds::Result& result) const;

private:
    std::vector<MemoryConfig> memories_;
    std::vector<Group> groups_;
    bool timedStores_ = true;
};

} // namespace concorde
