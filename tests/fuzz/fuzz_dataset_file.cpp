// libFuzzer harness: what DatasetFile parses from a dataset file's rows and metadata. The SQLite
// container itself is not fuzzed: each input is split (FuzzedDataProvider) into the meta values
// (version, seed, hold_out, layout) and up to eight sample rows (program, split, config_json,
// features blob, region index, CPIs, instructions); the harness writes them into a fresh dataset
// file made by DatasetFile::openForWriting, then opens and reads it as training and resume do.
// tests/fuzz/make-corpus.sh writes seeds in this form from a real dataset file.

#include "FuzzSupport.h"
#include "store/DatasetFile.h"

#include <fuzzer/FuzzedDataProvider.h>
#include <sqlite3.h>

using namespace concorde;

namespace {

struct Row {
    std::string program, split, config, features;
    std::int64_t regionIndex = 0, instructions = 0;
    double cpi = 0, minBoundCpi = 0;
};

void check(int rc, sqlite3* db) {
    if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
        std::fprintf(stderr, "harness: sqlite: %s\n", sqlite3_errmsg(db));
        std::abort();
    }
}

/// Replaces the meta values and inserts the rows, as raw SQL (bypassing DatasetFile's writer).
void writeRows(const std::filesystem::path& path, const std::string meta[4],
               const std::vector<Row>& rows) {
    sqlite3* db = nullptr;
    check(sqlite3_open(path.c_str(), &db), db);
    const char* keys[4] = {"version", "seed", "hold_out", "layout"};
    sqlite3_stmt* update = nullptr;
    check(sqlite3_prepare_v2(db, "UPDATE meta SET value = ?2 WHERE key = ?1", -1, &update, nullptr),
          db);
    for (int i = 0; i < 4; ++i) {
        sqlite3_bind_text(update, 1, keys[i], -1, SQLITE_STATIC);
        sqlite3_bind_text(update, 2, meta[i].data(), static_cast<int>(meta[i].size()),
                          SQLITE_STATIC);
        check(sqlite3_step(update), db);
        sqlite3_reset(update);
    }
    sqlite3_finalize(update);
    sqlite3_stmt* insert = nullptr;
    check(sqlite3_prepare_v2(db,
                             "INSERT OR REPLACE INTO samples (id, program, region_index, split, "
                             "config_json, cpi, min_bound_cpi, instructions, features) VALUES "
                             "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                             -1, &insert, nullptr),
          db);
    std::int64_t id = 0;
    for (const Row& row : rows) {
        sqlite3_bind_int64(insert, 1, id++);
        sqlite3_bind_text(insert, 2, row.program.data(), static_cast<int>(row.program.size()),
                          SQLITE_STATIC);
        sqlite3_bind_int64(insert, 3, row.regionIndex);
        sqlite3_bind_text(insert, 4, row.split.data(), static_cast<int>(row.split.size()),
                          SQLITE_STATIC);
        sqlite3_bind_text(insert, 5, row.config.data(), static_cast<int>(row.config.size()),
                          SQLITE_STATIC);
        sqlite3_bind_double(insert, 6, row.cpi);
        sqlite3_bind_double(insert, 7, row.minBoundCpi);
        sqlite3_bind_int64(insert, 8, row.instructions);
        sqlite3_bind_blob(insert, 9, row.features.data(), static_cast<int>(row.features.size()),
                          SQLITE_STATIC);
        check(sqlite3_step(insert), db);
        sqlite3_reset(insert);
    }
    sqlite3_finalize(insert);
    sqlite3_close(db);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    FuzzedDataProvider input(data, size);
    std::string meta[4];
    for (std::string& value : meta)
        value = input.ConsumeRandomLengthString(64 * 1024);
    std::vector<Row> rows;
    while (rows.size() < 8 && input.remaining_bytes() > 0) {
        Row row;
        row.program = input.ConsumeRandomLengthString(256);
        row.split = input.ConsumeRandomLengthString(64);
        row.config = input.ConsumeRandomLengthString(16 * 1024);
        row.features = input.ConsumeRandomLengthString(256 * 1024);
        row.regionIndex = input.ConsumeIntegral<std::int64_t>();
        row.instructions = input.ConsumeIntegral<std::int64_t>();
        row.cpi = input.ConsumeFloatingPoint<double>();
        row.minBoundCpi = input.ConsumeFloatingPoint<double>();
        rows.push_back(std::move(row));
    }

    const std::filesystem::path path = fuzz::scratchPath("dataset.sqlite");
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
        std::error_code ignored;
        std::filesystem::remove(path.string() + suffix, ignored);
    }
    DatasetSettings settings;
    settings.layoutJson = "{}";
    (void)DatasetFile::openForWriting(path, settings); // the tables, as the writer makes them
    writeRows(path, meta, rows);

    fuzz::expectOnlyConcordeErrors([&] { (void)DatasetFile::isDataset(path); });
    fuzz::expectOnlyConcordeErrors([&] { (void)DatasetFile::storedLabels(path); });
    fuzz::expectOnlyConcordeErrors([&] {
        DatasetFile file = DatasetFile::openReadOnly(path);
        const std::vector<DatasetSample> samples = file.samples();
        const std::size_t width = file.layout().width();
        for (const DatasetSample& sample : samples)
            fuzz::require(sample.features.size() == width, "a sample of another width was read");
        (void)file.samples({"train"});
        (void)file.sampleIds();
    });
    return 0;
}
