#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace concorde {

class FeatureDatabase;

/// The complete regions of a feature database, read once, as one immutable value: programs in
/// the order build-db registered them (program id), each with its regions in execution order
/// (region index), with positions, lengths and phases. The predictor, the bounds and the phase
/// timeline all take their regions from one catalog, so their region indices agree.
class RegionCatalog {
public:
    struct Region {
        std::int64_t id = 0;
        std::int64_t programId = 0;
        std::string program;
        std::uint32_t regionIndex = 0;
        std::uint64_t programStart = 0; ///< first measured instruction in the program's run
        std::uint64_t warmup = 0;
        std::uint64_t length = 0; ///< measured instructions: the region's weight in its program
        std::optional<std::int64_t> phase;
        /// "gzip region 3".
        std::string label() const;
    };
    struct Program {
        std::int64_t id = 0;
        std::string name;
        std::vector<std::size_t> regions; ///< indices into RegionCatalog::regions()
    };

    /// A complete region left out because its data is damaged: its row, basic-block vector or a
    /// series group does not read. Damaged data degrades, it does not refuse (docs/design.md
    /// §10): the catalog keeps the intact regions and says what it left out.
    struct Damage {
        std::int64_t regionId = 0;
        std::int64_t programId = 0;
        std::string program; ///< "" when the row names no existing program
        std::int64_t regionIndex = 0;
        std::string part;    ///< what failed to read: "regions row", "series group rob"
        std::string problem; ///< why, for the user (the decoder's message without the file name)
        /// "gzip region 4".
        std::string label() const;
        /// "gzip region 4 (series group rob: series blob CRC mismatch ...)".
        std::string describe() const;
    };

    /// Reads the programs and complete regions (programs without one are left out). A complete
    /// region whose row cannot be read (impossible values, a basic-block vector that does not
    /// decode) or whose program is missing is left out and listed in damaged().
    static RegionCatalog read(FeatureDatabase& database);

    const std::vector<Region>& regions() const { return regions_; }
    const std::vector<Program>& programs() const { return programs_; }
    std::vector<std::string> programNames() const;
    /// The program called `name`; a usage error listing the programs for an unknown name, a
    /// bad-input error naming the damage for a program whose every region is damaged.
    const Program& program(const std::string& name) const;
    bool hasProgram(const std::string& name) const;
    /// The same catalog restricted to `names`, in this catalog's order (every program when
    /// empty), with the damage of those programs; an unknown name is a usage error listing the
    /// programs. A name whose every region is damaged is kept in damaged() only.
    RegionCatalog only(const std::vector<std::string>& names) const;
    /// The same catalog without the regions of `damage` (found while loading their series),
    /// which are added to damaged(); programs left without a region are dropped.
    RegionCatalog without(const std::vector<Damage>& damage) const;

    /// The damaged regions left out, in region id order.
    const std::vector<Damage>& damaged() const { return damaged_; }
    /// Programs with at least one damaged region, in program id order.
    std::vector<std::string> damagedPrograms() const;
    /// The damaged regions of `program`.
    std::vector<Damage> damageOf(const std::string& program) const;
    /// One line for the user: "2 damaged regions skipped: gzip region 4 (series group rob: ...),
    /// ..."; empty when nothing is damaged.
    std::string damageSummary() const;

private:
    std::string databasePath_;
    std::vector<Region> regions_;
    std::vector<Program> programs_;
    std::vector<Damage> damaged_;
};

} // namespace concorde
