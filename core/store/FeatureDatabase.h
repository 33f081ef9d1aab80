#pragma once

#include "store/DatabaseRows.h"
#include "store/SeriesCatalog.h"
#include "store/SeriesGroupCodec.h"
#include "trace/TraceRecord.h"

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace concorde {

class SqliteConnection;
struct CpiModel;

/// The SQLite feature database (docs/design.md §10; tables in docs/database.md).
///
/// Opening read-only (the GUI, `info`, `validate-db`) checks the file before trusting it: it
/// exists, is not empty, is an SQLite file, has a meta table with this build's schema version,
/// and has every table, view and column. Blobs are checked (size, CRC) whenever they are read.
/// Every failure is a ConcordeError naming the file and the table, row or problem — never a
/// crash.
///
/// Opening for writing (build-db, label, merge-db, migrate-db) creates the file if needed and
/// migrates an older schema in one transaction. While a writer is open the database is in WAL
/// mode, so readers (a GUI, a test polling progress) are never blocked by a build; every region
/// and every batch of labels is one transaction, so a crash or SIGKILL loses at most the region
/// being computed, and the next open recovers from the WAL. Closing a writer switches the file
/// back to the rollback journal, so a finished database is one self-contained file that opens
/// read-only anywhere (WAL files need a writable directory even for readers).
class FeatureDatabase {
public:
    /// Opens an existing database for reading. See the class comment for the checks.
    static FeatureDatabase openReadOnly(const std::filesystem::path& path);
    /// Opens or creates a database for writing, migrating it to `schemaVersion` (this build's by
    /// default; an older one only to create old databases in tests). Refuses to touch a file that
    /// is not an SQLite database or is another application's database.
    static FeatureDatabase openForWriting(const std::filesystem::path& path,
                                          int schemaVersion = -1);
    /// True if the file starts with the SQLite magic "SQLite format 3\0".
    static bool isSqliteFile(const std::filesystem::path& path);
    /// Throws a bad-input error saying why `path` is not an SQLite file: missing, a directory,
    /// unreadable (with the system's reason, e.g. "Permission denied"), empty, or another kind
    /// of file. Returns if it is one.
    static void requireSqliteFile(const std::filesystem::path& path);

    FeatureDatabase(FeatureDatabase&&) noexcept;
    FeatureDatabase& operator=(FeatureDatabase&&) noexcept;
    ~FeatureDatabase();

    const std::filesystem::path& path() const { return path_; }
    int schemaVersion() const { return schemaVersion_; }
    bool readOnly() const;
    SqliteConnection& connection() { return *connection_; }
    /// Closes a writer: checkpoints the WAL and switches to the rollback journal (see above).
    void close();

    // meta
    std::optional<std::string> meta(const std::string& key);
    void setMeta(const std::string& key, const std::string& value);
    /// True once a build has recorded its window size and grid.
    bool hasBuildSettings();
    /// Throws a bad-input ConcordeError naming the meta key if the settings are missing or bad.
    BuildSettings buildSettings();
    /// Records the settings (meta, memory_configs, series_keys) on first use. On later use the
    /// grid and window size must equal the stored ones (a bad-input error says what differs).
    void initialiseBuildSettings(const BuildSettings& settings);
    /// The series the stored grid gives each region.
    const SeriesCatalog& catalog();

    // programs and regions
    std::vector<ProgramRow> programs();
    /// The program called `program.name`, inserting it if absent (with `program.id` if non-zero,
    /// to copy ids exactly when merging). An existing program with the same name must have the
    /// same command line and length, else a bad-input error (two different traces, one name).
    std::int64_t ensureProgram(const ProgramRow& program);
    /// Every regions row. A row that cannot be read (an impossible value, a basic-block vector
    /// that does not decode) is a bad-input error naming it.
    std::vector<RegionRow> regions();
    /// A regions row that could not be read: the integers that locate it, as stored, and why.
    struct DamagedRegionRow {
        std::int64_t id = 0;
        std::int64_t programId = 0;
        std::int64_t regionIndex = 0;
        bool complete = false;
        std::string problem; ///< the bad-input message regions() would throw
    };
    /// The rows that read; each damaged row goes to `damaged` instead of stopping the read, so
    /// one bad row does not make the whole database unreadable.
    std::vector<RegionRow> regions(std::vector<DamagedRegionRow>& damaged);
    std::optional<RegionRow> region(std::int64_t id);
    /// The region (program_id, region_index), inserting it (incomplete, with its phase if set)
    /// if absent; an existing one must have the same position and lengths.
    std::int64_t ensureRegion(const RegionRow& region);
    /// Stores a program's phases in one transaction: each region in `phases` (region id → phase)
    /// gets its phase, every other region of the program gets NULL (no stale phases of an older
    /// clustering). A region id that is not the program's is a usage error; nothing is written.
    void setPhases(std::int64_t programId, const std::map<std::int64_t, std::int64_t>& phases);
    /// "gzip-decompress region 2 (id 3)": how errors name a region.
    std::string describeRegion(std::int64_t regionId);

    /// The region's warm state in WarmState's byte form; empty for a cold region (no
    /// functional warm-up) or one whose records are not stored yet.
    std::vector<std::uint8_t> regionWarmState(std::int64_t regionId);
    /// Replaces every stored warm state by `rewrite(bytes, what)` (e.g. the same state in the
    /// current encoding), in one transaction: a throw leaves every row as it was. Returns the
    /// number of rows rewritten.
    std::size_t
    rewriteWarmStates(const std::function<std::vector<std::uint8_t>(std::span<const std::uint8_t>,
                                                                    const std::string&)>& rewrite);
    // region data
    /// Replaces the region's series and records and marks it complete, in one transaction.
    void writeRegionData(std::int64_t regionId, const RegionData& data);
    /// The raw rows (blobs not decoded).
    std::vector<SeriesGroupBlob> seriesGroupBlobs(std::int64_t regionId);
    std::optional<RecordsBlob> recordsBlob(std::int64_t regionId);
    /// One decoded group, checked against the catalog (count, windows) and its CRC.
    SeriesMatrix readSeriesGroup(std::int64_t regionId, const std::string& name);
    /// The region's trace records, warm-up first.
    std::vector<TraceRecord> regionRecords(std::int64_t regionId);

    // labels and models
    std::set<std::string> labelKeys(std::int64_t regionId);
    /// Inserts the labels of one region in one transaction, skipping configurations already
    /// labelled. Returns how many were inserted.
    std::size_t writeLabels(std::int64_t regionId, const std::vector<LabelRow>& labels);
    /// Labels of one region, or of all regions when regionId is 0 (ordered by region, id).
    std::vector<LabelRow> labels(std::int64_t regionId = 0);
    std::vector<ModelSummary> models();
    /// Stores a CPI model in one transaction (replacing one of the same name); returns its id.
    std::int64_t writeModel(const CpiModel& model);
    /// The model called `name`, or the newest one when `name` is empty; nullopt if there is none.
    /// A malformed row is a bad-input error naming the database and the model.
    std::optional<CpiModel> readModel(const std::string& name = {});

    /// What one region occupies in the file (`concorde info`).
    struct RegionStorage {
        std::uint64_t seriesGroups = 0;
        std::uint64_t seriesBytes = 0;
        std::uint64_t recordBytes = 0;
        std::uint64_t labels = 0;
    };
    /// Region id → its storage; a region with no rows at all is absent.
    std::map<std::int64_t, RegionStorage> regionStorage();
    /// Label counts by source ("random", "preset:n1-like"), ordered by source.
    std::vector<std::pair<std::string, std::uint64_t>> labelCountsBySource();

    /// Bytes per table and index: from the dbstat virtual table when SQLite has it (exact), else
    /// only the whole file (page_count × page_size) under the name "(all)". `exact` tells which.
    std::vector<std::pair<std::string, std::uint64_t>> storageByTable(bool* exact = nullptr);

private:
    FeatureDatabase(std::filesystem::path path, std::unique_ptr<SqliteConnection> connection,
                    int schemaVersion);

    std::filesystem::path path_;
    std::unique_ptr<SqliteConnection> connection_;
    int schemaVersion_ = 0;
    std::unique_ptr<SeriesCatalog> catalog_;
    std::unique_ptr<BuildSettings> settings_;
};

} // namespace concorde
