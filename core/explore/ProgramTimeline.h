#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace concorde {

class CoreConfig;
class DatabaseBounds;
class DatabasePredictor;

/// A program's regions along its execution, with each region's phase and predicted CPI: what the
/// explorer's phase view draws (docs/design.md §11, per-region phase drill-down).
struct ProgramTimeline {
    struct Entry {
        std::size_t region = 0;    ///< index into DatabaseBounds::regions()
        std::int64_t regionId = 0; ///< the database's region id
        std::uint32_t regionIndex = 0;
        std::uint64_t programStart = 0; ///< first measured instruction in the program's run
        std::uint64_t length = 0;
        std::optional<std::int64_t> phase;
        double cpi = 0; ///< predicted CPI at the configuration shown (NaN when unknown)
    };

    std::string program;
    std::vector<Entry> entries; ///< in region-index (execution) order

    /// Whether any entry has a phase.
    bool hasPhases() const;
    /// 1 + the largest phase (0 when no entry has one).
    std::size_t phaseCount() const;
    /// The instruction-weighted mean of the entries' CPIs (NaN if any is unknown).
    double programCpi() const;

    /// The program's regions of `bounds`, phases as stored in the database, CPIs from
    /// `predictor` at `config` (matched by region id; NaN for regions it has not loaded, or
    /// every region when `predictor` is null). A usage error for an unknown program.
    static ProgramTimeline build(const DatabaseBounds& bounds, const std::string& program,
                                 const DatabasePredictor* predictor, const CoreConfig& config);
    /// Replaces every entry's phase: phases[regionId] (entries not listed get none), e.g. from a
    /// DatabasePhases::compute result when the database stores no phases.
    void setPhases(const std::vector<std::pair<std::int64_t, std::int64_t>>& phases);
};

} // namespace concorde
