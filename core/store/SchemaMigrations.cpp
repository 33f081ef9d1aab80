#include "store/SchemaMigrations.h"

#include "common/ConcordeError.h"
#include "store/SqliteConnection.h"
#include "store/SqliteStatement.h"
#include "store/SqliteTransaction.h"

#include <charconv>

namespace concorde {

const std::vector<SchemaMigrations::Step>& SchemaMigrations::steps() {
    static const std::vector<Step> all = {
        {1, "create the feature database tables", R"SQL(
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE programs (
    id                  INTEGER PRIMARY KEY,
    name                TEXT NOT NULL UNIQUE,
    command_line        TEXT NOT NULL,
    source_trace        TEXT NOT NULL,
    instructions_traced INTEGER NOT NULL
);
CREATE TABLE regions (
    id            INTEGER PRIMARY KEY,
    program_id    INTEGER NOT NULL REFERENCES programs(id),
    region_index  INTEGER NOT NULL,
    program_start INTEGER NOT NULL,
    warmup        INTEGER NOT NULL,
    length        INTEGER NOT NULL,
    bbv           BLOB NOT NULL,
    complete      INTEGER NOT NULL DEFAULT 0,
    UNIQUE (program_id, region_index)
);
CREATE TABLE memory_configs (
    id        INTEGER PRIMARY KEY,
    l1d_kb    INTEGER NOT NULL,
    l1i_kb    INTEGER NOT NULL,
    l2_kb     INTEGER NOT NULL,
    pf_degree INTEGER NOT NULL,
    UNIQUE (l1d_kb, l1i_kb, l2_kb, pf_degree)
);
CREATE TABLE series_keys (
    name             TEXT NOT NULL,
    position         INTEGER NOT NULL,
    memory_config_id INTEGER NOT NULL,
    settings         TEXT NOT NULL,
    PRIMARY KEY (name, position)
) WITHOUT ROWID;
CREATE TABLE series (
    region_id    INTEGER NOT NULL REFERENCES regions(id),
    name         TEXT NOT NULL,
    series_count INTEGER NOT NULL,
    windows      INTEGER NOT NULL,
    encoding     INTEGER NOT NULL,
    data         BLOB NOT NULL,
    UNIQUE (region_id, name)
);
CREATE TABLE region_records (
    region_id    INTEGER PRIMARY KEY REFERENCES regions(id),
    record_count INTEGER NOT NULL,
    encoding     INTEGER NOT NULL,
    data         BLOB NOT NULL
);
CREATE TABLE labels (
    id           INTEGER PRIMARY KEY,
    region_id    INTEGER NOT NULL REFERENCES regions(id),
    config_json  TEXT NOT NULL,
    config_key   TEXT NOT NULL,
    source       TEXT NOT NULL,
    instructions INTEGER NOT NULL,
    cycles       INTEGER NOT NULL,
    cpi          REAL NOT NULL,
    window_ipc   BLOB NOT NULL,
    UNIQUE (region_id, config_key)
);
CREATE TABLE models (
    id                 INTEGER PRIMARY KEY,
    name               TEXT NOT NULL UNIQUE,
    created            TEXT NOT NULL,
    layout_json        TEXT NOT NULL,
    weights            BLOB NOT NULL,
    normalisation_json TEXT NOT NULL,
    metrics_json       TEXT NOT NULL
);
CREATE VIEW series_catalog AS
    SELECT s.region_id, s.name, k.position, k.memory_config_id, k.settings, s.windows
    FROM series AS s JOIN series_keys AS k ON k.name = s.name;
)SQL"},
        {2, "add regions.phase", "ALTER TABLE regions ADD COLUMN phase INTEGER;"},
        {3, "add the functional warm-up: regions.functional_warmup, region_records.warm_state",
         R"SQL(
ALTER TABLE regions ADD COLUMN functional_warmup INTEGER NOT NULL DEFAULT 0;
ALTER TABLE region_records ADD COLUMN warm_state BLOB;
)SQL"},
    };
    return all;
}

int SchemaMigrations::versionOf(SqliteConnection& connection) {
    const std::string path = connection.path().string();
    if (!connection.hasTable("meta")) {
        auto objects =
            connection.prepare("SELECT count(*) FROM sqlite_master", "counting schema objects");
        objects.step();
        if (objects.int64(0) == 0)
            return 0;
        throw badInput(path +
                       " is an SQLite database but not a Concorde feature database (it has no "
                       "meta table)");
    }
    auto query = connection.prepare("SELECT value FROM meta WHERE key = 'schema_version'",
                                    "reading the schema version");
    if (!query.step())
        throw badInput(path + ": table meta has no schema_version row (not a Concorde feature "
                              "database, or a damaged one)");
    const std::string text = query.text(0);
    int version = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), version);
    if (ec != std::errc() || end != text.data() + text.size() || version < 1)
        throw badInput(path + ": meta.schema_version is '" + text + "', not a schema version");
    return version;
}

std::string SchemaMigrations::versionProblem(int version, const std::string& path) {
    if (version == kCurrentVersion)
        return {};
    if (version > kCurrentVersion)
        return path + " has schema version " + std::to_string(version) +
               ", newer than this build of Concorde understands (up to " +
               std::to_string(kCurrentVersion) + "); use a newer Concorde";
    return path + " has schema version " + std::to_string(version) + ", older than this build's " +
           std::to_string(kCurrentVersion) + "; run `concorde migrate-db " + path +
           "` (or `concorde build-db` on it) to upgrade";
}

int SchemaMigrations::migrate(SqliteConnection& connection, int target) {
    if (target < 1 || target > kCurrentVersion)
        throw usageError("no schema version " + std::to_string(target));
    SqliteTransaction transaction(connection);
    // Read inside the transaction: two processes opening the same new file cannot both create it.
    const int from = versionOf(connection);
    if (from > kCurrentVersion)
        throw badInput(versionProblem(from, connection.path().string()));
    if (from >= target)
        return from;
    for (const Step& step : steps()) {
        if (step.toVersion <= from || step.toVersion > target)
            continue;
        connection.exec(step.sql, "schema migration to version " + std::to_string(step.toVersion) +
                                      ": " + step.description);
    }
    auto set = connection.prepare("INSERT INTO meta (key, value) VALUES ('schema_version', ?1) "
                                  "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                                  "recording the schema version");
    set.bind(1, std::to_string(target));
    set.run();
    transaction.commit();
    return from;
}

} // namespace concorde
