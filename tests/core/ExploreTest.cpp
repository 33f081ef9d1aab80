// core/explore: what the explorer's CDF, timeseries, phase and Shapley views are computed from —
// per-window resource bounds with the binding resource and CDFs (RegionBoundsSeries), the
// de-duplicated in-memory series of every region (CompactRegionSeries, DatabaseBounds), the
// reference simulator's per-window IPC (ReferenceIpc, and ReferenceIpcCache in memory), program
// timelines and background Shapley jobs.
#include "params/CoreConfig.h"
#include "params/ParameterSpace.h"
// (TinyExplorerDatabase.h needs the parameter headers first.)
#include "../support/ErrorCapture.h"
#include "../support/TinyExplorerDatabase.h"
#include "attribution/ShapleyAttributor.h"
#include "explore/BoundResources.h"
#include "explore/CompactRegionSeries.h"
#include "explore/DatabaseBounds.h"
#include "explore/ProgramTimeline.h"
#include "explore/ReferenceIpc.h"
#include "explore/ReferenceIpcCache.h"
#include "explore/RegionBoundsSeries.h"
#include "explore/ShapleyJob.h"
#include "features/Cdf.h"
#include "features/FeatureAssembler.h"
#include "explore/DatabasePredictor.h"
#include "store/FeatureDatabase.h"
#include "pipeline/RegionLabeler.h"
#include "explore/RegionValueFunction.h"
#include "store/SeriesGroupCodec.h"
#include "store/SqliteConnection.h"
#include "store/StoredRegionSeries.h"

#include <QTemporaryDir>
#include <QtTest>
#include <chrono>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

using namespace concorde;
using concorde::testing::errorOf;

namespace {

/// A SeriesSource from a map of key text → values.
class MapSource : public SeriesSource {
public:
    std::map<std::string, std::vector<float>> series_;
    std::span<const float> series(const SeriesKey& key) const override {
        const auto it = series_.find(key.text());
        if (it == series_.end())
            throw badInput("no series " + key.text());
        return it->second;
    }
};

/// A configuration on the tiny explorer grid: every parameter at its first grid value.
CoreConfig firstOnGrid(const BoundsGrid& grid) {
    CoreConfig config;
    for (const ParameterSpec& spec : ParameterSpace::all())
        config.set(spec.id, grid[index(spec.id)].front());
    return config;
}

CoreConfig lastOnGrid(const BoundsGrid& grid) {
    CoreConfig config;
    for (const ParameterSpec& spec : ParameterSpace::all())
        config.set(spec.id, grid[index(spec.id)].back());
    return config;
}

LabelRow label(std::int64_t id, const CoreConfig& config, std::vector<float> ipc,
               const std::string& source = "random") {
    LabelRow row;
    row.id = id;
    row.regionId = 1;
    row.configJson = config.toJson().dump();
    row.configKey = config.toAssignments();
    row.source = source;
    row.cpi = 1.5;
    SeriesMatrix m;
    m.count = 1;
    m.windows = static_cast<std::uint32_t>(ipc.size());
    m.values = std::move(ipc);
    row.windowIpc = SeriesGroupCodec::encode(m, {});
    return row;
}

bool sameSeries(const RegionBoundsSeries& a, const RegionBoundsSeries& b) {
    if (a.resourceCount() != b.resourceCount() || a.windows() != b.windows())
        return false;
    for (std::size_t r = 0; r < a.resourceCount(); ++r)
        if (!std::equal(a.bound(r).begin(), a.bound(r).end(), b.bound(r).begin()))
            return false;
    if (!std::equal(a.binding().begin(), a.binding().end(), b.binding().begin()))
        return false;
    // The distributions too: a region's CDFs come from rows sorted when the database was read,
    // a program's from merging them.
    for (std::size_t r = 0; r < a.resourceCount(); ++r)
        if (a.cdf(r).sortedValues() != Cdf::fromValues(b.bound(r)).sortedValues())
            return false;
    return a.minimumCdf().sortedValues() == Cdf::fromValues(b.minimum()).sortedValues() &&
           a.segmentStarts() == b.segmentStarts();
}

} // namespace

class ExploreTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    std::filesystem::path file(const char* name) const {
        return dir_.filePath(QString::fromLatin1(name)).toStdString();
    }

    std::filesystem::path database() {
        const auto path = file("explore.sqlite");
        if (!std::filesystem::exists(path))
            testing::buildTinyExplorerDatabase(path);
        return path;
    }

private slots:
    void resourcesFollowTheFeatureLayout() {
        QCOMPARE(BoundResources::count(), FeatureAssembler::resourceBlocks().size());
        QCOMPARE(BoundResources::blocks(), FeatureAssembler::resourceBlocks());
        QCOMPARE(BoundResources::labels().size(), BoundResources::count());
        QCOMPARE(BoundResources::seriesGroups().size(), BoundResources::count());
        const auto pipes = BoundResources::find("pipes_upper");
        QVERIFY(pipes.has_value());
        QCOMPARE(BoundResources::seriesGroups()[*pipes], std::string("pipes")); // best allocation
        QCOMPARE(BoundResources::labels()[0], std::string("ROB"));
        QVERIFY(!BoundResources::find("commit_width").has_value()); // a constant, no series

        CoreConfig config;
        config.set(ParamId::Rob, 256);
        const SeriesKey rob = BoundResources::key(0, config);
        QCOMPARE(rob.name, std::string("rob"));
        QVERIFY(rob.memoryDependent);
        QCOMPARE(rob.settings.front().second, 256.0);
        QVERIFY(!errorOf([] { BoundResources::key(99, CoreConfig{}); }).isEmpty());
    }

    void bindingResourceMinimumAndShares() {
        // Window:           0    1    2    3    4
        const auto s = RegionBoundsSeries::fromBounds({{1.0f, 4.0f, 2.0f, 3.0f, 2.0f},  // A
                                                       {2.0f, 1.0f, 2.0f, 4.0f, 5.0f},  // B
                                                       {3.0f, 3.0f, 3.0f, 0.5f, 6.0f}}, // C
                                                      "test");
        QCOMPARE(s.label(), std::string("test"));
        QCOMPARE(s.resourceCount(), std::size_t(3));
        QCOMPARE(s.windows(), std::size_t(5));
        const std::vector<float> minimum = {1.0f, 1.0f, 2.0f, 0.5f, 2.0f};
        QVERIFY(std::equal(minimum.begin(), minimum.end(), s.minimum().begin()));
        // Window 2 ties A and B at 2.0: the earlier resource (A) binds.
        const std::vector<std::uint8_t> binding = {0, 1, 0, 2, 0};
        QVERIFY(std::equal(binding.begin(), binding.end(), s.binding().begin()));
        QCOMPARE(s.bindingCount(0), std::size_t(3));
        QCOMPARE(s.bindingCount(1), std::size_t(1));
        QCOMPARE(s.bindingCount(2), std::size_t(1));
        QCOMPARE(s.bindingShare(0), 0.6);
        QCOMPARE(s.dominantResource(), std::size_t(0));
        // CDFs are the Cdf of each row; CPIs the mean reciprocal.
        QCOMPARE(s.cdf(1).sortedValues(), (std::vector<float>{1, 2, 2, 4, 5}));
        QCOMPARE(s.cdf(1).evaluate(2.0), 0.6);
        QCOMPARE(s.minimumCdf().size(), std::size_t(5));
        QVERIFY(std::abs(s.resourceCpi(0) - (1 + 0.25 + 0.5 + 1.0 / 3 + 0.5) / 5) < 1e-12);
        QVERIFY(std::abs(s.minimumBoundCpi() - (1 + 1 + 0.5 + 2 + 0.5) / 5) < 1e-12);
        QCOMPARE(s.segmentStarts(), (std::vector<std::size_t>{0}));

        QVERIFY(!errorOf([] { RegionBoundsSeries::fromBounds({{1.0f, 2.0f}, {1.0f}}); }).isEmpty());
        QVERIFY(!errorOf([] { (void)RegionBoundsSeries::fromBounds({{-1.0f}}); }).isEmpty());
        QVERIFY(!errorOf([&] { (void)s.bound(3); }).isEmpty());
        const RegionBoundsSeries empty;
        QVERIFY(empty.empty());
        QCOMPARE(empty.dominantResource(), std::size_t(0));
    }

    void dominantTieGoesToTheWorseResource() {
        // A and B each bind two windows; B alone gives the larger CPI (smaller bounds).
        const auto s =
            RegionBoundsSeries::fromBounds({{1.0f, 1.0f, 9.0f, 9.0f}, {2.0f, 2.0f, 0.5f, 0.5f}});
        QCOMPARE(s.bindingCount(0), s.bindingCount(1));
        QVERIFY(s.resourceCpi(1) > s.resourceCpi(0));
        QCOMPARE(s.dominantResource(), std::size_t(1));
    }

    void concatenationKeepsSegments() {
        const auto a = RegionBoundsSeries::fromBounds({{1.0f, 2.0f}, {3.0f, 0.5f}}, "p region 0");
        const auto b =
            RegionBoundsSeries::fromBounds({{4.0f, 4.0f, 4.0f}, {1.0f, 1.0f, 9.0f}}, "p region 1");
        const std::vector<RegionBoundsSeries> parts = {a, b};
        const auto joined = RegionBoundsSeries::concatenate(parts, "p");
        QCOMPARE(joined.windows(), std::size_t(5));
        QCOMPARE(joined.segmentStarts(), (std::vector<std::size_t>{0, 2}));
        QCOMPARE(joined.segmentLabels(), (std::vector<std::string>{"p region 0", "p region 1"}));
        const std::vector<std::uint8_t> binding = {0, 1, 1, 1, 0};
        QVERIFY(std::equal(binding.begin(), binding.end(), joined.binding().begin()));
        QCOMPARE(joined.cdf(0).size(), std::size_t(5));
        const auto mismatch = RegionBoundsSeries::fromBounds({{1.0f}});
        const std::vector<RegionBoundsSeries> bad = {a, mismatch};
        QVERIFY(!errorOf([&] { RegionBoundsSeries::concatenate(bad, "x"); }).isEmpty());
        // A join refuses sorted rows that cannot be their bounds sorted, and unsorted ones.
        const std::vector<float> bound = {3.0f, 1.0f, 2.0f}, sorted = {1.0f, 2.0f, 3.0f};
        RegionBoundsSeries::SortedPart part{"p region 0", {bound}, {std::span(sorted).first(2)}};
        QVERIFY(errorOf([&] { RegionBoundsSeries::join({&part, 1}, "p"); }).contains("region 0"));
        part.sorted = {bound};
        QVERIFY(!errorOf([&] { RegionBoundsSeries::join({&part, 1}, "p"); }).isEmpty());
        part.sorted = {sorted};
        QCOMPARE(RegionBoundsSeries::join({&part, 1}, "p").cdf(0).sortedValues(), sorted);
    }

    void concatenatedCdfsEqualSortingEveryWindow() {
        // The joined CDFs merge the parts' sorted samples; they must equal sorting all windows,
        // for any number of parts (odd counts leave a run unpaired in a merge pass).
        std::mt19937 random(17);
        std::uniform_real_distribution<float> value(0.05f, 64.0f);
        for (const std::size_t count : {1u, 2u, 3u, 5u, 8u, 13u}) {
            std::vector<RegionBoundsSeries> parts;
            for (std::size_t k = 0; k < count; ++k) {
                std::vector<std::vector<float>> bounds(3);
                for (auto& row : bounds)
                    for (std::size_t w = 0; w < 7 + 5 * k; ++w)
                        row.push_back(w % 4 == 0 ? 2.0f : value(random)); // with ties
                parts.push_back(RegionBoundsSeries::fromBounds(std::move(bounds)));
            }
            const auto joined = RegionBoundsSeries::concatenate(parts, "p");
            for (std::size_t r = 0; r < 3; ++r)
                QCOMPARE(joined.cdf(r).sortedValues(),
                         Cdf::fromValues(joined.bound(r)).sortedValues());
            QCOMPARE(joined.minimumCdf().sortedValues(),
                     Cdf::fromValues(joined.minimum()).sortedValues());
        }
    }

    void computeReadsEachResourceAtTheConfiguration() {
        CoreConfig config;
        config.set(ParamId::Rob, 64);
        config.set(ParamId::AluIssue, 2);
        MapSource source;
        for (std::size_t r = 0; r < BoundResources::count(); ++r)
            source.series_[BoundResources::key(r, config).text()] =
                std::vector<float>(4, 10.0f + float(r));
        source.series_[BoundResources::key(3, config).text()] = {1.0f, 20.0f, 1.0f, 20.0f};
        const auto s = RegionBoundsSeries::compute(source, config, "r");
        QCOMPARE(s.resourceCount(), BoundResources::count());
        QCOMPARE(s.binding()[0], std::uint8_t(3)); // ALU issue
        QCOMPARE(s.binding()[1], std::uint8_t(0)); // ROB at 10
        QCOMPARE(s.bindingShare(3), 0.5);
        // Off the grid: the source has no series for another ROB size.
        config.set(ParamId::Rob, 128);
        QVERIFY(errorOf([&] { RegionBoundsSeries::compute(source, config); }).contains("rob"));
    }

    void referenceIpcExactNearestOrNone() {
        const ParameterGrid grid;
        CoreConfig shown;
        shown.set(ParamId::Rob, 128);
        CoreConfig near = shown;
        near.set(ParamId::Rob, 192); // one ROB grid step away
        CoreConfig far = shown;
        far.set(ParamId::Rob, 16);
        far.set(ParamId::LoadQueue, 128);

        // None.
        const auto none = ReferenceIpc::select({}, shown, grid, "r");
        QCOMPARE(none.match(), ReferenceIpc::Match::None);
        QVERIFY(!none.available());
        QVERIFY(QString::fromStdString(none.describe()).contains("no reference"));

        // Nearest: the closer label wins and the differing parameter is named.
        const std::vector<LabelRow> labels = {label(1, far, {1.0f, 2.0f}),
                                              label(2, near, {0.5f, 0.25f})};
        const auto nearest = ReferenceIpc::select(labels, shown, grid, "r");
        QCOMPARE(nearest.match(), ReferenceIpc::Match::Nearest);
        QCOMPARE(nearest.config(), near);
        QCOMPARE(nearest.windowIpc(), (std::vector<float>{0.5f, 0.25f})); // powers of two: exact
        QCOMPARE(nearest.differences(), (std::vector<std::string>{"rob 192 (shown 128)"}));
        QVERIFY(nearest.distance() > 0);
        QVERIFY(QString::fromStdString(nearest.describe()).contains("rob 192 (shown 128)"));

        // Exact, even when listed after others.
        std::vector<LabelRow> withExact = labels;
        withExact.push_back(label(3, shown, {2.0f, 1.0f}, "preset:n1-like"));
        const auto exact = ReferenceIpc::select(withExact, shown, grid, "r");
        QCOMPARE(exact.match(), ReferenceIpc::Match::Exact);
        QCOMPARE(exact.windowIpc(), (std::vector<float>{2.0f, 1.0f}));
        QCOMPARE(exact.source(), std::string("preset:n1-like"));
        QCOMPARE(exact.distance(), 0.0);
        QVERIFY(exact.differences().empty());

        // A corrupt label is an error naming the region.
        std::vector<LabelRow> corrupt = {label(4, shown, {1.0f})};
        corrupt[0].windowIpc[40] ^= 0xff;
        QVERIFY(errorOf([&] {
                    ReferenceIpc::select(corrupt, shown, grid, "region 7");
                }).contains("region 7"));
    }

    void databaseBoundsMatchTheStoredSeries() {
        FeatureDatabase db = FeatureDatabase::openReadOnly(database());
        const BoundsGrid grid = db.buildSettings().grid;
        std::size_t calls = 0;
        const DatabaseBounds bounds = DatabaseBounds::load(db, JobControl([&](const JobProgress& p) {
                                                               ++calls;
                                                               QVERIFY(p.done <= p.total);
                                                           }));
        QCOMPARE(calls, std::size_t(5));
        QCOMPARE(bounds.regions().size(), std::size_t(5));
        QCOMPARE(bounds.programs(), (std::vector<std::string>{"alpha", "beta"}));
        QCOMPARE(bounds.regionsOf("alpha").size(), std::size_t(3));
        QCOMPARE(bounds.windowSize(), 100u);
        QVERIFY(!errorOf([&] { (void)bounds.regionsOf("gamma"); }).isEmpty());
        QVERIFY(bounds.bytes() > 0);
        QCOMPARE(bounds.regions()[0].label(), std::string("alpha region 0"));

        const auto index = StoredRegionSeries::indexFor(db.catalog());
        for (const CoreConfig& config : {firstOnGrid(grid), lastOnGrid(grid)}) {
            const auto all = bounds.allRegions(config);
            QCOMPARE(all.size(), bounds.regions().size());
            for (std::size_t r = 0; r < all.size(); ++r) {
                const auto stored = StoredRegionSeries::load(db, bounds.regions()[r].id, index);
                const auto expected = RegionBoundsSeries::compute(stored, config);
                QVERIFY(sameSeries(all[r], expected));
                QVERIFY(sameSeries(bounds.region(r, config), expected));
                QCOMPARE(all[r].label(), bounds.regions()[r].label());
                QVERIFY(bounds.series(r).distinctRows() <= bounds.series(r).seriesCount());
            }
            const auto program = bounds.program("alpha", config);
            std::vector<RegionBoundsSeries> alpha;
            for (const std::size_t r : bounds.regionsOf("alpha"))
                alpha.push_back(all[r]);
            QVERIFY(sameSeries(program, RegionBoundsSeries::concatenate(alpha, "alpha")));
            // Computed from the program at another configuration, reusing the CDFs of the
            // resources whose rows did not change: the same as computed afresh.
            for (const CoreConfig& before : {firstOnGrid(grid), lastOnGrid(grid)}) {
                const auto earlier = bounds.program("alpha", before);
                QVERIFY(sameSeries(bounds.program("alpha", config, &earlier), program));
            }
            CoreConfig robOnly = config;
            const auto& robs = grid[concorde::index(ParamId::Rob)];
            robOnly.set(ParamId::Rob, robs[robs.front() == config.rob() ? 1 : 0]);
            const auto earlier = bounds.program("alpha", robOnly);
            const auto stepped = bounds.program("alpha", config, &earlier);
            QVERIFY(sameSeries(stepped, program));
            // A resource that does not depend on the ROB keeps the very same samples.
            bool reused = false;
            for (std::size_t r = 0; r < program.resourceCount(); ++r)
                reused =
                    reused || (stepped.cdf(r).sortedValues() == earlier.cdf(r).sortedValues() &&
                               BoundResources::key(r, config).text() ==
                                   BoundResources::key(r, robOnly).text());
            QVERIFY(reused);
            QCOMPARE(program.segmentStarts().size(), std::size_t(3));
            QCOMPARE(program.windows(), all[0].windows() + all[1].windows() + all[2].windows());
            QCOMPARE(program.label(), std::string("alpha"));
        }
        // Off the grid.
        CoreConfig off = firstOnGrid(grid);
        off.set(ParamId::Rob, 512);
        QVERIFY(errorOf([&] { (void)bounds.region(0, off); }).contains("grid"));
        // Only resource groups are kept.
        SeriesKey latency = BoundResources::key(0, firstOnGrid(grid));
        latency.name = "rob.execution";
        QVERIFY(errorOf([&] { (void)bounds.series(0).series(latency); }).contains("not loaded"));
    }

    void databaseBoundsLoadingCancelsAndReportsCorruption() {
        {
            FeatureDatabase db = FeatureDatabase::openReadOnly(database());
            QVERIFY(errorOf([&] {
                        JobControl job;
                        job = JobControl([&](const JobProgress&) { job.cancel(); });
                        DatabaseBounds::load(db, job);
                    }).contains("cancelled"));
            std::atomic<bool> cancel{true};
            QVERIFY(errorOf([&] {
                        DatabaseBounds::load(db, JobControl({}, &cancel));
                    }).contains("cancelled"));
        }
        const auto broken = file("broken.sqlite");
        std::filesystem::copy_file(database(), broken,
                                   std::filesystem::copy_options::overwrite_existing);
        {
            SqliteConnection c(broken, SqliteConnection::Mode::ReadWrite);
            c.exec("UPDATE series SET data = substr(data, 1, 40) WHERE name = 'lq' AND "
                   "region_id = (SELECT min(id) FROM regions)",
                   "test");
        }
        FeatureDatabase db = FeatureDatabase::openReadOnly(broken);
        ErrorKind kind{};
        const QString error = errorOf([&] { DatabaseBounds::load(db); }, &kind);
        QVERIFY2(error.contains("series group lq"), qPrintable(error));
        QVERIFY2(error.contains("alpha"), qPrintable(error));
        QCOMPARE(kind, ErrorKind::BadInput);
    }

    void referenceIpcFromStoredLabels() {
        const auto labelled = file("labelled.sqlite");
        std::filesystem::copy_file(database(), labelled,
                                   std::filesystem::copy_options::overwrite_existing);
        {
            FeatureDatabase db = FeatureDatabase::openForWriting(labelled);
            RegionLabeler::Options options;
            options.randomConfigs = 1;
            options.jobs = 2;
            QCOMPARE(RegionLabeler::label(db, options).labelsWritten, std::size_t(5));
            db.close();
        }
        FeatureDatabase db = FeatureDatabase::openReadOnly(labelled);
        const DatabaseBounds bounds = DatabaseBounds::load(db);
        const auto regionId = bounds.regions()[0].id;
        const auto labels = db.labels(regionId);
        QCOMPARE(labels.size(), std::size_t(1));
        const CoreConfig config =
            CoreConfig::fromJson(nlohmann::json::parse(labels[0].configJson), true, "test");
        const auto exact = ReferenceIpc::forRegion(db, regionId, config);
        QCOMPARE(exact.match(), ReferenceIpc::Match::Exact);
        // The simulator's windows are the bounds' windows.
        QCOMPARE(exact.windowIpc().size(), bounds.region(0, config).windows());
        QVERIFY(std::abs(exact.cpi() - labels[0].cpi) < 1e-12);
        // Another configuration: the label is the nearest, and says what differs.
        CoreConfig other = config;
        other.set(ParamId::Rob, config.rob() == 64 ? 128 : 64);
        const auto nearest = ReferenceIpc::forRegion(db, regionId, other);
        QCOMPARE(nearest.match(), ReferenceIpc::Match::Nearest);
        QCOMPARE(nearest.differences().size(), std::size_t(1));
    }

    void referenceIpcCacheAnswersLikeTheDatabase() {
        const auto labelled = file("labelled-cache.sqlite");
        std::filesystem::copy_file(database(), labelled,
                                   std::filesystem::copy_options::overwrite_existing);
        std::vector<std::int64_t> regionIds;
        {
            FeatureDatabase db = FeatureDatabase::openForWriting(labelled);
            RegionLabeler::Options options;
            options.randomConfigs = 3;
            options.jobs = 2;
            QVERIFY(RegionLabeler::label(db, options).labelsWritten > 5);
            for (const RegionRow& region : db.regions())
                regionIds.push_back(region.id);
            db.close();
            // One region without labels: both answer "none" for it.
            SqliteConnection c(labelled, SqliteConnection::Mode::ReadWrite);
            c.exec("DELETE FROM labels WHERE region_id = " + std::to_string(regionIds.back()),
                   "test");
        }
        FeatureDatabase db = FeatureDatabase::openReadOnly(labelled);
        const BoundsGrid grid = db.buildSettings().grid;
        // Every labelled configuration (exact for its region, nearest for the others), the grid's
        // corners and random points of the grid.
        std::vector<CoreConfig> configs = {firstOnGrid(grid), lastOnGrid(grid)};
        for (const LabelRow& row : db.labels())
            configs.push_back(
                CoreConfig::fromJson(nlohmann::json::parse(row.configJson), true, "test"));
        std::mt19937_64 rng(5);
        for (int i = 0; i < 20; ++i) {
            CoreConfig config;
            for (const ParameterSpec& spec : ParameterSpace::all())
                config.set(spec.id, grid[index(spec.id)][rng() % grid[index(spec.id)].size()]);
            configs.push_back(config);
        }

        ReferenceIpcCache cache(db);
        QVERIFY(!cache.holds(regionIds[0]));
        QVERIFY(
            errorOf([&] { (void)cache.lookup(regionIds[0], configs[0]); }).contains("not loaded"));
        cache.load(db, regionIds);
        QCOMPARE(cache.regionCount(), regionIds.size());
        QCOMPARE(cache.labelCount(), db.labels().size());
        int exact = 0, nearest = 0, none = 0;
        for (const std::int64_t regionId : regionIds)
            for (const CoreConfig& config : configs) {
                const ReferenceIpc stored = ReferenceIpc::forRegion(db, regionId, config);
                const ReferenceIpc held = cache.lookup(regionId, config);
                QCOMPARE(held.match(), stored.match());
                QCOMPARE(held.labelId(), stored.labelId());
                QCOMPARE(held.config(), stored.config());
                QCOMPARE(held.source(), stored.source());
                QCOMPARE(held.cpi(), stored.cpi());
                QCOMPARE(held.windowIpc(), stored.windowIpc());
                QCOMPARE(held.distance(), stored.distance());
                QCOMPARE(held.differences(), stored.differences());
                QCOMPARE(held.describe(), stored.describe());
                exact += held.match() == ReferenceIpc::Match::Exact;
                nearest += held.match() == ReferenceIpc::Match::Nearest;
                none += held.match() == ReferenceIpc::Match::None;
            }
        QVERIFY(exact > 0 && nearest > 0 && none > 0); // every kind of answer was compared
        // Answers come from memory: they hold once the database is closed.
        const ReferenceIpc before = cache.lookup(regionIds[0], configs[2]);
        db.close();
        QCOMPARE(cache.lookup(regionIds[0], configs[2]).windowIpc(), before.windowIpc());
    }

    void referenceIpcCacheReportsUndecodableLabels() {
        const auto broken = file("labels-broken.sqlite");
        std::filesystem::copy_file(database(), broken,
                                   std::filesystem::copy_options::overwrite_existing);
        std::int64_t regionId = 0;
        {
            FeatureDatabase db = FeatureDatabase::openForWriting(broken);
            RegionLabeler::Options options;
            options.randomConfigs = 1;
            options.jobs = 2;
            RegionLabeler::label(db, options);
            regionId = db.regions().front().id;
            db.close();
            SqliteConnection c(broken, SqliteConnection::Mode::ReadWrite);
            c.exec("UPDATE labels SET config_json = '{not json' WHERE region_id = " +
                       std::to_string(regionId),
                   "test");
        }
        FeatureDatabase db = FeatureDatabase::openReadOnly(broken);
        const CoreConfig config = firstOnGrid(db.buildSettings().grid);
        const QString stored = errorOf([&] { ReferenceIpc::forRegion(db, regionId, config); });
        ReferenceIpcCache cache(db);
        cache.load(db, std::vector<std::int64_t>{regionId}); // held with its error, not thrown
        ErrorKind kind{};
        const QString held = errorOf([&] { (void)cache.lookup(regionId, config); }, &kind);
        QVERIFY2(held.contains("alpha region 0"), qPrintable(held));
        QCOMPARE(held, stored);
        QCOMPARE(kind, ErrorKind::BadInput);
    }

    void programTimelineWithPredictions() {
        FeatureDatabase db = FeatureDatabase::openReadOnly(database());
        const DatabaseBounds bounds = DatabaseBounds::load(db);
        const CoreConfig config = firstOnGrid(db.buildSettings().grid);
        const auto predictor = std::make_shared<const DatabasePredictor>(db, *db.readModel());
        const auto timeline = ProgramTimeline::build(bounds, "alpha", predictor.get(), config);
        QCOMPARE(timeline.program, std::string("alpha"));
        QCOMPARE(timeline.entries.size(), std::size_t(3));
        for (std::size_t k = 0; k < 3; ++k) {
            QCOMPARE(timeline.entries[k].regionIndex, std::uint32_t(k));
            const std::size_t r = predictor->regionsOf("alpha")[k];
            QCOMPARE(timeline.entries[k].cpi, predictor->regionCpi(r, config));
        }
        QVERIFY(std::abs(timeline.programCpi() - predictor->programCpi("alpha", config)) < 1e-9);
        QVERIFY(!timeline.hasPhases());
        QCOMPARE(timeline.phaseCount(), std::size_t(0));

        auto copy = timeline;
        copy.setPhases({{timeline.entries[0].regionId, 0}, {timeline.entries[2].regionId, 1}});
        QVERIFY(copy.hasPhases());
        QCOMPARE(copy.phaseCount(), std::size_t(2));
        QVERIFY(!copy.entries[1].phase.has_value());

        const auto unknown = ProgramTimeline::build(bounds, "beta", nullptr, config);
        QCOMPARE(unknown.entries.size(), std::size_t(2));
        QVERIFY(std::isnan(unknown.entries[0].cpi));
        QVERIFY(std::isnan(unknown.programCpi()));
        QVERIFY(
            !errorOf([&] { ProgramTimeline::build(bounds, "gamma", nullptr, config); }).isEmpty());
    }

    /// A Shapley request on the test database's model, from the grid's last to its first
    /// configuration.
    ShapleyJob::Request shapleyRequest() {
        FeatureDatabase db = FeatureDatabase::openReadOnly(database());
        const BoundsGrid grid = db.buildSettings().grid;
        ShapleyJob::Request request;
        request.predictor = std::make_shared<const DatabasePredictor>(db, *db.readModel());
        request.baseline = lastOnGrid(grid);
        request.target = firstOnGrid(grid);
        return request;
    }

    void shapleyJobRunsInTheBackgroundLikeTheAttributor() {
        ShapleyJob::Request request = shapleyRequest();
        const auto& predictor = request.predictor;

        // Synchronous result, as `concorde shapley` computes it.
        const ShapleyAttributor attributor(request.players, request.baseline, request.target,
                                           request.options);
        std::vector<ProgramValue> programs;
        for (const auto& name : predictor->programs())
            programs.push_back(RegionValueFunction::programValue(predictor, name));
        const AttributionReport expected = attributor.attribute(programs);

        ShapleyJob job(request);
        QCOMPARE(job.state(), ShapleyJob::State::Idle);
        std::atomic<int> calls{0};
        std::atomic<ShapleyJob::State> reported{ShapleyJob::State::Idle};
        job.start([&](ShapleyJob::State state) {
            reported = state;
            ++calls;
        });
        QVERIFY(!errorOf([&] { job.start(); }).isEmpty()); // runs once
        job.wait();
        QCOMPARE(calls.load(), 1);
        QCOMPARE(reported.load(), ShapleyJob::State::Finished);
        QCOMPARE(job.state(), ShapleyJob::State::Finished);
        QCOMPARE(job.progress(), 1.0);
        const AttributionReport& report = job.report();
        QCOMPARE(report.programs.size(), expected.programs.size());
        for (std::size_t p = 0; p < report.programs.size(); ++p) {
            QCOMPARE(report.programs[p].program, expected.programs[p].program);
            QCOMPARE(report.programs[p].total.delta(), expected.programs[p].total.delta());
            for (std::size_t i = 0; i < report.players.size(); ++i)
                QCOMPARE(report.programs[p].total.players[i].value,
                         expected.programs[p].total.players[i].value);
            QCOMPARE(report.programs[p].regions.size(), expected.programs[p].regions.size());
        }

        // One program only.
        request.programs = {"beta"};
        QCOMPARE(ShapleyJob::run(request).programs.size(), std::size_t(1));
    }

    void shapleyJobCancelsAndChecksItsRequest() {
        ShapleyJob::Request request = shapleyRequest();
        // Sampling with many permutations over every parameter: long enough to cancel.
        request.players = PlayerSet::individual();
        request.options.mode = ShapleyAttributor::Mode::Sampling;
        request.options.permutations = 2'000'000;
        ShapleyJob job(request);
        job.start();
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        job.cancel();
        job.wait();
        QCOMPARE(job.state(), ShapleyJob::State::Cancelled);
        QVERIFY(QString::fromStdString(job.error()).contains("cancelled"));
        QVERIFY(!errorOf([&] { (void)job.report(); }).isEmpty());

        // Destroying a running job cancels it and waits.
        {
            ShapleyJob running(request);
            running.start();
        }

        // Bad requests fail before anything starts.
        ShapleyJob::Request bad = request;
        bad.predictor = nullptr;
        QVERIFY(errorOf([&] { ShapleyJob job(bad); }).contains("predictor"));
        bad = request;
        bad.target.set(ParamId::Rob, 512);
        QVERIFY(errorOf([&] { ShapleyJob job(bad); }).contains("rob"));
        bad = request;
        bad.programs = {"gamma"};
        QVERIFY(errorOf([&] { ShapleyJob job(bad); }).contains("gamma"));
    }
};

QTEST_GUILESS_MAIN(ExploreTest)
#include "ExploreTest.moc"
