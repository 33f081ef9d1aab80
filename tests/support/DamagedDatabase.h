#pragma once
// Damages a copy of a feature database the way a bad disk or an interrupted copy would: one
// series blob cut short, a regions row with an impossible value, a basic-block vector that no
// longer decodes. The tests of "damaged data degrades, it does not refuse" (issue 19) build
// their damaged databases with these, always on a copy.

#include "store/SqliteConnection.h"

#include <cstdint>
#include <filesystem>
#include <string>

namespace concorde::testing {

/// Copies `from` to `to` (replacing it) and returns `to`.
inline std::filesystem::path copyDatabase(const std::filesystem::path& from,
                                          const std::filesystem::path& to) {
    std::filesystem::copy_file(from, to, std::filesystem::copy_options::overwrite_existing);
    return to;
}

/// Runs fixed SQL on `database` (the damage).
inline void damage(const std::filesystem::path& database, const std::string& sql) {
    SqliteConnection connection(database, SqliteConnection::Mode::ReadWrite);
    connection.exec(sql, "damaging a test database");
}

/// The id of region `regionIndex` of `program` as SQL, for the statements below.
inline std::string regionIdSql(const std::string& program, std::uint32_t regionIndex) {
    return "(SELECT r.id FROM regions AS r JOIN programs AS p ON p.id = r.program_id WHERE "
           "p.name = '" +
           program + "' AND r.region_index = " + std::to_string(regionIndex) + ")";
}

/// Cuts series group `group` of the region to half its bytes.
inline void truncateSeriesBlob(const std::filesystem::path& database, const std::string& program,
                               std::uint32_t regionIndex, const std::string& group) {
    damage(database, "UPDATE series SET data = substr(data, 1, length(data) / 2) WHERE "
                     "region_id = " +
                         regionIdSql(program, regionIndex) + " AND name = '" + group + "'");
}

/// Overwrites every series group `group` of `program` with zero bytes of the same length.
inline void zeroSeriesBlobs(const std::filesystem::path& database, const std::string& program,
                            const std::string& group) {
    damage(database, "UPDATE series SET data = zeroblob(length(data)) WHERE name = '" + group +
                         "' AND region_id IN (SELECT r.id FROM regions AS r JOIN programs AS p "
                         "ON p.id = r.program_id WHERE p.name = '" +
                         program + "')");
}

} // namespace concorde::testing
