#include "store/FeatureDatabase.h"

#include "common/ConcordeError.h"
#include "common/JsonFields.h"
#include "ml/CpiModel.h"
#include "store/BasicBlockVectorCodec.h"
#include "store/DatabaseSchema.h"
#include "store/GridDescription.h"
#include "store/RecordBlobCodec.h"
#include "store/SchemaMigrations.h"
#include "store/SqliteConnection.h"
#include "store/SqliteStatement.h"
#include "store/SqliteTransaction.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>

namespace concorde {
namespace {

constexpr char kSqliteMagic[16] = {'S', 'Q', 'L', 'i', 't', 'e', ' ', 'f',
                                   'o', 'r', 'm', 'a', 't', ' ', '3', '\0'};
constexpr int kSeriesEncoding = 1;
constexpr int kRecordsEncoding = 1;

enum class FileState { Missing, Empty, Sqlite, Other, Directory, Unreadable };

struct Inspection {
    FileState state;
    std::string reason; ///< why an Unreadable file cannot be read (strerror)
};

/// What is at `path`, telling "cannot read it" (permissions, a directory) apart from "read it
/// and it is not SQLite", so that users get the real cause.
Inspection inspect(const std::filesystem::path& path) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        return {ec ? FileState::Unreadable : FileState::Missing, ec ? ec.message() : ""};
    if (std::filesystem::is_directory(path, ec))
        return {FileState::Directory, {}};
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (!file)
        return {FileState::Unreadable, std::strerror(errno)};
    char head[16] = {};
    const std::size_t got = std::fread(head, 1, sizeof head, file);
    const bool failed = std::ferror(file) != 0;
    const int error = errno;
    std::fclose(file);
    if (failed)
        return {FileState::Unreadable, std::strerror(error)};
    if (got == 0)
        return {FileState::Empty, {}};
    if (got == sizeof head && std::memcmp(head, kSqliteMagic, sizeof head) == 0)
        return {FileState::Sqlite, {}};
    return {FileState::Other, {}};
}

/// The bad-input error for a file that inspect() found unusable as a database.
ConcordeError unusableFile(const std::filesystem::path& path, const Inspection& found) {
    const std::string name = path.string();
    switch (found.state) {
    case FileState::Missing:
        return badInput("no such database file: " + name);
    case FileState::Directory:
        return badInput(name + " is a directory, not a Concorde feature database");
    case FileState::Unreadable:
        return badInput("cannot read " + name + ": " + found.reason);
    case FileState::Empty:
        return badInput(name + " is empty, not a Concorde feature database");
    default:
        return badInput(name + " is not an SQLite database (not a Concorde feature database)");
    }
}

std::uint64_t parseUnsigned(const std::string& text, const std::string& what) {
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size())
        throw badInput(what + " is '" + text + "', not a whole number");
    return value;
}

} // namespace

FeatureDatabase::FeatureDatabase(std::filesystem::path path,
                                 std::unique_ptr<SqliteConnection> connection, int schemaVersion)
    : path_(std::move(path)), connection_(std::move(connection)), schemaVersion_(schemaVersion) {}

FeatureDatabase::FeatureDatabase(FeatureDatabase&&) noexcept = default;
FeatureDatabase& FeatureDatabase::operator=(FeatureDatabase&&) noexcept = default;

FeatureDatabase::~FeatureDatabase() {
    close();
}

bool FeatureDatabase::isSqliteFile(const std::filesystem::path& path) {
    return inspect(path).state == FileState::Sqlite;
}

void FeatureDatabase::requireSqliteFile(const std::filesystem::path& path) {
    if (const Inspection found = inspect(path); found.state != FileState::Sqlite)
        throw unusableFile(path, found);
}

FeatureDatabase FeatureDatabase::openReadOnly(const std::filesystem::path& path) {
    const std::string name = path.string();
    requireSqliteFile(path);
    auto connection = std::make_unique<SqliteConnection>(path, SqliteConnection::Mode::ReadOnly);
    const int version = SchemaMigrations::versionOf(*connection);
    if (version == 0)
        throw badInput(name + " is an empty SQLite database, not a Concorde feature database");
    if (const std::string problem = SchemaMigrations::versionProblem(version, name);
        !problem.empty())
        throw badInput(problem);
    const auto problems = DatabaseSchema::problems(*connection);
    if (!problems.empty()) {
        std::string text;
        for (const auto& p : problems)
            text += (text.empty() ? "" : "; ") + p;
        throw badInput(name + " is a damaged feature database: " + text);
    }
    return FeatureDatabase(path, std::move(connection), version);
}

FeatureDatabase FeatureDatabase::openForWriting(const std::filesystem::path& path,
                                                int schemaVersion) {
    const std::string name = path.string();
    const Inspection existing = inspect(path);
    if (existing.state == FileState::Directory || existing.state == FileState::Unreadable)
        throw unusableFile(path, existing);
    if (existing.state == FileState::Other)
        throw badInput(name + " exists and is not an SQLite database; refusing to overwrite it");
    auto connection = std::make_unique<SqliteConnection>(path, SqliteConnection::Mode::ReadWrite);
    // Fail before changing anything if this is another application's database.
    const int found = SchemaMigrations::versionOf(*connection);
    if (found > SchemaMigrations::kCurrentVersion)
        throw badInput(SchemaMigrations::versionProblem(found, name));
    connection->exec("PRAGMA journal_mode = WAL", "switching to WAL mode");
    // NORMAL in WAL mode: a committed region survives a crash of the process (SIGKILL); only a
    // power cut can lose the last commits, never consistency.
    connection->exec("PRAGMA synchronous = NORMAL", "setting synchronous mode");
    connection->exec("PRAGMA foreign_keys = ON", "enabling foreign keys");
    const int target = schemaVersion < 0 ? SchemaMigrations::kCurrentVersion : schemaVersion;
    SchemaMigrations::migrate(*connection, target);
    const int version = SchemaMigrations::versionOf(*connection);
    if (version == SchemaMigrations::kCurrentVersion) {
        const auto problems = DatabaseSchema::problems(*connection);
        if (!problems.empty())
            throw badInput(name + " is a damaged feature database: " + problems.front());
    }
    return FeatureDatabase(path, std::move(connection), version);
}

bool FeatureDatabase::readOnly() const {
    return connection_ && connection_->readOnly();
}

void FeatureDatabase::close() {
    if (!connection_)
        return;
    if (!connection_->readOnly()) {
        try {
            connection_->exec("PRAGMA journal_mode = DELETE", "leaving WAL mode");
        } catch (const ConcordeError&) {
            // Another connection still reads the file: it stays in WAL mode, which is still a
            // valid database; the next writer to close switches it.
        }
    }
    connection_.reset();
}

std::optional<std::string> FeatureDatabase::meta(const std::string& key) {
    auto query = connection_->prepare("SELECT value FROM meta WHERE key = ?1", "reading meta");
    query.bind(1, key);
    if (!query.step())
        return std::nullopt;
    return query.text(0);
}

void FeatureDatabase::setMeta(const std::string& key, const std::string& value) {
    auto set = connection_->prepare("INSERT INTO meta (key, value) VALUES (?1, ?2) "
                                    "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                                    "writing meta");
    set.bind(1, key).bind(2, value);
    set.run();
}

bool FeatureDatabase::hasBuildSettings() {
    return meta("window_size").has_value();
}

BuildSettings FeatureDatabase::buildSettings() {
    if (settings_)
        return *settings_;
    const std::string name = path_.string();
    const auto require = [&](const std::string& key) {
        auto value = meta(key);
        if (!value)
            throw badInput(name + ": meta has no " + key +
                           " (the database was never built; run concorde build-db)");
        return *value;
    };
    BuildSettings settings;
    const std::uint64_t window = parseUnsigned(require("window_size"), name + ": meta.window_size");
    if (window == 0 || window > (1u << 20))
        throw badInput(name + ": meta.window_size " + std::to_string(window) + " is out of range");
    settings.windowSize = static_cast<std::uint32_t>(window);
    settings.regionLength = parseUnsigned(require("region_length"), name + ": meta.region_length");
    nlohmann::json grid;
    try {
        grid = nlohmann::json::parse(require("grid"));
    } catch (const nlohmann::json::exception& e) {
        throw badInput(name + ": meta.grid is not valid JSON: " + e.what());
    }
    settings.grid = GridDescription::fromJson(grid, true, name + ": meta.grid");
    settings.createdBy = meta("created_by").value_or("");
    settings.analysis.timedStores = meta("store_queue_model").value_or("") == "timed";
    settings.analysis.timedLoads = meta("load_timing").value_or("") == "timed";
    settings.analysis.loadQueueThroughCommit =
        meta("load_queue_model").value_or("") == "through_commit";
    settings_ = std::make_unique<BuildSettings>(settings);
    return settings;
}

const SeriesCatalog& FeatureDatabase::catalog() {
    if (!catalog_)
        catalog_ = std::make_unique<SeriesCatalog>(buildSettings().grid,
                                                   buildSettings().analysis.timedStores);
    return *catalog_;
}

void FeatureDatabase::initialiseBuildSettings(const BuildSettings& settings) {
    const std::string name = path_.string();
    if (hasBuildSettings()) {
        const BuildSettings stored = buildSettings();
        if (stored.windowSize != settings.windowSize)
            throw badInput(name + " was built with windows of " +
                           std::to_string(stored.windowSize) + " instructions, not " +
                           std::to_string(settings.windowSize) +
                           "; use the same --window or another --out");
        if (GridDescription::canonicalText(stored.grid) !=
            GridDescription::canonicalText(settings.grid))
            throw badInput(name + " was built with another grid (" +
                           GridDescription::canonicalText(stored.grid) +
                           "); use the same --grid or another --out");
        if (stored.analysis != settings.analysis)
            throw badInput(name + " holds bounds of another analysis revision (" +
                           stored.analysis.describe() + ", not " + settings.analysis.describe() +
                           ")");
        return;
    }
    setMeta("window_size", std::to_string(settings.windowSize));
    setMeta("region_length", std::to_string(settings.regionLength));
    setMeta("grid", GridDescription::canonicalText(settings.grid));
    setMeta("created_by", settings.createdBy);
    if (settings.analysis.timedStores)
        setMeta("store_queue_model", "timed");
    if (settings.analysis.timedLoads)
        setMeta("load_timing", "timed");
    if (settings.analysis.loadQueueThroughCommit)
        setMeta("load_queue_model", "through_commit");
    const SeriesCatalog catalog(settings.grid, settings.analysis.timedStores);
    auto memory = connection_->prepare("INSERT INTO memory_configs (id, l1d_kb, l1i_kb, l2_kb, "
                                       "pf_degree) VALUES (?1, ?2, ?3, ?4, ?5)",
                                       "writing memory_configs");
    for (std::size_t m = 0; m < catalog.memoryConfigs().size(); ++m) {
        const MemoryConfig& c = catalog.memoryConfigs()[m];
        memory.bind(1, static_cast<std::int64_t>(m + 1))
            .bind(2, std::int64_t{c.l1dKb})
            .bind(3, std::int64_t{c.l1iKb})
            .bind(4, std::int64_t{c.l2Kb})
            .bind(5, std::int64_t{c.prefetchDegree});
        memory.run();
    }
    auto keys = connection_->prepare("INSERT INTO series_keys (name, position, memory_config_id, "
                                     "settings) VALUES (?1, ?2, ?3, ?4)",
                                     "writing series_keys");
    for (const auto& group : catalog.groups())
        for (std::size_t i = 0; i < group.series.size(); ++i) {
            keys.bind(1, group.name)
                .bind(2, static_cast<std::int64_t>(i))
                .bind(3, std::int64_t{group.series[i].memoryConfigId})
                .bind(4, SeriesCatalog::settingsText(group.series[i].settings));
            keys.run();
        }
    settings_.reset();
    catalog_.reset();
}

std::vector<ProgramRow> FeatureDatabase::programs() {
    auto query = connection_->prepare("SELECT id, name, command_line, source_trace, "
                                      "instructions_traced FROM programs ORDER BY id",
                                      "reading programs");
    std::vector<ProgramRow> rows;
    while (query.step())
        rows.push_back({query.int64(0), query.text(1), query.text(2), query.text(3),
                        static_cast<std::uint64_t>(query.int64(4))});
    return rows;
}

std::int64_t FeatureDatabase::ensureProgram(const ProgramRow& program) {
    auto find = connection_->prepare(
        "SELECT id, command_line, instructions_traced FROM programs WHERE name = ?1",
        "looking up a program");
    find.bind(1, program.name);
    if (find.step()) {
        if (find.text(1) != program.commandLine ||
            static_cast<std::uint64_t>(find.int64(2)) != program.instructionsTraced)
            throw badInput(path_.string() + " already has a program named '" + program.name +
                           "' from another trace (command line '" + find.text(1) + "', " +
                           std::to_string(find.int64(2)) + " instructions); rename the trace file");
        return find.int64(0);
    }
    auto insert = connection_->prepare(
        "INSERT INTO programs (id, name, command_line, source_trace, instructions_traced) "
        "VALUES (?1, ?2, ?3, ?4, ?5)",
        "adding a program");
    insert.bindRowIdOrNull(1, program.id)
        .bind(2, program.name)
        .bind(3, program.commandLine)
        .bind(4, program.sourceTrace)
        .bind(5, static_cast<std::int64_t>(program.instructionsTraced));
    insert.run();
    return connection_->lastInsertRowId();
}

namespace {

RegionRow regionFrom(SqliteStatement& q, const std::string& path) {
    RegionRow r;
    r.id = q.int64(0);
    r.programId = q.int64(1);
    const std::string row = path + ": regions row " + std::to_string(r.id);
    // Values no build writes: a damaged row, refused rather than read as a huge unsigned number.
    const auto nonNegative = [&](int column, const char* what) {
        if (q.isNull(column) || q.int64(column) < 0)
            throw badInput(
                row + " has an impossible " + what + " (" +
                (q.isNull(column) ? std::string("NULL") : std::to_string(q.int64(column))) + ")");
        return static_cast<std::uint64_t>(q.int64(column));
    };
    const std::uint64_t regionIndex = nonNegative(2, "region_index");
    if (regionIndex > std::numeric_limits<std::uint32_t>::max())
        throw badInput(row + " has an impossible region_index (" + std::to_string(regionIndex) +
                       ")");
    r.regionIndex = static_cast<std::uint32_t>(regionIndex);
    r.programStart = nonNegative(3, "program_start");
    r.warmup = nonNegative(4, "warmup");
    if (q.int64(5) <= 0) // nothing measured: its CPI would be 0 or a division by zero
        throw badInput(row + " has no measured instructions (length " + std::to_string(q.int64(5)) +
                       ")");
    r.length = static_cast<std::uint64_t>(q.int64(5));
    if (!q.isNull(6))
        r.phase = q.int64(6);
    r.basicBlockVector = BasicBlockVectorCodec::decode(q.blob(7), row);
    r.complete = q.int64(8) != 0;
    r.functionalWarmup = nonNegative(9, "functional_warmup");
    return r;
}

constexpr const char* kRegionColumns =
    "SELECT id, program_id, region_index, program_start, warmup, length, phase, bbv, complete, "
    "functional_warmup FROM regions";

} // namespace

std::vector<RegionRow> FeatureDatabase::regions() {
    auto query =
        connection_->prepare(std::string(kRegionColumns) + " ORDER BY id", "reading regions");
    std::vector<RegionRow> rows;
    while (query.step())
        rows.push_back(regionFrom(query, path_.string()));
    return rows;
}

std::vector<RegionRow> FeatureDatabase::regions(std::vector<DamagedRegionRow>& damaged) {
    auto query =
        connection_->prepare(std::string(kRegionColumns) + " ORDER BY id", "reading regions");
    std::vector<RegionRow> rows;
    while (query.step()) {
        try {
            rows.push_back(regionFrom(query, path_.string()));
        } catch (const ConcordeError& error) {
            if (error.kind() != ErrorKind::BadInput)
                throw;
            // The columns that locate the row are plain integers; read them as stored.
            damaged.push_back({query.int64(0), query.int64(1), query.int64(2), query.int64(8) != 0,
                               error.what()});
        }
    }
    return rows;
}

std::optional<RegionRow> FeatureDatabase::region(std::int64_t id) {
    auto query =
        connection_->prepare(std::string(kRegionColumns) + " WHERE id = ?1", "reading a region");
    query.bind(1, id);
    if (!query.step())
        return std::nullopt;
    return regionFrom(query, path_.string());
}

std::int64_t FeatureDatabase::ensureRegion(const RegionRow& region) {
    if (region.length == 0)
        throw badInput(path_.string() + ": refusing to store region " +
                       std::to_string(region.regionIndex) + ", which has no measured instructions");
    auto find = connection_->prepare("SELECT id, program_start, warmup, length, "
                                     "functional_warmup FROM regions "
                                     "WHERE program_id = ?1 AND region_index = ?2",
                                     "looking up a region");
    find.bind(1, region.programId).bind(2, std::int64_t{region.regionIndex});
    if (find.step()) {
        if (static_cast<std::uint64_t>(find.int64(1)) != region.programStart ||
            static_cast<std::uint64_t>(find.int64(2)) != region.warmup ||
            static_cast<std::uint64_t>(find.int64(3)) != region.length ||
            static_cast<std::uint64_t>(find.int64(4)) != region.functionalWarmup)
            throw badInput(
                path_.string() + ": " + describeRegion(find.int64(0)) +
                " is stored with another position, length or functional warm-up than the "
                "trace has now");
        return find.int64(0);
    }
    auto insert = connection_->prepare(
        "INSERT INTO regions (id, program_id, region_index, program_start, warmup, length, bbv, "
        "complete, functional_warmup) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 0, ?8)",
        "adding a region");
    insert.bindRowIdOrNull(1, region.id)
        .bind(2, region.programId)
        .bind(3, std::int64_t{region.regionIndex})
        .bind(4, static_cast<std::int64_t>(region.programStart))
        .bind(5, static_cast<std::int64_t>(region.warmup))
        .bind(6, static_cast<std::int64_t>(region.length))
        .bindBlob(7, BasicBlockVectorCodec::encode(region.basicBlockVector))
        .bind(8, static_cast<std::int64_t>(region.functionalWarmup));
    insert.run();
    const std::int64_t id = connection_->lastInsertRowId();
    if (region.phase) {
        auto setPhase =
            connection_->prepare("UPDATE regions SET phase = ?1 WHERE id = ?2", "setting a phase");
        setPhase.bind(1, *region.phase).bind(2, id);
        setPhase.run();
    }
    return id;
}

void FeatureDatabase::setPhases(std::int64_t programId,
                                const std::map<std::int64_t, std::int64_t>& phases) {
    SqliteTransaction transaction(*connection_);
    auto clear = connection_->prepare("UPDATE regions SET phase = NULL WHERE program_id = ?1",
                                      "clearing phases");
    clear.bind(1, programId);
    clear.run();
    auto set = connection_->prepare(
        "UPDATE regions SET phase = ?1 WHERE id = ?2 AND program_id = ?3", "setting a phase");
    for (const auto& [regionId, phase] : phases) {
        set.reset();
        set.bind(1, phase).bind(2, regionId).bind(3, programId);
        set.run();
        if (connection_->changes() != 1)
            throw usageError(path_.string() + ": region id " + std::to_string(regionId) +
                             " is not a region of program id " + std::to_string(programId));
    }
    transaction.commit();
}

std::string FeatureDatabase::describeRegion(std::int64_t regionId) {
    auto query = connection_->prepare(
        "SELECT p.name, r.region_index FROM regions AS r JOIN programs AS p ON p.id = "
        "r.program_id WHERE r.id = ?1",
        "naming a region");
    query.bind(1, regionId);
    if (!query.step())
        return "region id " + std::to_string(regionId);
    return query.text(0) + " region " + std::to_string(query.int64(1)) + " (id " +
           std::to_string(regionId) + ")";
}

void FeatureDatabase::writeRegionData(std::int64_t regionId, const RegionData& data) {
    SqliteTransaction transaction(*connection_);
    auto clearSeries =
        connection_->prepare("DELETE FROM series WHERE region_id = ?1", "clearing series");
    clearSeries.bind(1, regionId);
    clearSeries.run();
    auto clearRecords = connection_->prepare("DELETE FROM region_records WHERE region_id = ?1",
                                             "clearing region records");
    clearRecords.bind(1, regionId);
    clearRecords.run();
    auto insert = connection_->prepare(
        "INSERT INTO series (region_id, name, series_count, windows, encoding, data) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        "writing series");
    for (const SeriesGroupBlob& group : data.groups) {
        insert.bind(1, regionId)
            .bind(2, group.name)
            .bind(3, std::int64_t{group.seriesCount})
            .bind(4, std::int64_t{group.windows})
            .bind(5, std::int64_t{group.encoding})
            .bindBlob(6, group.data);
        insert.run();
    }
    auto records =
        connection_->prepare("INSERT INTO region_records (region_id, record_count, encoding, data, "
                             "warm_state) VALUES (?1, ?2, ?3, ?4, ?5)",
                             "writing region records");
    records.bind(1, regionId)
        .bind(2, static_cast<std::int64_t>(data.records.recordCount))
        .bind(3, std::int64_t{data.records.encoding})
        .bindBlob(4, data.records.data);
    if (data.records.warmState.empty())
        records.bindNull(5);
    else
        records.bindBlob(5, data.records.warmState);
    records.run();
    auto complete = connection_->prepare("UPDATE regions SET complete = 1 WHERE id = ?1",
                                         "marking a region complete");
    complete.bind(1, regionId);
    complete.run();
    if (connection_->changes() != 1)
        throw runtimeFailure(path_.string() + ": no region with id " + std::to_string(regionId));
    transaction.commit();
}

std::vector<SeriesGroupBlob> FeatureDatabase::seriesGroupBlobs(std::int64_t regionId) {
    auto query = connection_->prepare("SELECT name, series_count, windows, encoding, data "
                                      "FROM series WHERE region_id = ?1 ORDER BY name",
                                      "reading series");
    query.bind(1, regionId);
    std::vector<SeriesGroupBlob> rows;
    while (query.step())
        rows.push_back({query.text(0), static_cast<std::uint32_t>(query.int64(1)),
                        static_cast<std::uint32_t>(query.int64(2)),
                        static_cast<int>(query.int64(3)), query.blob(4)});
    return rows;
}

std::optional<RecordsBlob> FeatureDatabase::recordsBlob(std::int64_t regionId) {
    auto query = connection_->prepare(
        "SELECT record_count, encoding, data, warm_state FROM region_records WHERE region_id = ?1",
        "reading region records");
    query.bind(1, regionId);
    if (!query.step())
        return std::nullopt;
    return RecordsBlob{static_cast<std::uint64_t>(query.int64(0)), static_cast<int>(query.int64(1)),
                       query.blob(2),
                       query.isNull(3) ? std::vector<std::uint8_t>{} : query.blob(3)};
}

SeriesMatrix FeatureDatabase::readSeriesGroup(std::int64_t regionId, const std::string& name) {
    const std::string what =
        path_.string() + ": " + describeRegion(regionId) + ", series group " + name;
    const SeriesCatalog::Group* group = catalog().find(name);
    if (!group)
        throw usageError("the database has no series called '" + name + "'");
    const auto row = region(regionId);
    if (!row)
        throw badInput(what + ": no such region");
    auto query = connection_->prepare(
        "SELECT series_count, windows, encoding, data FROM series WHERE region_id = ?1 AND "
        "name = ?2",
        "reading a series group");
    query.bind(1, regionId).bind(2, name);
    if (!query.step())
        throw badInput(what + ": missing from table series" +
                       (row->complete ? "" : " (the region is not built yet)"));
    if (query.int64(2) != kSeriesEncoding)
        throw badInput(what + ": unknown encoding " + std::to_string(query.int64(2)));
    const std::uint32_t windows =
        SeriesCatalog::windowsFor(*group, row->length, buildSettings().windowSize);
    if (query.int64(0) != static_cast<std::int64_t>(group->series.size()) ||
        query.int64(1) != windows)
        throw badInput(what + ": row says " + std::to_string(query.int64(0)) + " series of " +
                       std::to_string(query.int64(1)) + " windows, the grid needs " +
                       std::to_string(group->series.size()) + " of " + std::to_string(windows));
    return SeriesGroupCodec::decode(query.blob(3), what,
                                    static_cast<std::int64_t>(group->series.size()), windows);
}

std::vector<std::uint8_t> FeatureDatabase::regionWarmState(std::int64_t regionId) {
    auto query = connection_->prepare("SELECT warm_state FROM region_records WHERE region_id = ?1",
                                      "reading a warm state");
    query.bind(1, regionId);
    if (!query.step() || query.isNull(0))
        return {};
    return query.blob(0);
}

std::size_t FeatureDatabase::rewriteWarmStates(
    const std::function<std::vector<std::uint8_t>(std::span<const std::uint8_t>,
                                                  const std::string&)>& rewrite) {
    SqliteTransaction transaction(*connection_);
    std::vector<std::int64_t> ids;
    {
        auto query = connection_->prepare(
            "SELECT region_id FROM region_records WHERE warm_state IS NOT NULL ORDER BY region_id",
            "listing warm states");
        while (query.step())
            ids.push_back(query.int64(0));
    }
    for (const std::int64_t id : ids) {
        const std::vector<std::uint8_t> bytes = regionWarmState(id);
        const std::vector<std::uint8_t> rewritten =
            rewrite(bytes, path_.string() + ": " + describeRegion(id) + ", warm state");
        auto update =
            connection_->prepare("UPDATE region_records SET warm_state = ?1 WHERE region_id = ?2",
                                 "rewriting a warm state");
        update.bindBlob(1, rewritten).bind(2, id);
        update.run();
    }
    transaction.commit();
    return ids.size();
}

std::vector<TraceRecord> FeatureDatabase::regionRecords(std::int64_t regionId) {
    const std::string what = path_.string() + ": " + describeRegion(regionId) + ", records";
    const auto row = region(regionId);
    if (!row)
        throw badInput(what + ": no such region");
    const auto blob = recordsBlob(regionId);
    if (!blob)
        throw badInput(what + ": missing from table region_records" +
                       (row->complete ? "" : " (the region is not built yet)"));
    if (blob->encoding != kRecordsEncoding)
        throw badInput(what + ": unknown encoding " + std::to_string(blob->encoding));
    const auto expected = static_cast<std::int64_t>(row->warmup + row->length);
    if (static_cast<std::int64_t>(blob->recordCount) != expected)
        throw badInput(what + ": row says " + std::to_string(blob->recordCount) +
                       " records, the region has " + std::to_string(expected));
    return RecordBlobCodec::decode(blob->data, what, expected);
}

std::set<std::string> FeatureDatabase::labelKeys(std::int64_t regionId) {
    auto query = connection_->prepare("SELECT config_key FROM labels WHERE region_id = ?1",
                                      "reading label keys");
    query.bind(1, regionId);
    std::set<std::string> keys;
    while (query.step())
        keys.insert(query.text(0));
    return keys;
}

std::size_t FeatureDatabase::writeLabels(std::int64_t regionId,
                                         const std::vector<LabelRow>& labels) {
    for (const LabelRow& label : labels) // a CPI of 0 or NaN is a failed simulation, not a label
        if (label.instructions == 0 || !std::isfinite(label.cpi) || !(label.cpi > 0))
            throw runtimeFailure(path_.string() + ": refusing to store a label of " +
                                 describeRegion(regionId) + " with CPI " +
                                 std::to_string(label.cpi) + " over " +
                                 std::to_string(label.instructions) + " instructions");
    SqliteTransaction transaction(*connection_);
    auto insert = connection_->prepare(
        "INSERT INTO labels (region_id, config_json, config_key, source, instructions, cycles, "
        "cpi, window_ipc) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) "
        "ON CONFLICT (region_id, config_key) DO NOTHING",
        "writing labels");
    std::size_t inserted = 0;
    for (const LabelRow& label : labels) {
        insert.bind(1, regionId)
            .bind(2, label.configJson)
            .bind(3, label.configKey)
            .bind(4, label.source)
            .bind(5, static_cast<std::int64_t>(label.instructions))
            .bind(6, static_cast<std::int64_t>(label.cycles))
            .bind(7, label.cpi)
            .bindBlob(8, label.windowIpc);
        insert.run();
        inserted += static_cast<std::size_t>(connection_->changes());
    }
    transaction.commit();
    return inserted;
}

std::vector<LabelRow> FeatureDatabase::labels(std::int64_t regionId) {
    auto query = connection_->prepare(
        "SELECT id, region_id, config_json, config_key, source, instructions, cycles, cpi, "
        "window_ipc FROM labels WHERE ?1 = 0 OR region_id = ?1 ORDER BY region_id, id",
        "reading labels");
    query.bind(1, regionId);
    std::vector<LabelRow> rows;
    while (query.step()) {
        LabelRow label;
        label.id = query.int64(0);
        label.regionId = query.int64(1);
        label.configJson = query.text(2);
        label.configKey = query.text(3);
        label.source = query.text(4);
        label.instructions = static_cast<std::uint64_t>(query.int64(5));
        label.cycles = static_cast<std::uint64_t>(query.int64(6));
        label.cpi = query.real(7);
        label.windowIpc = query.blob(8);
        rows.push_back(std::move(label));
    }
    return rows;
}

std::vector<ModelSummary> FeatureDatabase::models() {
    auto query = connection_->prepare(
        "SELECT id, name, created, length(weights) FROM models ORDER BY id", "reading models");
    std::vector<ModelSummary> rows;
    while (query.step())
        rows.push_back({query.int64(0), query.text(1), query.text(2),
                        static_cast<std::uint64_t>(query.int64(3))});
    return rows;
}

std::int64_t FeatureDatabase::writeModel(const CpiModel& model) {
    model.check("model " + model.name);
    nlohmann::json metrics = model.metrics;
    if (!model.linear.empty())
        metrics["linear_baseline"] = model.linear.toJson();
    // How to read the members' outputs; absent in models before ensembles (direct, no band).
    metrics["structure"] = {{"output", CpiModel::outputName(model.output)},
                            {"members", model.members.size()},
                            {"band", model.band.toJson()}};
    if (!model.ood.empty())
        metrics["structure"]["ood"] = model.ood.toJson();
    if (model.bottleneckFloor)
        metrics["structure"]["floor"] = "bottleneck";
    if (model.loadQueueThroughCommit)
        metrics["structure"]["load_queue_model"] = "through_commit";
    const auto weights = Mlp::ensembleToBlob(model.members);
    SqliteTransaction transaction(*connection_);
    auto remove = connection_->prepare("DELETE FROM models WHERE name = ?1", "replacing a model");
    remove.bind(1, model.name).run();
    auto insert = connection_->prepare(
        "INSERT INTO models (name, created, layout_json, weights, normalisation_json, "
        "metrics_json) VALUES (?1, datetime('now'), ?2, ?3, ?4, ?5)",
        "writing a model");
    insert.bind(1, model.name)
        .bind(2, model.layout.toJson().dump())
        .bindBlob(3, std::span<const std::uint8_t>(weights.data(), weights.size()))
        .bind(4, model.normalizer.toJson().dump())
        .bind(5, metrics.dump())
        .run();
    const std::int64_t id = connection_->lastInsertRowId();
    transaction.commit();
    return id;
}

std::optional<CpiModel> FeatureDatabase::readModel(const std::string& name) {
    auto query = connection_->prepare(
        name.empty() ? "SELECT name, layout_json, weights, normalisation_json, metrics_json FROM "
                       "models ORDER BY id DESC LIMIT 1"
                     : "SELECT name, layout_json, weights, normalisation_json, metrics_json FROM "
                       "models WHERE name = ?1",
        "reading a model");
    if (!name.empty())
        query.bind(1, name);
    if (!query.step())
        return std::nullopt;
    CpiModel model;
    model.name = query.text(0);
    const std::string what = path_.string() + ": model '" + model.name + "'";
    try {
        model.layout = FeatureLayout::fromJson(nlohmann::json::parse(query.text(1)), what);
        const auto blob = query.blob(2);
        model.members = Mlp::ensembleFromBlob(std::vector<unsigned char>(blob.begin(), blob.end()));
        model.normalizer = FeatureNormalizer::fromJson(nlohmann::json::parse(query.text(3)));
        model.metrics = nlohmann::json::parse(query.text(4));
        if (!model.metrics.is_object())
            throw badInput(what + ": the metrics are not a JSON object");
        if (model.metrics.contains("linear_baseline")) {
            model.linear = LinearBaseline::fromJson(model.metrics["linear_baseline"]);
            model.metrics.erase("linear_baseline");
        }
        if (model.metrics.contains("structure")) {
            const JsonFields structure(model.metrics["structure"], what + ": structure");
            model.output = CpiModel::parseOutput(structure.string("output"), what);
            model.band = BandCalibration::fromJson(structure.value("band"), what);
            if (structure.count("members") != model.members.size())
                throw badInput(
                    what + ": the structure names " + std::to_string(structure.count("members")) +
                    " members, the weights hold " + std::to_string(model.members.size()));
            // A field of two named values: whether it holds `on` (absent: off).
            const auto choice = [&](const std::string& key, const std::string& on,
                                    const std::string& off) {
                if (!structure.has(key))
                    return false;
                const std::string value = structure.string(key);
                if (value != on && value != off)
                    throw badInput(what + ": unknown " + key + " '" + value + "' (known: " + on +
                                   ", " + off + ")");
                return value == on;
            };
            model.bottleneckFloor = choice("floor", "bottleneck", "none");
            model.loadQueueThroughCommit =
                choice("load_queue_model", "through_commit", "loads_only");
            if (structure.has("ood"))
                model.ood = OutOfDistributionScore::fromJson(structure.value("ood"),
                                                             model.layout.width(), what);
            model.metrics.erase("structure");
        }
    } catch (const nlohmann::json::exception& e) {
        throw badInput(what + ": malformed JSON: " + e.what());
    } catch (const ConcordeError& e) {
        const std::string message = e.what();
        throw badInput(message.starts_with(what) ? message : what + ": " + message);
    }
    model.check(what);
    return model;
}

std::map<std::int64_t, FeatureDatabase::RegionStorage> FeatureDatabase::regionStorage() {
    std::map<std::int64_t, RegionStorage> result;
    {
        auto q = connection_->prepare(
            "SELECT region_id, sum(length(data)), count(*) FROM series GROUP BY region_id",
            "measuring the series of each region");
        while (q.step()) {
            RegionStorage& storage = result[q.int64(0)];
            storage.seriesBytes = static_cast<std::uint64_t>(q.int64(1));
            storage.seriesGroups = static_cast<std::uint64_t>(q.int64(2));
        }
    }
    {
        auto q = connection_->prepare(
            "SELECT region_id, sum(length(data)) FROM region_records GROUP BY region_id",
            "measuring the records of each region");
        while (q.step())
            result[q.int64(0)].recordBytes = static_cast<std::uint64_t>(q.int64(1));
    }
    auto q = connection_->prepare("SELECT region_id, count(*) FROM labels GROUP BY region_id",
                                  "counting the labels of each region");
    while (q.step())
        result[q.int64(0)].labels = static_cast<std::uint64_t>(q.int64(1));
    return result;
}

std::vector<std::pair<std::string, std::uint64_t>> FeatureDatabase::labelCountsBySource() {
    std::vector<std::pair<std::string, std::uint64_t>> result;
    auto q = connection_->prepare(
        "SELECT source, count(*) FROM labels GROUP BY source ORDER BY source", "counting labels");
    while (q.step())
        result.emplace_back(q.text(0), static_cast<std::uint64_t>(q.int64(1)));
    return result;
}

std::vector<std::pair<std::string, std::uint64_t>> FeatureDatabase::storageByTable(bool* exact) {
    std::vector<std::pair<std::string, std::uint64_t>> sizes;
    try {
        auto query = connection_->prepare(
            "SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC, 1",
            "measuring tables");
        while (query.step())
            sizes.emplace_back(query.text(0), static_cast<std::uint64_t>(query.int64(1)));
        if (exact)
            *exact = true;
        return sizes;
    } catch (const ConcordeError&) {
        // SQLite built without SQLITE_ENABLE_DBSTAT_VTAB: fall back to the file size.
    }
    auto pages = connection_->prepare("PRAGMA page_count", "counting pages");
    pages.step();
    const auto count = static_cast<std::uint64_t>(pages.int64(0));
    auto size = connection_->prepare("PRAGMA page_size", "reading the page size");
    size.step();
    sizes.emplace_back("(all)", count * static_cast<std::uint64_t>(size.int64(0)));
    if (exact)
        *exact = false;
    return sizes;
}

} // namespace concorde
