// The feature database (core/store): blob codecs, the series catalog against GridBounds, grids,
// schema versions and migrations, integrity checks on open, build/read round trips, labels.
#include "../support/KernelTrace.h"
#include "../support/RandomRecords.h"
#include "bounds/GridBounds.h"
#include "common/ConcordeError.h"
#include "common/Crc32.h"
#include "common/ZstdFrame.h"
#include "params/ParameterSpace.h"
#include "pipeline/DatabaseBuilder.h"
#include "pipeline/RegionLabeler.h"
#include "refsim/ReferenceSimulator.h"
#include "store/BasicBlockVectorCodec.h"
#include "store/DatabaseSchema.h"
#include "store/DatabaseValidator.h"
#include "store/FeatureDatabase.h"
#include "store/GridDescription.h"
#include "store/RecordBlobCodec.h"
#include "store/SchemaMigrations.h"
#include "store/SeriesCatalog.h"
#include "store/SeriesGroupCodec.h"
#include "store/Shard.h"
#include "store/SqliteConnection.h"
#include "store/SqliteStatement.h"
#include "store/StoredRegionSeries.h"
#include "trace/TraceReader.h"
#include "trace/synthetic/KernelCatalog.h"
#include "trace/synthetic/VectorSink.h"

#include <QTemporaryDir>
#include <QtTest>
#include <bit>
#include <cmath>
#include <fstream>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <sys/resource.h>

using namespace concorde;

namespace {

/// The message of the ConcordeError `action` throws, or empty if it throws none.
QString errorOf(const std::function<void()>& action, ErrorKind* kind = nullptr) {
    try {
        action();
    } catch (const ConcordeError& e) {
        if (kind)
            *kind = e.kind();
        return QString::fromStdString(e.what());
    }
    return {};
}

/// Smooth positive series resembling bounds: a random walk around a level, with some windows at
/// the 64 cap, and series that are near-copies of each other (as neighbouring grid points are).
SeriesMatrix boundLikeSeries(std::uint32_t count, std::uint32_t windows, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> noise(-0.05f, 0.05f);
    SeriesMatrix m;
    m.count = count;
    m.windows = windows;
    m.values.resize(std::size_t(count) * windows);
    std::vector<float> base(windows);
    float level = 2.0f;
    for (auto& v : base) {
        level = std::clamp(level * (1.0f + noise(rng)), 0.1f, 8.0f);
        v = level;
    }
    for (std::uint32_t i = 0; i < count; ++i)
        for (std::uint32_t t = 0; t < windows; ++t)
            m.row(i)[t] = (t % 17 == 3) ? 64.0f : base[t] * (1.0f + 0.01f * float(i % 3));
    return m;
}

using concorde::testing::kernel;
using concorde::testing::KernelTrace;

std::filesystem::path writeKernelTrace(const QTemporaryDir& dir, const std::string& file,
                                       const std::string& name,
                                       std::map<std::string, std::string> params,
                                       std::uint64_t iterations) {
    static const synthetic::KernelCatalog catalog;
    const auto& k = catalog.require(name);
    const std::filesystem::path path = dir.filePath(QString::fromStdString(file)).toStdString();
    k.writeTrace(path, k.resolve(params), iterations);
    return path;
}

/// A grid small enough for fast tests, with two memory configurations and two values of most
/// series parameters.
BoundsGrid smallGrid() {
    return GridDescription::fromJson(
        nlohmann::json::parse(R"({"rob": [32, 128], "lq": [16, 64], "sq": [16],
            "alu_issue": [2, 4], "fp_issue": [2], "ls_issue": [2], "ls_pipes": [1, 2],
            "load_pipes": [0, 1], "fetch_width": [4], "fetch_buffers": [4],
            "icache_fills": [2, 8], "bp": ["simple", "tage"], "bp_miss_pct": [2],
            "l1d_kb": [32, 64], "l1i_kb": [64], "l2_kb": [1024], "pf_degree": [0]})"),
        false, "test grid");
}

void execSql(const std::filesystem::path& path, const std::string& sql) {
    SqliteConnection c(path, SqliteConnection::Mode::ReadWrite);
    c.exec(sql, "test");
}

} // namespace

class StoreTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    std::filesystem::path file(const char* name) const {
        return dir_.filePath(QString::fromLatin1(name)).toStdString();
    }

    /// A database with two microbench programs on the small grid (built once, copied by tests
    /// that damage it).
    std::filesystem::path builtDatabase() {
        const auto path = file("built.sqlite");
        if (std::filesystem::exists(path))
            return path;
        DatabaseBuilder::Options options;
        options.traces = {
            writeKernelTrace(dir_, "stride.ctrace", "stride-load", {{"ws_kb", "64"}}, 6),
            writeKernelTrace(dir_, "branches.ctrace", "branch-random", {}, 400)};
        options.grid = smallGrid();
        options.windowSize = 100;
        options.jobs = 2;
        FeatureDatabase db = FeatureDatabase::openForWriting(path);
        const auto summary = DatabaseBuilder::build(db, options);
        if (summary.regionsBuilt != 2)
            qFatal("expected 2 regions built");
        return path;
    }

    std::filesystem::path copyOf(const std::filesystem::path& source, const char* name) {
        const auto target = file(name);
        std::filesystem::copy_file(source, target,
                                   std::filesystem::copy_options::overwrite_existing);
        return target;
    }

private slots:
    void codecRoundTripWithinDocumentedError() {
        SeriesMatrix m = boundLikeSeries(12, 250, 1);
        m.row(0)[0] = 0.0f;                                     // zero: exact
        m.row(0)[1] = 1.0f;                                     // power of two: exact
        m.row(0)[2] = std::numeric_limits<float>::denorm_min(); // tiny
        m.row(0)[3] = 3.0e38f;                                  // huge, still quantised
        m.row(1)[5] = std::numeric_limits<float>::max();        // would round to 2^128: raw
        m.row(2)[7] = -1.5f;                                    // negative: raw
        m.row(3)[9] = std::numeric_limits<float>::infinity();   // raw
        m.row(4)[4] = std::numeric_limits<float>::quiet_NaN();  // raw
        const auto blob = SeriesGroupCodec::encode(m, {{}, {0}, {1}, {2}, {3}, {4}, {5}});
        const SeriesMatrix back = SeriesGroupCodec::decode(blob, "test", 12, 250);
        QCOMPARE(back.count, 12u);
        QCOMPARE(back.windows, 250u);
        const double bound = std::exp2(1.0 / 2048) - 1 + 1e-6; // 0.034 % + float rounding
        for (std::uint32_t i = 0; i < m.count; ++i) {
            const bool raw = i >= 1 && i <= 4;
            for (std::uint32_t t = 0; t < m.windows; ++t) {
                const float a = m.row(i)[t];
                const float b = back.row(i)[t];
                if (raw || a == 0.0f || a == 1.0f || a == 64.0f) {
                    QVERIFY2(
                        std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b),
                        qPrintable(
                            QString("series %1 window %2: %3 vs %4").arg(i).arg(t).arg(a).arg(b)));
                    continue;
                }
                QVERIFY2(std::fabs(double(b) / double(a) - 1.0) <= bound,
                         qPrintable(
                             QString("series %1 window %2: %3 vs %4").arg(i).arg(t).arg(a).arg(b)));
            }
        }
        // The documented bound is tight: the worst case is about half a step.
        QVERIFY(std::fabs(SeriesGroupCodec::roundTrip(1.000169f) - 1.000169f) > 0.0001f);
    }

    void codecEdgeShapes() {
        SeriesMatrix empty;
        QCOMPARE(SeriesGroupCodec::decode(SeriesGroupCodec::encode(empty, {}), "e").count, 0u);
        SeriesMatrix noWindows;
        noWindows.count = 3;
        const auto back = SeriesGroupCodec::decode(SeriesGroupCodec::encode(noWindows, {}), "e");
        QCOMPARE(back.count, 3u);
        QCOMPARE(back.windows, 0u);
        SeriesMatrix bad;
        bad.count = 2;
        bad.windows = 3;
        bad.values.resize(5);
        QVERIFY(!errorOf([&] { SeriesGroupCodec::encode(bad, {}); }).isEmpty());
        // A candidate that is not earlier is ignored, not trusted.
        const SeriesMatrix m = boundLikeSeries(3, 20, 2);
        const auto blob = SeriesGroupCodec::encode(m, {{0, 1, 2}, {1, 2}, {2}});
        QCOMPARE(SeriesGroupCodec::decode(blob, "e").values.size(), m.values.size());
        // Shape expectations are enforced.
        QVERIFY(errorOf([&] { SeriesGroupCodec::decode(blob, "grp", 4); }).contains("expected 4"));
        QVERIFY(
            errorOf([&] { SeriesGroupCodec::decode(blob, "grp", 3, 21); }).contains("expected 21"));
    }

    // Neighbouring grid points give near-identical series; the delta against the best earlier
    // series is what makes groups small.
    void referencesMakeNearCopiesCheap() {
        SeriesMatrix one = boundLikeSeries(1, 250, 3);
        SeriesMatrix many = boundLikeSeries(40, 250, 3);
        for (std::uint32_t i = 0; i < many.count; ++i)
            std::copy(one.row(0).begin(), one.row(0).end(), many.row(i).begin());
        std::vector<std::vector<std::uint32_t>> previous(40);
        for (std::uint32_t i = 1; i < 40; ++i)
            previous[i] = {i - 1};
        const auto single = SeriesGroupCodec::encode(one, {});
        const auto withRefs = SeriesGroupCodec::encode(many, previous);
        QVERIFY2(withRefs.size() < single.size() + 200,
                 qPrintable(QString("%1 vs %2").arg(withRefs.size()).arg(single.size())));
        // Deterministic: the same input gives the same bytes.
        QVERIFY(SeriesGroupCodec::encode(many, previous) == withRefs);
    }

    // Every single-byte change and every truncation is reported as an error, never a crash or
    // silently wrong data.
    void codecDetectsEveryCorruption() {
        const SeriesMatrix m = boundLikeSeries(4, 30, 4);
        const auto blob = SeriesGroupCodec::encode(m, {{}, {0}, {1}, {2}});
        for (std::size_t i = 0; i < blob.size(); ++i) {
            auto damaged = blob;
            damaged[i] ^= 0x20;
            ErrorKind kind = ErrorKind::Usage;
            const QString error =
                errorOf([&] { SeriesGroupCodec::decode(damaged, "grp x"); }, &kind);
            QVERIFY2(!error.isEmpty(), qPrintable(QString("byte %1 undetected").arg(i)));
            QVERIFY(error.startsWith("grp x: "));
            QCOMPARE(kind, ErrorKind::BadInput);
        }
        for (std::size_t n = 0; n < blob.size(); n += 7) {
            const std::vector<std::uint8_t> truncated(blob.begin(), blob.begin() + long(n));
            QVERIFY(!errorOf([&] { SeriesGroupCodec::decode(truncated, "t"); }).isEmpty());
        }
        auto longer = blob;
        longer.push_back(0);
        QVERIFY(errorOf([&] { SeriesGroupCodec::decode(longer, "t"); }).contains("declares"));
        auto damagedCrcOnly = blob;
        damagedCrcOnly[28] ^= 1;
        QVERIFY(errorOf([&] { SeriesGroupCodec::decode(damagedCrcOnly, "t"); }).contains("CRC"));
    }

    void recordBlobRoundTripAndCorruption() {
        const auto records = testing::makeRandomRecords(3000, 11);
        const auto blob = RecordBlobCodec::encode(records);
        QVERIFY(RecordBlobCodec::decode(blob, "r", 3000) == records);
        QVERIFY(errorOf([&] { RecordBlobCodec::decode(blob, "r", 2999); }).contains("expected"));
        for (std::size_t i = 0; i < blob.size(); i += 13) {
            auto damaged = blob;
            damaged[i] ^= 0x41;
            QVERIFY2(!errorOf([&] { RecordBlobCodec::decode(damaged, "r"); }).isEmpty(),
                     qPrintable(QString("byte %1 undetected").arg(i)));
        }
        QVERIFY(errorOf([&] { RecordBlobCodec::decode({}, "r"); }).contains("too short"));
    }

    // Issue 23: a declared size drove an allocation before it was checked. A record blob whose
    // header claims 2^32 - 1 records (CRC made valid) allocated them all (std::bad_alloc); a
    // zstd frame declaring 1 GiB allocated 1 GiB. Both are refused from the bytes present.
    void declaredSizesAreBoundedByTheBytesPresent() {
        const auto records = testing::makeRandomRecords(3000, 12);
        auto blob = RecordBlobCodec::encode(records);
        const auto resign = [](std::vector<std::uint8_t>& b) {
            const std::uint32_t crc = crc32(b.data() + 24, b.size() - 24, crc32(b.data(), 20));
            for (int i = 0; i < 4; ++i)
                b[20 + i] = static_cast<std::uint8_t>(crc >> (8 * i));
        };
        for (int i = 0; i < 4; ++i)
            blob[8 + i] = 0xFF; // record count 2^32 - 1
        resign(blob);
        const QString many = errorOf([&] { RecordBlobCodec::decode(blob, "r"); });
        QVERIFY2(many.contains("declares"), qPrintable(many));

        // One RLE block of 10 bytes in a frame whose header declares 1 GiB.
        const std::vector<std::uint8_t> frame = {0x28, 0xB5, 0x2F, 0xFD, 0xE0, 0, 0, 0,  0x40,
                                                 0,    0,    0,    0,    0x53, 0, 0, 'x'};
        const auto bound = zstd::decompressedBound(frame);
        QVERIFY(bound);
        QCOMPARE(*bound, std::uint64_t(10));
        rusage before{};
        getrusage(RUSAGE_SELF, &before);
        const QString huge = errorOf([&] { zstd::decompress(frame, std::size_t(1) << 30, "f"); });
        rusage after{};
        getrusage(RUSAGE_SELF, &after);
        QVERIFY2(huge.contains("at most 10"), qPrintable(huge));
        QVERIFY2(after.ru_maxrss - before.ru_maxrss < 64 * 1024, // kB
                 qPrintable(QString::number(after.ru_maxrss - before.ru_maxrss)));
        QVERIFY(!zstd::decompressedBound(std::span(frame).first(15))); // truncated
        const auto raw = zstd::compress(std::vector<std::uint8_t>(200'000, 7), 3);
        QVERIFY(*zstd::decompressedBound(raw) >= 200'000);
        QCOMPARE(zstd::decompress(raw, 200'000, "raw").size(), std::size_t(200'000));
    }

    void basicBlockVectorRoundTrip() {
        const BasicBlockVectorCodec::Vector bbv = {
            {0x401000, 1200}, {0x400ff0, 3}, {0x7fff00001000, 98797}, {0, 0}};
        const auto blob = BasicBlockVectorCodec::encode(bbv);
        QVERIFY(BasicBlockVectorCodec::decode(blob, "b") == bbv);
        QVERIFY(BasicBlockVectorCodec::decode(BasicBlockVectorCodec::encode({}), "b").empty());
        auto damaged = blob;
        damaged.back() ^= 1;
        QVERIFY(errorOf([&] { BasicBlockVectorCodec::decode(damaged, "b"); }).contains("CRC"));
    }

    // The catalog, derived from the grid alone, lists exactly what GridBounds computes.
    void catalogMatchesGridBounds_data() {
        QTest::addColumn<QString>("grid");
        QTest::newRow("default") << "default";
        QTest::newRow("full") << "full";
        QTest::newRow("small") << "small";
    }
    void catalogMatchesGridBounds() {
        QFETCH(QString, grid);
        const BoundsGrid g =
            grid == "small" ? smallGrid() : GridDescription::resolve(grid.toStdString());
        const KernelTrace k = kernel("stride-load", {{"ws_kb", "16"}}, 4);
        const auto result = GridBounds::build(k.records, k.warmup, g, 100);
        const SeriesCatalog catalog(g);
        catalog.requireMatches(result); // throws on any difference
        QCOMPARE(catalog.seriesCount(), result.series.size());
        if (grid == "default") {
            QCOMPARE(catalog.memoryConfigs().size(), std::size_t(54));
            // 3712 before the SQ series became per memory configuration: + 9 × 53.
            QCOMPARE(catalog.seriesCount(), std::size_t(4189));
            // A database built before that keeps one "sq" series per size, and a key for any
            // memory configuration finds it.
            const SeriesCatalog untimed(g, false);
            QCOMPARE(untimed.seriesCount(), std::size_t(3712));
            untimed.requireMatches(GridBounds::build(k.records, k.warmup, g, 100, {}, {},
                                                     AnalysisRevision{.timedStores = false}));
            QVERIFY(!untimed.find("sq")->series.front().memoryDependent);
            QVERIFY(catalog.find("sq")->series.front().memoryDependent);
            const auto index = StoredRegionSeries::indexFor(untimed);
            const std::vector<std::pair<ParamId, double>> sq32{{ParamId::StoreQueue, 32}};
            const auto plain = index->find(SeriesKey{"sq", false, {}, sq32}.text());
            QVERIFY(plain != index->end());
            for (const MemoryConfig& memory : untimed.memoryConfigs()) {
                const auto aliased = index->find(SeriesKey{"sq", true, memory, sq32}.text());
                QVERIFY(aliased != index->end() && aliased->second == plain->second);
            }
            // And a model from before on a new database reads the largest memory configuration's.
            const auto timed = StoredRegionSeries::indexFor(catalog);
            const auto old = timed->find(SeriesKey{"sq", false, {}, sq32}.text());
            const auto largest =
                timed->find(SeriesKey{"sq", true, MemoryConfig{128, 128, 2048, 2}, sq32}.text());
            QVERIFY(old != timed->end() && largest != timed->end());
            QCOMPARE(old->second, largest->second);
            QCOMPARE(catalog.groups().size(), std::size_t(27));
        }
        // Each memory-dependent key carries its 1-based memory configuration id.
        for (const auto& group : catalog.groups())
            for (const auto& key : group.series)
                if (key.memoryDependent)
                    QVERIFY(catalog.memoryConfigs().at(key.memoryConfigId - 1) == key.memory);
                else
                    QCOMPARE(key.memoryConfigId, 0u);
        // A result from another grid does not match.
        const auto other = GridBounds::build(k.records, k.warmup, defaultBoundsGrid(), 100);
        if (grid != "default")
            QVERIFY(errorOf([&] { catalog.requireMatches(other); }).contains("internal error"));
    }

    void settingsTextIsCanonical() {
        QCOMPARE(SeriesCatalog::settingsText({{ParamId::Rob, 128}}), std::string("rob=128"));
        QCOMPARE(SeriesCatalog::settingsText({{ParamId::LsPipes, 2}, {ParamId::LoadPipes, 1}}),
                 std::string("ls_pipes=2,load_pipes=1"));
        QCOMPARE(SeriesCatalog::settingsText({{ParamId::BranchPredictor, 1}}),
                 std::string("bp=tage"));
        QCOMPARE(SeriesCatalog::settingsText({}), std::string());
    }

    void gridDescriptions() {
        const BoundsGrid def = GridDescription::resolve("default");
        QVERIFY(def == defaultBoundsGrid());
        // JSON round trip through the canonical text.
        const BoundsGrid back = GridDescription::fromJson(
            nlohmann::json::parse(GridDescription::canonicalText(def)), true, "x");
        QVERIFY(back == def);
        QVERIFY(GridDescription::toJson(def)["bp"][1] == "tage");
        const BoundsGrid full = GridDescription::full();
        QCOMPARE(full[index(ParamId::FetchWidth)].size(), std::size_t(16));
        QCOMPARE(full[index(ParamId::LoadPipes)].front(), 0.0);
        QCOMPARE(full[index(ParamId::BpMissPct)].size(), std::size_t(21));
        QVERIFY(full[index(ParamId::Rob)] == def[index(ParamId::Rob)]);
        QVERIFY(full[index(ParamId::L1dKb)] == def[index(ParamId::L1dKb)]);
        // Errors name the parameter.
        const auto parse = [](const char* text) {
            return errorOf([&] {
                GridDescription::fromJson(nlohmann::json::parse(text), false, "grid file g.json");
            });
        };
        QVERIFY(parse(R"({"robb": [1]})").contains("unknown parameter 'robb'"));
        QVERIFY(parse(R"({"rob": [128, 64]})").contains("'rob'"));
        QVERIFY(parse(R"({"rob": [2]})").contains("'rob'"));
        QVERIFY(parse(R"({"rob": []})").contains("empty"));
        QVERIFY(parse(R"({"bp": ["perfect"]})").contains("'bp'"));
        QVERIFY(parse(R"([1, 2])").contains("grid file g.json"));
        QVERIFY(errorOf([] {
                    GridDescription::resolve("/no/such/grid.json");
                }).contains("cannot read grid file"));
        // Missing parameters keep their default grid, unless all are required.
        const BoundsGrid partial =
            GridDescription::fromJson(nlohmann::json::parse(R"({"rob": [64]})"), false, "p");
        QVERIFY(partial[index(ParamId::LoadQueue)] == def[index(ParamId::LoadQueue)]);
        QVERIFY(!errorOf([] {
                     GridDescription::fromJson(nlohmann::json::parse(R"({"rob": [64]})"), true,
                                               "p");
                 }).isEmpty());
    }

    void shards() {
        const Shard s = Shard::parse("3/16");
        QCOMPARE(s.index(), 3u);
        QCOMPARE(s.count(), 16u);
        QVERIFY(s.contains(19) && !s.contains(20));
        QVERIFY(Shard().all() && Shard().contains(12345));
        for (const char* bad : {"16/16", "1", "a/b", "1/0", "-1/4", "2/4x", "/4"})
            QVERIFY2(!errorOf([&] { Shard::parse(bad); }).isEmpty(), bad);
    }

    // Step 1 creates version 1 (no regions.phase), step 2 adds the column: a real migration.
    void migrationFromVersionOne() {
        const auto path = file("v1.sqlite");
        {
            FeatureDatabase v1 = FeatureDatabase::openForWriting(path, 1);
            QCOMPARE(v1.schemaVersion(), 1);
            ProgramRow p;
            p.name = "old";
            p.commandLine = "old --run";
            p.sourceTrace = "/x/old.ctrace";
            p.instructionsTraced = 5;
            QCOMPARE(v1.ensureProgram(p), std::int64_t(1));
        }
        {
            SqliteConnection c(path, SqliteConnection::Mode::ReadOnly);
            auto q =
                c.prepare("SELECT count(*) FROM pragma_table_info('regions') WHERE name = 'phase'");
            q.step();
            QCOMPARE(q.int64(0), std::int64_t(0));
            QVERIFY(!DatabaseSchema::problems(c).empty());
        }
        const QString error = errorOf([&] { FeatureDatabase::openReadOnly(path); });
        QVERIFY2(error.contains("schema version 1") && error.contains("concorde migrate-db"),
                 qPrintable(error));
        {
            FeatureDatabase db = FeatureDatabase::openForWriting(path);
            QCOMPARE(db.schemaVersion(), SchemaMigrations::kCurrentVersion);
        }
        FeatureDatabase db = FeatureDatabase::openReadOnly(path);
        QCOMPARE(db.schemaVersion(), SchemaMigrations::kCurrentVersion);
        QCOMPARE(db.programs().size(), std::size_t(1));
        QCOMPARE(db.programs().front().commandLine, std::string("old --run"));
        QVERIFY(DatabaseSchema::problems(db.connection()).empty());
    }

    void newerVersionIsRefused() {
        const auto path = copyOf(builtDatabase(), "newer.sqlite");
        execSql(path, "UPDATE meta SET value = '99' WHERE key = 'schema_version'");
        const QString read = errorOf([&] { FeatureDatabase::openReadOnly(path); });
        QVERIFY2(read.contains("schema version 99") && read.contains("newer"), qPrintable(read));
        const QString write = errorOf([&] { FeatureDatabase::openForWriting(path); });
        QVERIFY2(write.contains("newer"), qPrintable(write));
        execSql(path, "UPDATE meta SET value = 'two' WHERE key = 'schema_version'");
        QVERIFY(errorOf([&] { FeatureDatabase::openReadOnly(path); }).contains("'two'"));
        execSql(path, "DELETE FROM meta WHERE key = 'schema_version'");
        QVERIFY(
            errorOf([&] { FeatureDatabase::openReadOnly(path); }).contains("no schema_version"));
    }

    void missingTablesAndColumnsAreNamed() {
        const auto dropped = copyOf(builtDatabase(), "dropped.sqlite");
        execSql(dropped, "DROP TABLE labels");
        QString error = errorOf([&] { FeatureDatabase::openReadOnly(dropped); });
        QVERIFY2(error.contains("table labels is missing"), qPrintable(error));
        const auto column = copyOf(builtDatabase(), "column.sqlite");
        execSql(column, "ALTER TABLE regions DROP COLUMN phase");
        error = errorOf([&] { FeatureDatabase::openReadOnly(column); });
        QVERIFY2(error.contains("table regions has no column phase"), qPrintable(error));
        const auto view = copyOf(builtDatabase(), "view.sqlite");
        execSql(view, "DROP VIEW series_catalog");
        QVERIFY(errorOf([&] {
                    FeatureDatabase::openReadOnly(view);
                }).contains("view series_catalog is missing"));
        const auto report = DatabaseValidator::validate(dropped);
        QVERIFY(!report.clean());
        QVERIFY(QString::fromStdString(report.problems.front()).contains("labels"));
    }

    void filesThatAreNotDatabases() {
        const auto missing = file("missing.sqlite");
        QVERIFY(errorOf([&] {
                    FeatureDatabase::openReadOnly(missing);
                }).contains("no such database file"));
        const auto empty = file("empty.sqlite");
        std::ofstream(empty).close();
        QVERIFY(errorOf([&] { FeatureDatabase::openReadOnly(empty); }).contains("is empty"));
        const auto text = file("text.sqlite");
        std::ofstream(text) << "this is not a database, just some text that is long enough";
        ErrorKind kind = ErrorKind::Runtime;
        QVERIFY(errorOf([&] { FeatureDatabase::openReadOnly(text); }, &kind)
                    .contains("not an SQLite database"));
        QCOMPARE(kind, ErrorKind::BadInput);
        QVERIFY(errorOf([&] {
                    FeatureDatabase::openForWriting(text);
                }).contains("refusing to overwrite"));
        QVERIFY(errorOf([&] { DatabaseValidator::validate(text); }).contains("not an SQLite"));
        // An SQLite file of another application: neither read nor modified.
        const auto foreign = file("foreign.sqlite");
        execSql(foreign, "CREATE TABLE contacts (name TEXT)");
        QVERIFY(errorOf([&] {
                    FeatureDatabase::openReadOnly(foreign);
                }).contains("not a Concorde feature database"));
        QVERIFY(errorOf([&] {
                    FeatureDatabase::openForWriting(foreign);
                }).contains("not a Concorde feature database"));
        // The SQLite header followed by garbage: SQLite's own "not a database" error, as bad input.
        const auto garbage = file("garbage.sqlite");
        {
            std::ofstream out(garbage, std::ios::binary);
            out.write("SQLite format 3", 16);
            out << std::string(5000, '\x7f');
        }
        kind = ErrorKind::Runtime;
        const QString error = errorOf([&] { FeatureDatabase::openReadOnly(garbage); }, &kind);
        QVERIFY2(!error.isEmpty() && error.contains("garbage.sqlite"), qPrintable(error));
        QCOMPARE(kind, ErrorKind::BadInput);
    }

    // What build stores reads back: series within the quantisation error of GridBounds, records
    // exactly, and the database validates clean.
    void buildAndReadBack() {
        const auto path = builtDatabase();
        FeatureDatabase db = FeatureDatabase::openReadOnly(path);
        QCOMPARE(db.programs().size(), std::size_t(2));
        QCOMPARE(db.programs()[0].name, std::string("stride"));
        const auto regions = db.regions();
        QCOMPARE(regions.size(), std::size_t(2));
        QVERIFY(regions[0].complete && regions[1].complete);
        QCOMPARE(db.buildSettings().windowSize, 100u);

        TraceReader reader(db.programs()[0].sourceTrace);
        std::vector<TraceRecord> records;
        reader.readRegion(0, records);
        QVERIFY(db.regionRecords(regions[0].id) == records);
        const auto result =
            GridBounds::build(records, reader.info().regions[0].warmup, smallGrid(), 100);
        const SeriesCatalog& catalog = db.catalog();
        std::size_t k = 0;
        for (const auto& group : catalog.groups()) {
            const SeriesMatrix stored = db.readSeriesGroup(regions[0].id, group.name);
            for (std::size_t i = 0; i < group.series.size(); ++i, ++k)
                for (std::size_t t = 0; t < stored.windows; ++t) {
                    const double a = result.series[k].values[t];
                    const double b = stored.row(i)[t];
                    QVERIFY2(a == b || std::fabs(b / a - 1) < 0.00035,
                             qPrintable(QString::fromStdString(group.name) +
                                        QString(" %1 %2: %3 vs %4").arg(i).arg(t).arg(a).arg(b)));
                }
        }
        QCOMPARE(k, result.series.size());
        const auto report = DatabaseValidator::validate(path);
        QVERIFY2(report.clean(), report.problems.empty() ? "" : report.problems.front().c_str());
        QCOMPARE(report.completeRegions, std::size_t(2));
        QCOMPARE(report.series, 2 * catalog.seriesCount());
        QVERIFY(errorOf([&] {
                    db.readSeriesGroup(regions[0].id, "no_such");
                }).contains("no series called"));
    }

    // rewriteWarmStates (what migrate-db uses to store warm states in the current encoding)
    // rewrites every stored state in one transaction: a failure on one row leaves all as they
    // were.
    void warmStatesAreRewrittenAtomically() {
        const auto path = copyOf(builtDatabase(), "warm.sqlite");
        execSql(path, "UPDATE region_records SET warm_state = X'0102' WHERE region_id = 1;"
                      "UPDATE region_records SET warm_state = X'030405' WHERE region_id = 2;");
        const auto reversed = [](std::span<const std::uint8_t> bytes, const std::string&) {
            return std::vector<std::uint8_t>(bytes.rbegin(), bytes.rend());
        };
        {
            FeatureDatabase db = FeatureDatabase::openForWriting(path);
            QCOMPARE(db.rewriteWarmStates(reversed), std::size_t(2));
            QVERIFY(db.regionWarmState(1) == std::vector<std::uint8_t>({2, 1}));
            QVERIFY(db.regionWarmState(2) == std::vector<std::uint8_t>({5, 4, 3}));
            const auto failOnSecond = [](std::span<const std::uint8_t> bytes,
                                         const std::string& what) {
                if (bytes.size() == 3)
                    throw badInput(what + ": damaged");
                return std::vector<std::uint8_t>{9};
            };
            const QString error = errorOf([&] { db.rewriteWarmStates(failOnSecond); });
            QVERIFY2(error.contains("warm state") && error.contains("damaged"), qPrintable(error));
            QVERIFY(db.regionWarmState(1) == std::vector<std::uint8_t>({2, 1}));
            QVERIFY(db.regionWarmState(2) == std::vector<std::uint8_t>({5, 4, 3}));
        }
    }

    // Issue 23: build-db and label stored a region with nothing measured and labels of CPI 0,
    // which evaluate turned into "inf %". Both are refused when written and when read.
    void nothingMeasuredIsRefusedWrittenAndRead() {
        const auto path = copyOf(builtDatabase(), "zero.sqlite");
        {
            FeatureDatabase db = FeatureDatabase::openForWriting(path);
            const RegionRow first = db.regions().front();
            RegionRow empty = first;
            empty.regionIndex = 99;
            empty.length = 0;
            QVERIFY(errorOf([&] { db.ensureRegion(empty); }).contains("no measured instructions"));
            LabelRow label;
            label.configJson = CoreConfig{}.toJson().dump();
            label.configKey = CoreConfig{}.toAssignments();
            label.source = "test";
            label.instructions = 1000;
            label.cycles = 0;
            label.cpi = 0;
            QVERIFY(errorOf([&] { db.writeLabels(first.id, {label}); }).contains("CPI 0"));
            label.cpi = std::numeric_limits<double>::quiet_NaN();
            QVERIFY(errorOf([&] { db.writeLabels(first.id, {label}); }).contains("CPI"));
            QVERIFY(db.labels().empty());
        }
        {
            SqliteConnection c(path, SqliteConnection::Mode::ReadWrite);
            c.exec("UPDATE regions SET length = 0 WHERE id = (SELECT min(id) FROM regions)",
                   "damaging");
        }
        FeatureDatabase db = FeatureDatabase::openReadOnly(path);
        QVERIFY(errorOf([&] { db.regions(); }).contains("no measured instructions"));
    }

    // Building again skips complete regions; a different grid or window is refused.
    void rebuildSkipsAndChecksSettings() {
        const auto path = copyOf(builtDatabase(), "again.sqlite");
        FeatureDatabase db = FeatureDatabase::openForWriting(path);
        DatabaseBuilder::Options options;
        options.traces = {file("stride.ctrace"), file("branches.ctrace")};
        options.grid = smallGrid();
        options.windowSize = 100;
        const auto summary = DatabaseBuilder::build(db, options);
        QCOMPARE(summary.regionsBuilt, std::size_t(0));
        QCOMPARE(summary.alreadyComplete, std::size_t(2));
        options.windowSize = 200;
        QVERIFY(errorOf([&] { DatabaseBuilder::build(db, options); }).contains("windows of 100"));
        options.windowSize = 100;
        options.grid = defaultBoundsGrid();
        QVERIFY(errorOf([&] { DatabaseBuilder::build(db, options); }).contains("another grid"));
        options.grid = smallGrid();
        options.traces = {file("stride.ctrace"), file("stride.ctrace")};
        QVERIFY(errorOf([&] { DatabaseBuilder::build(db, options); }).contains("given twice"));
    }

    void corruptBlobIsNamed() {
        const auto path = copyOf(builtDatabase(), "corrupt.sqlite");
        {
            SqliteConnection c(path, SqliteConnection::Mode::ReadWrite);
            auto q = c.prepare("SELECT data FROM series WHERE region_id = 2 AND name = 'lq'");
            QVERIFY(q.step());
            auto blob = q.blob(0);
            blob[blob.size() / 2] ^= 0xff;
            auto u = c.prepare("UPDATE series SET data = ?1 WHERE region_id = 2 AND name = 'lq'");
            u.bindBlob(1, blob);
            u.run();
        }
        FeatureDatabase db = FeatureDatabase::openReadOnly(path);
        const QString error = errorOf([&] { db.readSeriesGroup(2, "lq"); });
        QVERIFY2(error.contains("branches region 0 (id 2)") && error.contains("series group lq") &&
                     error.contains("CRC"),
                 qPrintable(error));
        db.readSeriesGroup(2, "rob"); // the other groups are fine
        const auto report = DatabaseValidator::validate(path);
        QCOMPARE(report.problems.size(), std::size_t(1));
        QVERIFY(QString::fromStdString(report.problems.front()).contains("series group lq"));
    }

    void randomConfigsAreDeterministicAndOnTheGrid() {
        const BoundsGrid grid = smallGrid();
        const CoreConfig a = RegionLabeler::randomConfig(grid, 7, "gzip", 3, 0);
        QVERIFY(a == RegionLabeler::randomConfig(grid, 7, "gzip", 3, 0));
        const auto configs = RegionLabeler::randomConfigs(grid, 7, "gzip", 3, 20);
        QCOMPARE(configs.size(), std::size_t(20));
        QVERIFY(configs.front() == a);
        std::set<std::string> keys;
        for (const CoreConfig& c : configs) {
            keys.insert(c.toAssignments());
            for (const auto& spec : ParameterSpace::all()) {
                const auto& values = grid[index(spec.id)];
                QVERIFY(std::find(values.begin(), values.end(), c.value(spec.id)) != values.end());
            }
        }
        QCOMPARE(keys.size(), std::size_t(20));
        // A larger count extends the same sequence.
        const auto more = RegionLabeler::randomConfigs(grid, 7, "gzip", 3, 25);
        QVERIFY(std::equal(configs.begin(), configs.end(), more.begin()));
        // Other seeds, programs and regions give other draws.
        QVERIFY(RegionLabeler::randomConfigs(grid, 8, "gzip", 3, 20) != configs);
        QVERIFY(RegionLabeler::randomConfigs(grid, 7, "xz", 3, 20) != configs);
        QVERIFY(RegionLabeler::randomConfigs(grid, 7, "gzip", 4, 20) != configs);
        // Every parameter takes every grid value eventually (uniform draws).
        const auto many = RegionLabeler::randomConfigs(defaultBoundsGrid(), 1, "p", 0, 400);
        std::set<double> robs;
        for (const auto& c : many)
            robs.insert(c.value(ParamId::Rob));
        QCOMPARE(robs.size(), defaultBoundsGrid()[index(ParamId::Rob)].size());
    }

    // Labels store what the reference simulator says for the stored records.
    void labelsMatchTheSimulator() {
        const auto path = copyOf(builtDatabase(), "labels.sqlite");
        FeatureDatabase db = FeatureDatabase::openForWriting(path);
        RegionLabeler::Options options;
        options.randomConfigs = 3;
        options.seed = 5;
        options.jobs = 2;
        const auto summary = RegionLabeler::label(db, options);
        QCOMPARE(summary.labelsWritten, std::size_t(6));
        const auto again = RegionLabeler::label(db, options);
        QCOMPARE(again.labelsWritten, std::size_t(0));
        QCOMPARE(again.labelsExisting, std::size_t(6));
        const auto region = db.regions().at(1);
        const auto records = db.regionRecords(region.id);
        for (const LabelRow& label : db.labels(region.id)) {
            const CoreConfig config =
                CoreConfig::fromJson(nlohmann::json::parse(label.configJson), true, "label");
            QCOMPARE(config.toAssignments(), label.configKey);
            const auto result = ReferenceSimulator::simulate(records, region.warmup, config, 100);
            QCOMPARE(label.cycles, result.cycles);
            QCOMPARE(label.cpi, result.cpi());
            const auto ipc = SeriesGroupCodec::decode(label.windowIpc, "ipc", 1);
            QCOMPARE(ipc.windows, std::uint32_t(result.windowIpc.size()));
            QCOMPARE(label.source, std::string("random"));
        }
        db.close();
        QVERIFY(DatabaseValidator::validate(path).clean());
    }
};

QTEST_GUILESS_MAIN(StoreTest)
#include "StoreTest.moc"
