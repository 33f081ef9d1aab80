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

    /// Reads the programs and complete regions (programs without one are left out). A region
    /// whose program is missing is a bad-input error naming the database.
    static RegionCatalog read(FeatureDatabase& database);

    const std::vector<Region>& regions() const { return regions_; }
    const std::vector<Program>& programs() const { return programs_; }
    std::vector<std::string> programNames() const;
    /// The program called `name`; a usage error listing the programs for an unknown name.
    const Program& program(const std::string& name) const;
    bool hasProgram(const std::string& name) const;
    /// The same catalog restricted to `names`, in this catalog's order (every program when
    /// empty); an unknown name is a usage error listing the programs.
    RegionCatalog only(const std::vector<std::string>& names) const;

private:
    std::string databasePath_;
    std::vector<Region> regions_;
    std::vector<Program> programs_;
};

} // namespace concorde
