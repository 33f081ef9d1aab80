#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace concorde {

/// The full check behind `concorde validate-db`: SQLite's own integrity check, the schema
/// version, every table, view and column, the build settings, the memory configurations and
/// series keys against the grid, and for every region its basic-block vector, every series group
/// the grid requires (present, right shape, CRC, decodes) and its records; every label (its
/// configuration parses and matches its key, its per-window IPC decodes, CPI = cycles /
/// instructions) and every model's JSON. It collects all problems rather than stopping at the
/// first.
class DatabaseValidator {
public:
    struct Report {
        std::vector<std::string> problems;
        std::size_t regions = 0;
        std::size_t completeRegions = 0;
        std::size_t seriesGroups = 0; ///< decoded successfully
        std::size_t series = 0;
        std::size_t labels = 0;
        /// Complete regions whose row or a series group is damaged: `predict` and the explorer
        /// skip them (RegionCatalog::Damage) and predict from the rest.
        std::size_t damagedRegions = 0;
        /// Per program with such regions, one line: which regions, and what is left.
        std::vector<std::string> damagedPrograms;
        bool clean() const { return problems.empty(); }
    };

    /// Throws a bad-input ConcordeError only when `path` is not a feature database at all
    /// (missing, empty, another format, another application's SQLite database); everything else
    /// is a problem in the report.
    static Report validate(const std::filesystem::path& path);
};

} // namespace concorde
