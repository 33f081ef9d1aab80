#pragma once

#include <string>
#include <vector>

namespace concorde {

class SqliteConnection;

/// The feature database's schema history: an ordered list of steps, step k taking a database
/// from version k − 1 to version k. A new database is built by running every step from version
/// 0 (an empty file), so a migrated old database and a fresh one end with the same schema.
///
/// Versions:
/// - 1: meta, programs, regions (without phase), memory_configs, series_keys, series,
///      region_records, labels, models and the series_catalog view.
/// - 2: regions.phase (the phase a region belongs to, NULL until phases are computed).
///
/// To change the schema: append a step, bump kCurrentVersion, update DatabaseSchema's expected
/// tables and docs/database.md. Never edit a released step.
class SchemaMigrations {
public:
    static constexpr int kCurrentVersion = 3;

    struct Step {
        int toVersion;
        std::string description;
        std::string sql;
    };
    static const std::vector<Step>& steps();

    /// meta.schema_version, or 0 for a database without any table (a new or empty file).
    /// Throws a bad-input ConcordeError for an SQLite file that is not a feature database (tables
    /// but no meta table) or whose schema_version is missing or not a number.
    static int versionOf(SqliteConnection& connection);

    /// Runs the steps from the current version up to `target`, all in one transaction (either
    /// every step applies or none). Returns the version found before migrating. Throws for a
    /// version newer than this build knows.
    static int migrate(SqliteConnection& connection, int target = kCurrentVersion);

    /// The error text for a database whose version is not `kCurrentVersion`, or empty when it
    /// is: older → "run concorde migrate-db", newer → "needs a newer Concorde".
    static std::string versionProblem(int version, const std::string& path);
};

} // namespace concorde
