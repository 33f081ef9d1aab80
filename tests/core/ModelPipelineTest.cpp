// The model pipeline on real (synthetic-kernel) data: feature assembly from GridBounds series and
// from a feature database, dataset files and `concorde dataset`, the linear baseline, accuracy
// reports, CPI models stored in a database, and block-precomputed database predictions.
#include "../support/ErrorCapture.h"
#include "../support/KernelTrace.h"
#include "../support/RandomRecords.h"
#include "../support/TinyExplorerDatabase.h"
#include "bounds/GridBounds.h"
#include "common/ConcordeError.h"
#include "explore/DatabasePredictor.h"
#include "features/DistributionEncoder.h"
#include "features/FeatureAssembler.h"
#include "features/FeatureLayout.h"
#include "features/GridSeriesSource.h"
#include "features/SeriesKey.h"
#include "ml/AccuracyReport.h"
#include "ml/CpiModel.h"
#include "ml/FeatureNormalizer.h"
#include "ml/LinearBaseline.h"
#include "ml/Mlp.h"
#include "params/CoreConfig.h"
#include "params/ParameterSpace.h"
#include "pipeline/DatabaseBuilder.h"
#include "pipeline/DatasetBuilder.h"
#include "pipeline/LabelEvaluator.h"
#include "pipeline/ModelTraining.h"
#include "pipeline/RegionLabeler.h"
#include "refsim/ReferenceSimulator.h"
#include "store/DatasetFile.h"
#include "store/FeatureDatabase.h"
#include "store/GridDescription.h"
#include "store/StoredRegionSeries.h"
#include "trace/TraceReader.h"
#include "trace/TraceWriter.h"

#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <set>
#include <sqlite3.h>

using namespace concorde;
using concorde::testing::errorOf;
using concorde::testing::kernel;
using concorde::testing::KernelTrace;

namespace {

constexpr std::uint32_t kDatabaseWindow = 100;
constexpr std::uint32_t kDatasetWindow = 200;

/// Two memory configurations and two values of most series parameters, so a region's series
/// take milliseconds (the grid the explorer tests use too).
BoundsGrid tinyGrid() {
    return concorde::testing::tinyExplorerGrid();
}

CoreConfig randomOnGrid(const BoundsGrid& grid, std::mt19937_64& rng) {
    CoreConfig config;
    for (const auto& spec : ParameterSpace::all()) {
        const auto& values = grid[index(spec.id)];
        config.set(spec.id, values[rng() % values.size()]);
    }
    return config;
}

/// The series GridBounds computed under this name, memory configuration (nullopt: a
/// memory-independent series) and settings, or nullptr.
const GridSeries* findSeries(const GridBounds::Result& result, const std::string& name,
                             const std::optional<MemoryConfig>& memory,
                             const std::vector<std::pair<ParamId, double>>& settings) {
    for (const auto& s : result.series)
        if (s.name == name && s.memoryDependent == memory.has_value() &&
            (!memory || s.memory == *memory) && s.settings == settings)
            return &s;
    return nullptr;
}

std::span<const float> sliceOf(const FeatureLayout& layout, const std::vector<float>& features,
                               std::string_view block) {
    return layout.slice(std::span<const float>(features), block);
}

/// What one column of a single-column Distributions block should hold for `values`: the
/// DistributionEncoder encoding, followed (when the block is one float wider than that) by the
/// mean over windows of the reciprocal of each sample clamped to [1e-3, cap] (a resource block's
/// region CPI under that resource alone).
std::vector<float> expectedColumn(const FeatureLayout& layout, const FeatureBlock& block,
                                  std::span<const float> values) {
    std::vector<float> out = layout.encoder(block).encode(values);
    if (block.width == out.size() + 1) {
        double sum = 0;
        for (const float v : values)
            sum += 1.0 / std::clamp(static_cast<double>(v), 1e-3, static_cast<double>(block.cap));
        out.push_back(values.empty() ? 0.0f : static_cast<float>(sum / double(values.size())));
    }
    return out;
}

bool sameBits(std::span<const float> a, std::span<const float> b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

Eigen::MatrixXf randomMatrix(Eigen::Index rows, Eigen::Index cols, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    Eigen::MatrixXf m(rows, cols);
    for (Eigen::Index c = 0; c < cols; ++c)
        for (Eigen::Index r = 0; r < rows; ++r)
            m(r, c) = u(rng);
    return m;
}

/// Runs SQL on `path` through the plain SQLite C API; returns SQLite's error text (empty: ok).
std::string rawExec(const std::filesystem::path& path, const std::string& sql) {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
        std::string error = db ? sqlite3_errmsg(db) : "cannot open";
        sqlite3_close(db);
        return error;
    }
    char* message = nullptr;
    std::string error;
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK)
        error = message ? message : "sqlite3_exec failed";
    sqlite3_free(message);
    sqlite3_close(db);
    return error;
}

/// Flips one byte in the middle of the blob `column` of the row `where` of `table` (plain C API).
std::string flipBlobByte(const std::filesystem::path& path, const std::string& table,
                         const std::string& column, const std::string& where) {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
        sqlite3_close(db);
        return "cannot open";
    }
    std::string error;
    sqlite3_stmt* select = nullptr;
    std::vector<unsigned char> blob;
    const std::string query = "SELECT " + column + " FROM " + table + " WHERE " + where;
    if (sqlite3_prepare_v2(db, query.c_str(), -1, &select, nullptr) == SQLITE_OK &&
        sqlite3_step(select) == SQLITE_ROW) {
        const auto* data = static_cast<const unsigned char*>(sqlite3_column_blob(select, 0));
        blob.assign(data, data + sqlite3_column_bytes(select, 0));
    } else {
        error = "no such row";
    }
    sqlite3_finalize(select);
    if (error.empty() && !blob.empty()) {
        blob[blob.size() / 2] ^= 0x5a;
        sqlite3_stmt* update = nullptr;
        const std::string sql = "UPDATE " + table + " SET " + column + " = ?1 WHERE " + where;
        if (sqlite3_prepare_v2(db, sql.c_str(), -1, &update, nullptr) != SQLITE_OK ||
            sqlite3_bind_blob(update, 1, blob.data(), static_cast<int>(blob.size()),
                              SQLITE_TRANSIENT) != SQLITE_OK ||
            sqlite3_step(update) != SQLITE_DONE)
            error = sqlite3_errmsg(db);
        sqlite3_finalize(update);
    }
    sqlite3_close(db);
    return error;
}

/// Samples compare equal field by field, features bit for bit.
bool sameSample(const DatasetSample& a, const DatasetSample& b) {
    return a.id == b.id && a.program == b.program && a.regionIndex == b.regionIndex &&
           a.split == b.split && a.config == b.config && a.cpi == b.cpi &&
           a.minBoundCpi == b.minBoundCpi && a.instructions == b.instructions &&
           sameBits(a.features, b.features);
}

double relativeDifference(double a, double b) {
    if (a == b)
        return 0;
    return std::abs(a - b) / std::max(std::abs(a), std::abs(b));
}

} // namespace

class ModelPipelineTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::optional<KernelTrace> kernelTrace_;
    std::optional<GridBounds::Result> kernelBounds_;

    std::filesystem::path file(const char* name) const {
        return dir_.filePath(QString::fromLatin1(name)).toStdString();
    }

    /// A dataset of `samples` draws from the test traces on the tiny grid, written to `name`
    /// (the programs in `holdOut` are held out), opened read-only.
    DatasetFile tinyDataset(const char* name, std::size_t samples, std::uint64_t seed,
                            std::vector<std::string> holdOut = {},
                            AnalysisRevision analysis = AnalysisRevision::current()) {
        DatasetBuilder::Options options;
        options.samples = samples;
        options.seed = seed;
        options.holdOut = std::move(holdOut);
        options.analysis = analysis;
        options.jobs = 2;
        options.windowSize = kDatasetWindow;
        DatasetBuilder::fromTraces(traces(), tinyGrid(), file(name), options);
        return DatasetFile::openReadOnly(file(name));
    }

    /// Two programs written with TraceWriter: alpha with four regions (region 3 is a "test"
    /// region), beta with three; about 4–6k measured instructions per region.
    std::vector<std::filesystem::path> traces() {
        const auto alpha = file("alpha.ctrace");
        const auto beta = file("beta.ctrace");
        if (!std::filesystem::exists(alpha))
            concorde::testing::writeTinyProgram(alpha, {{"stride-load", {{"ws_kb", "64"}}, 5},
                                                        {"branch-random", {{"warmup", "64"}}, 800},
                                                        {"rob-knee", {{"fillers", "32"}}, 60},
                                                        {"taken-groups", {}, 60}});
        if (!std::filesystem::exists(beta))
            concorde::testing::writeTinyProgram(beta, {{"independent", {{"class", "fp-add"}}, 16},
                                                       {"pointer-chase", {{"ws_kb", "128"}}, 2},
                                                       {"chain-int-alu", {}, 70}});
        return {alpha, beta};
    }

    /// A feature database of both programs on the tiny grid (built once).
    std::filesystem::path database() {
        const auto path = file("pipeline.sqlite");
        if (std::filesystem::exists(path))
            return path;
        DatabaseBuilder::Options options;
        options.traces = traces();
        options.grid = tinyGrid();
        options.windowSize = kDatabaseWindow;
        options.jobs = 2;
        FeatureDatabase db = FeatureDatabase::openForWriting(path);
        const auto summary = DatabaseBuilder::build(db, options);
        if (summary.regionsBuilt != 7)
            qFatal("expected 7 regions built, got %zu", summary.regionsBuilt);
        db.close();
        return path;
    }

    /// One synthetic kernel region and its series on the tiny grid (computed once).
    const GridBounds::Result& kernelBounds() {
        if (!kernelBounds_) {
            // Random records of every class: every resource binds in some window.
            kernelTrace_ = KernelTrace{testing::makeRandomRecords(8000, 21), 2000};
            kernelBounds_ =
                GridBounds::build(kernelTrace_->records, kernelTrace_->warmup, tinyGrid(), 200);
        }
        return *kernelBounds_;
    }

    /// A small random CPI model over the standard layout, its normaliser fitted on feature
    /// vectors assembled from the database's stored series.
    CpiModel randomModel(FeatureDatabase& db) {
        CpiModel model;
        model.name = "random";
        model.layout = FeatureLayout::standard();
        const FeatureAssembler assembler(model.layout);
        const BoundsGrid grid = db.buildSettings().grid;
        std::mt19937_64 rng(41);
        const auto regions = db.regions();
        Eigen::MatrixXf sample(static_cast<Eigen::Index>(model.layout.width()), 16);
        for (Eigen::Index s = 0; s < sample.cols(); ++s) {
            const auto& region = regions[static_cast<std::size_t>(s) % regions.size()];
            const StoredRegionSeries series = StoredRegionSeries::load(db, region.id);
            const auto features = assembler.assemble(randomOnGrid(grid, rng), series);
            sample.col(s) = Eigen::Map<const Eigen::VectorXf>(
                features.data(), static_cast<Eigen::Index>(features.size()));
        }
        model.normalizer = FeatureNormalizer::fit(sample);
        model.members = {Mlp({static_cast<int>(model.layout.width()), 8, 1}, 23)};
        return model;
    }

private slots:
    // Balanced cores: on the grid, deterministic, and sizes move together (small cores and big
    // cores both appear), unlike independent draws.
    void balancedConfigurationsMoveTogether() {
        const BoundsGrid grid = defaultBoundsGrid();
        const auto position = [&](const CoreConfig& c, ParamId id) {
            const auto& values = grid[index(id)];
            const auto it = std::find(values.begin(), values.end(), c.value(id));
            return it == values.end() ? -1.0
                                      : double(it - values.begin()) / double(values.size() - 1);
        };
        int bothLow = 0, bothHigh = 0, opposite = 0;
        for (std::uint64_t draw = 0; draw < 400; ++draw) {
            const CoreConfig c = DatasetBuilder::balancedConfig(grid, 3, draw);
            QVERIFY(c == DatasetBuilder::balancedConfig(grid, 3, draw));
            for (const auto& spec : ParameterSpace::all())
                QVERIFY2(position(c, spec.id) >= 0, spec.key.c_str());
            const double rob = position(c, ParamId::Rob), alu = position(c, ParamId::AluIssue);
            const double miss = position(c, ParamId::BpMissPct);
            bothLow += rob < 0.3 && alu < 0.3;
            bothHigh += rob > 0.7 && alu > 0.7;
            opposite += (rob < 0.3 && alu > 0.7) || (rob > 0.7 && alu < 0.3);
            // The miss rate is mirrored: a big core has a good predictor.
            if (rob > 0.8)
                QVERIFY(miss < 0.6);
        }
        QVERIFY2(bothLow > 60 && bothHigh > 60 && opposite == 0,
                 qPrintable(QString("%1 %2 %3").arg(bothLow).arg(bothHigh).arg(opposite)));
    }

    // Near-anchor draws: on the grid, deterministic, one to three parameters away from the
    // snapped anchor they start at, every anchor used, and an off-grid anchor value snapped to
    // the nearest grid value.
    void nearAnchorDrawsMoveOneToThreeParameters() {
        const BoundsGrid grid = defaultBoundsGrid();
        const auto gridValue = [&](ParamId id, std::size_t position) {
            const auto& values = grid[index(id)];
            return values[std::min(position, values.size() - 1)];
        };
        CoreConfig small, large;
        for (const auto& spec : ParameterSpace::all()) {
            small.set(spec.id, gridValue(spec.id, 0));
            large.set(spec.id, gridValue(spec.id, 99));
        }
        // Between two grid values, nearer the second: the draw must use the second.
        const auto& robs = grid[index(ParamId::Rob)];
        QVERIFY(robs.size() >= 3);
        small.set(ParamId::Rob, robs[1] - 0.25 * (robs[1] - robs[0]));
        std::vector<std::pair<std::string, CoreConfig>> anchors = {{"small", small},
                                                                   {"large", large}};
        CoreConfig snappedSmall = small;
        snappedSmall.set(ParamId::Rob, robs[1]);
        const auto distance = [](const CoreConfig& a, const CoreConfig& b) {
            int differ = 0;
            for (const auto& spec : ParameterSpace::all())
                differ += a.value(spec.id) != b.value(spec.id);
            return differ;
        };
        QVERIFY(distance(snappedSmall, large) > 12);
        std::map<int, int> moved;
        int nearSmall = 0, nearLarge = 0;
        for (std::uint64_t draw = 0; draw < 600; ++draw) {
            const CoreConfig c = DatasetBuilder::nearAnchorConfig(grid, anchors, 5, draw);
            QVERIFY(c == DatasetBuilder::nearAnchorConfig(grid, anchors, 5, draw));
            for (const auto& spec : ParameterSpace::all()) {
                const auto& values = grid[index(spec.id)];
                QVERIFY2(std::find(values.begin(), values.end(), c.value(spec.id)) != values.end(),
                         spec.key.c_str());
            }
            const int toSmall = distance(c, snappedSmall), toLarge = distance(c, large);
            const int d = std::min(toSmall, toLarge);
            QVERIFY2(d <= 3, qPrintable(QString::number(d)));
            ++moved[d];
            (toSmall < toLarge ? nearSmall : nearLarge) += 1;
        }
        // A move may land on the anchor's own value, so fewer differences than moves happen,
        // but one, two and three must all be common.
        QVERIFY2(moved[1] > 100 && moved[2] > 100 && moved[3] > 60,
                 qPrintable(QString("%1 %2 %3").arg(moved[1]).arg(moved[2]).arg(moved[3])));
        QVERIFY(nearSmall > 200 && nearLarge > 200);
        QVERIFY_THROWS_EXCEPTION(ConcordeError, DatasetBuilder::nearAnchorConfig(grid, {}, 5, 0));
    }

    // Keys name series exactly as GridBounds does, and only series blocks have keys.
    void seriesKeysNameGridBoundsSeries() {
        const FeatureLayout layout = FeatureLayout::standard();
        CoreConfig config;
        config.set(ParamId::Rob, 128);
        config.set(ParamId::L1dKb, 32);
        config.set(ParamId::BranchPredictor, 0);
        config.set(ParamId::BpMissPct, 5);
        config.set(ParamId::LsPipes, 2);
        config.set(ParamId::LoadPipes, 1);
        const auto text = [&](const char* block, std::size_t column = 0) {
            return QString::fromStdString(
                FeatureAssembler::keyFor(layout.block(block), column, config).text());
        };
        const QString memory =
            QString::fromStdString(MemoryConfig::fromCoreConfig(config).toString());
        QCOMPARE(text("rob"), "rob|" + memory + "|rob=128");
        QCOMPARE(text("aux.latency_issue_wait"), "rob.issue_wait|" + memory + "|rob=128");
        QCOMPARE(text("pipes_upper"), QString("pipes|-|ls_pipes=2,load_pipes=1"));
        QCOMPARE(text("pipes_lower"), QString("pipes_lower|-|ls_pipes=2,load_pipes=1"));
        QCOMPARE(text("aux.fences"), QString("fences_pki|-|"));
        QCOMPARE(text("aux.branches", 3), QString("branches_pki.call|-|"));
        QCOMPARE(text("aux.rob_sizes", 0), "rob_16|" + memory + "|");
        QCOMPARE(text("aux.mispredict"), QString("mispredicts_pki|-|bp=simple,bp_miss_pct=5"));
        config.set(ParamId::BranchPredictor, 1); // TAGE has no miss-rate setting
        QCOMPARE(text("aux.mispredict"), QString("mispredicts_pki|-|bp=tage"));
        ErrorKind kind = ErrorKind::BadInput;
        QVERIFY(
            errorOf([&] { FeatureAssembler::keyFor(layout.block("param.rob"), 0, config); }, &kind)
                .contains("param.rob"));
        QCOMPARE(kind, ErrorKind::Usage);
        QVERIFY(
            !errorOf([&] { FeatureAssembler::keyFor(layout.block("rob"), 1, config); }).isEmpty());
    }

    // Every block of an assembled vector is what the layout's encoder makes of the GridBounds
    // series the block names, at the configuration's parameter values.
    void assemblerMapsBlocksToGridSeries() {
        const GridBounds::Result& result = kernelBounds();
        const GridSeriesSource source(result);
        const FeatureLayout layout = FeatureLayout::standard();
        const FeatureAssembler assembler(layout);
        const BoundsGrid grid = tinyGrid();
        std::mt19937_64 rng(7);
        std::set<std::vector<float>> robBlocks;
        bool pipesDiffer = false;
        for (int i = 0; i < 12; ++i) {
            const CoreConfig config = randomOnGrid(grid, rng);
            const std::vector<float> f = assembler.assemble(config, source);
            QCOMPARE(f.size(), layout.width());
            for (const float v : f)
                QVERIFY(std::isfinite(v));

            std::vector<float> params(layout.width(), -7.0f);
            layout.encodeParameters(config, params);
            int parameterBlocks = 0;
            for (const FeatureBlock& block : layout.blocks())
                if (block.kind == BlockKind::Parameter) {
                    ++parameterBlocks;
                    QVERIFY2(sameBits(sliceOf(layout, f, block.name),
                                      sliceOf(layout, params, block.name)),
                             block.name.c_str());
                }
            QCOMPARE(parameterBlocks, 20);

            const MemoryConfig memory = MemoryConfig::fromCoreConfig(config);
            const auto encoded = [&](const char* block, const GridSeries* series) {
                return expectedColumn(layout, layout.block(block), series->values);
            };
            const GridSeries* rob =
                findSeries(result, "rob", memory, {{ParamId::Rob, config.value(ParamId::Rob)}});
            QVERIFY(rob);
            QVERIFY(sameBits(sliceOf(layout, f, "rob"), encoded("rob", rob)));
            robBlocks.insert(encoded("rob", rob));
            const std::vector<std::pair<ParamId, double>> pipeSettings = {
                {ParamId::LsPipes, config.value(ParamId::LsPipes)},
                {ParamId::LoadPipes, config.value(ParamId::LoadPipes)}};
            const GridSeries* upper = findSeries(result, "pipes", std::nullopt, pipeSettings);
            const GridSeries* lower = findSeries(result, "pipes_lower", std::nullopt, pipeSettings);
            QVERIFY(upper && lower);
            pipesDiffer = pipesDiffer || upper->values != lower->values;
            QVERIFY(sameBits(sliceOf(layout, f, "pipes_upper"), encoded("pipes_upper", upper)));
            QVERIFY(sameBits(sliceOf(layout, f, "pipes_lower"), encoded("pipes_lower", lower)));
            const GridSeries* lq = findSeries(
                result, "lq", memory, {{ParamId::LoadQueue, config.value(ParamId::LoadQueue)}});
            QVERIFY(lq);
            QVERIFY(sameBits(sliceOf(layout, f, "lq"), encoded("lq", lq)));
            const GridSeries* execution = findSeries(result, "rob.execution", memory,
                                                     {{ParamId::Rob, config.value(ParamId::Rob)}});
            QVERIFY(execution);
            QVERIFY(sameBits(sliceOf(layout, f, "aux.latency_execution"),
                             encoded("aux.latency_execution", execution)));
            const GridSeries* mispredicts =
                config.branchPredictor() == BranchPredictorKind::Tage
                    ? findSeries(result, "mispredicts_pki", std::nullopt,
                                 {{ParamId::BranchPredictor, 1.0}})
                    : findSeries(result, "mispredicts_pki", std::nullopt,
                                 {{ParamId::BranchPredictor, 0.0},
                                  {ParamId::BpMissPct, config.bpMissPct()}});
            QVERIFY(mispredicts);
            QVERIFY(sameBits(sliceOf(layout, f, "aux.mispredict"),
                             encoded("aux.mispredict", mispredicts)));

            const auto robSizes = sliceOf(layout, f, "aux.rob_sizes");
            const auto sizes = FeatureLayout::auxRobSizes();
            QCOMPARE(robSizes.size(), sizes.size());
            for (std::size_t c = 0; c < sizes.size(); ++c) {
                const GridSeries* one =
                    findSeries(result, "rob_" + std::to_string(sizes[c]), memory, {});
                QVERIFY(one);
                QCOMPARE(one->values.size(), std::size_t(1));
                QCOMPARE(robSizes[c], one->values[0]);
            }
        }
        // The rob block really follows the configuration (two ROB sizes × two memories).
        QVERIFY(robBlocks.size() >= 2);
        // The best and the worst pipe allocation differ somewhere, so the blocks are not swapped.
        QVERIFY(pipesDiffer);
    }

    // A configuration off the grid the series were computed for is bad input naming the series.
    void offGridConfigurationNamesTheSeries() {
        const GridSeriesSource source(kernelBounds());
        const FeatureAssembler assembler(FeatureLayout::standard());
        std::mt19937_64 rng(8);
        CoreConfig config = randomOnGrid(tinyGrid(), rng);
        QVERIFY(errorOf([&] { assembler.assemble(config, source); }).isEmpty());
        config.set(ParamId::Rob, 256);
        ErrorKind kind = ErrorKind::Usage;
        QString error = errorOf([&] { assembler.assemble(config, source); }, &kind);
        QVERIFY2(error.contains("rob|") && error.contains("rob=256"), qPrintable(error));
        QCOMPARE(kind, ErrorKind::BadInput);
        config.set(ParamId::Rob, 64);
        config.set(ParamId::L1dKb, 128);
        kind = ErrorKind::Usage;
        error = errorOf([&] { assembler.minimumBoundCpi(config, source); }, &kind);
        QVERIFY2(error.contains("l1d_kb=128") && error.contains("no computed series"),
                 qPrintable(error));
        QCOMPARE(kind, ErrorKind::BadInput);
        config.set(ParamId::L1dKb, 64);
        config.set(ParamId::AluIssue, 3);
        error = errorOf([&] { assembler.assemble(config, source); });
        QVERIFY2(error.contains("alu_issue|-|alu_issue=3"), qPrintable(error));
    }

    // The min-of-bounds CPI by hand: per window the smallest of the ten resource bounds, then the
    // mean of the inverses.
    void minimumBoundCpiByHand() {
        const std::vector<std::string> expectedBlocks = {
            "rob",      "lq",          "sq",           "alu_issue",     "fp_issue",
            "ls_issue", "pipes_upper", "icache_fills", "fetch_buffers", "fetch_width"};
        QVERIFY(FeatureAssembler::resourceBlocks() == expectedBlocks);
        const GridBounds::Result& result = kernelBounds();
        const GridSeriesSource source(result);
        const FeatureAssembler assembler(FeatureLayout::standard());
        std::mt19937_64 rng(9);
        std::set<double> distinct;
        std::set<std::size_t> bindingResources;
        for (int i = 0; i < 10; ++i) {
            const CoreConfig config = randomOnGrid(tinyGrid(), rng);
            const MemoryConfig memory = MemoryConfig::fromCoreConfig(config);
            const auto setting = [&](ParamId id) {
                return std::vector<std::pair<ParamId, double>>{{id, config.value(id)}};
            };
            const std::vector<const GridSeries*> bounds = {
                findSeries(result, "rob", memory, setting(ParamId::Rob)),
                findSeries(result, "lq", memory, setting(ParamId::LoadQueue)),
                findSeries(result, "sq", memory, setting(ParamId::StoreQueue)),
                findSeries(result, "alu_issue", std::nullopt, setting(ParamId::AluIssue)),
                findSeries(result, "fp_issue", std::nullopt, setting(ParamId::FpIssue)),
                findSeries(result, "ls_issue", std::nullopt, setting(ParamId::LsIssue)),
                findSeries(result, "pipes", std::nullopt,
                           {{ParamId::LsPipes, config.value(ParamId::LsPipes)},
                            {ParamId::LoadPipes, config.value(ParamId::LoadPipes)}}),
                findSeries(result, "icache_fills", memory, setting(ParamId::IcacheFills)),
                findSeries(result, "fetch_buffers", memory, setting(ParamId::FetchBuffers)),
                findSeries(result, "fetch_width", std::nullopt, setting(ParamId::FetchWidth))};
            std::vector<double> minimum(bounds.front() ? bounds.front()->values.size() : 0, 1e300);
            std::vector<std::size_t> binding(minimum.size(), 0);
            QVERIFY(!minimum.empty());
            for (std::size_t b = 0; b < bounds.size(); ++b) {
                const GridSeries* s = bounds[b];
                QVERIFY(s);
                QCOMPARE(s->values.size(), minimum.size());
                for (std::size_t w = 0; w < minimum.size(); ++w)
                    if (double(s->values[w]) < minimum[w]) {
                        minimum[w] = s->values[w];
                        binding[w] = b;
                    }
            }
            bindingResources.insert(binding.begin(), binding.end());
            double sum = 0;
            for (const double ipc : minimum)
                sum += 1.0 / ipc;
            const double expected = sum / double(minimum.size());
            const double got = assembler.minimumBoundCpi(config, source);
            QVERIFY2(relativeDifference(got, expected) <= 1e-12,
                     qPrintable(QString("%1 vs %2").arg(got).arg(expected)));
            distinct.insert(got);
        }
        QVERIFY(distinct.size() >= 2);
        // The minimum is not always the same resource, so every series matters.
        qInfo("%zu of 10 resources bind in some window", bindingResources.size());
        QVERIFY(bindingResources.size() >= 3);
    }

    // Features assembled from a feature database equal those from series computed in memory,
    // within the database's quantisation.
    void storedSeriesGiveTheSameFeatures() {
        FeatureDatabase db = FeatureDatabase::openReadOnly(database());
        const FeatureLayout layout = FeatureLayout::standard();
        const FeatureAssembler assembler(layout);
        const BoundsGrid grid = tinyGrid();
        std::map<std::int64_t, std::string> traceOf;
        for (const auto& p : db.programs())
            traceOf[p.id] = p.sourceTrace;
        const auto regions = db.regions();
        QCOMPARE(regions.size(), std::size_t(7));
        std::mt19937_64 rng(10);
        double worst = 0;
        std::size_t compared = 0, zeros = 0;
        for (const auto& region : regions) {
            TraceReader reader(traceOf.at(region.programId));
            std::vector<TraceRecord> records;
            reader.readRegion(region.regionIndex, records);
            QCOMPARE(region.warmup, reader.info().regions[region.regionIndex].warmup);
            const GridSeriesSource computed(
                GridBounds::build(records, region.warmup, grid, kDatabaseWindow));
            const StoredRegionSeries stored = StoredRegionSeries::load(db, region.id);
            for (int i = 0; i < 6; ++i) {
                const CoreConfig config = randomOnGrid(grid, rng);
                const auto a = assembler.assemble(config, computed);
                const auto b = assembler.assemble(config, stored);
                for (std::size_t k = 0; k < a.size(); ++k) {
                    ++compared;
                    if (a[k] == 0 || b[k] == 0) {
                        QVERIFY2(a[k] == b[k], qPrintable(QString("region %1 feature %2: %3 vs %4")
                                                              .arg(region.id)
                                                              .arg(k)
                                                              .arg(a[k])
                                                              .arg(b[k])));
                        ++zeros;
                        continue;
                    }
                    const double d = relativeDifference(a[k], b[k]);
                    worst = std::max(worst, d);
                    QVERIFY2(d <= 5e-4, qPrintable(QString("region %1 feature %2: %3 vs %4")
                                                       .arg(region.id)
                                                       .arg(k)
                                                       .arg(a[k])
                                                       .arg(b[k])));
                }
                QVERIFY(relativeDifference(assembler.minimumBoundCpi(config, computed),
                                           assembler.minimumBoundCpi(config, stored)) <= 5e-4);
            }
        }
        qInfo("compared %zu features (%zu zero); largest relative difference %.3g", compared, zeros,
              worst);
        QVERIFY(compared > zeros);
        // Off the database's grid: bad input naming the database region and the series.
        StoredRegionSeries stored = StoredRegionSeries::load(db, regions[1].id);
        std::mt19937_64 rng2(3);
        CoreConfig config = randomOnGrid(grid, rng2);
        config.set(ParamId::LoadQueue, 96);
        ErrorKind kind = ErrorKind::Usage;
        const QString error = errorOf([&] { assembler.assemble(config, stored); }, &kind);
        QVERIFY2(error.contains("off the database's grid") && error.contains("lq=96") &&
                     error.contains("alpha region 1"),
                 qPrintable(error));
        QCOMPARE(kind, ErrorKind::BadInput);
    }

    void datasetFileRoundTrip() {
        const FeatureLayout layout = FeatureLayout::standard(2);
        DatasetSettings settings;
        settings.seed = 17;
        settings.holdOut = {"gamma"};
        settings.sources = R"({"traces":["a.ctrace"]})";
        settings.gridText = GridDescription::canonicalText(tinyGrid());
        settings.layoutJson = layout.toJson().dump();
        const auto path = file("roundtrip.dataset");
        std::vector<DatasetSample> written;
        std::mt19937_64 rng(12);
        std::uniform_real_distribution<float> u(-10.0f, 100.0f);
        const char* splits[] = {"train", "test", "held_out"};
        for (int i = 0; i < 9; ++i) {
            DatasetSample s;
            s.id = i * 3 + 1;
            s.program = i % 3 == 2 ? "gamma" : "alpha";
            s.regionIndex = static_cast<std::uint32_t>(i);
            s.split = splits[i % 3];
            s.config = randomOnGrid(tinyGrid(), rng);
            s.cpi = 0.5 + i * 0.25;
            s.minBoundCpi = 0.25 + i * 0.125;
            s.instructions = 5000 + static_cast<std::uint64_t>(i);
            s.features.resize(layout.width());
            for (float& v : s.features)
                v = u(rng);
            s.features[0] = -0.0f;
            s.features[1] = std::numeric_limits<float>::denorm_min();
            written.push_back(std::move(s));
        }
        {
            DatasetFile out = DatasetFile::openForWriting(path, settings);
            QCOMPARE(out.sampleCount(), std::size_t(0));
            out.write({written.begin(), written.begin() + 5});
        }
        QVERIFY(DatasetFile::isDataset(path));
        {
            // Reopened with the same settings: resumes.
            DatasetFile out = DatasetFile::openForWriting(path, settings);
            QCOMPARE(out.sampleCount(), std::size_t(5));
            out.write({written.begin() + 5, written.end()});
        }
        DatasetFile in = DatasetFile::openReadOnly(path);
        QCOMPARE(in.settings().seed, std::uint64_t(17));
        QVERIFY(in.settings().holdOut == std::vector<std::string>{"gamma"});
        QCOMPARE(in.settings().sources, settings.sources);
        QCOMPARE(in.settings().gridText, settings.gridText);
        QVERIFY(in.layout() == layout);
        QCOMPARE(in.sampleCount(), written.size());
        std::set<std::int64_t> ids;
        for (const auto& s : written)
            ids.insert(s.id);
        QVERIFY(in.sampleIds() == ids);
        const auto back = in.samples();
        QCOMPARE(back.size(), written.size());
        for (std::size_t i = 0; i < back.size(); ++i)
            QVERIFY2(sameSample(back[i], written[i]), qPrintable(QString("sample %1").arg(i)));
        const auto tests = in.samples({"test"});
        QCOMPARE(tests.size(), std::size_t(3));
        for (const auto& s : tests)
            QCOMPARE(s.split, std::string("test"));
        QCOMPARE(in.samples({"train", "held_out"}).size(), std::size_t(6));
        QVERIFY(in.samples({"nothing"}).empty());
    }

    void datasetFileRefusesOtherSettings() {
        DatasetSettings settings;
        settings.seed = 5;
        settings.holdOut = {"beta"};
        settings.sources = "{}";
        settings.gridText = GridDescription::canonicalText(tinyGrid());
        settings.layoutJson = FeatureLayout::standard(2).toJson().dump();
        const auto path = file("settings.dataset");
        DatasetFile::openForWriting(path, settings);
        DatasetFile::openForWriting(path, settings); // same settings: fine
        const auto refused = [&](const DatasetSettings& other, const char* word) {
            ErrorKind kind = ErrorKind::Usage;
            const QString error = errorOf([&] { DatasetFile::openForWriting(path, other); }, &kind);
            return error.contains(word) && kind == ErrorKind::BadInput;
        };
        DatasetSettings seed = settings;
        seed.seed = 6;
        QVERIFY(refused(seed, "seed"));
        DatasetSettings holdOut = settings;
        holdOut.holdOut = {"alpha"};
        QVERIFY(refused(holdOut, "hold-out"));
        holdOut.holdOut = {};
        QVERIFY(refused(holdOut, "hold-out"));
        DatasetSettings grid = settings;
        grid.gridText = GridDescription::canonicalText(defaultBoundsGrid());
        QVERIFY(refused(grid, "grid"));
        DatasetSettings layout = settings;
        layout.layoutJson = FeatureLayout::standard(3).toJson().dump();
        QVERIFY(refused(layout, "layout"));
        // The file is untouched by the refused attempts.
        QCOMPARE(DatasetFile::openReadOnly(path).settings().seed, std::uint64_t(5));
    }

    void datasetFileRejectsNonDatasets() {
        const auto readError = [&](const std::filesystem::path& path) {
            ErrorKind kind = ErrorKind::Usage;
            const QString error = errorOf([&] { DatasetFile::openReadOnly(path); }, &kind);
            return kind == ErrorKind::BadInput ? error : QString("(not bad input) ") + error;
        };
        QString error = readError(file("missing.dataset"));
        QVERIFY2(error.contains("no such dataset file"), qPrintable(error));
        const auto text = file("text.dataset");
        std::ofstream(text) << "id,cpi\n1,0.5\nthis is not a dataset\n";
        error = readError(text);
        QVERIFY2(error.contains("not an SQLite file"), qPrintable(error));
        QVERIFY(!DatasetFile::isDataset(text));
        // A feature database is SQLite, but not a dataset; neither read nor overwritten.
        const auto db = database();
        error = readError(db);
        QVERIFY2(error.contains("not a Concorde dataset"), qPrintable(error));
        QVERIFY(!DatasetFile::isDataset(db));
        DatasetSettings settings;
        settings.layoutJson = FeatureLayout::standard(2).toJson().dump();
        QVERIFY(errorOf([&] {
                    DatasetFile::openForWriting(db, settings);
                }).contains("not a Concorde dataset"));
        QVERIFY(errorOf([&] {
                    DatasetFile::openForWriting(text, settings);
                }).contains("refusing to overwrite"));
        FeatureDatabase::openReadOnly(db); // still a valid database
    }

    // Damaged sample rows are errors naming the sample, never crashes; other rows stay readable.
    void datasetFileDamagedSamples() {
        const FeatureLayout layout = FeatureLayout::standard(2);
        DatasetSettings settings;
        settings.layoutJson = layout.toJson().dump();
        const auto path = file("damaged.dataset");
        {
            DatasetFile out = DatasetFile::openForWriting(path, settings);
            std::vector<DatasetSample> samples;
            for (int i = 0; i < 4; ++i) {
                DatasetSample s;
                s.id = i;
                s.program = "p";
                s.split = i == 3 ? "test" : "train";
                s.cpi = 1.5;
                s.minBoundCpi = 1.0;
                s.features.assign(layout.width(), 0.5f);
                samples.push_back(s);
            }
            out.write(samples);
        }
        QCOMPARE(rawExec(path, "UPDATE samples SET features = substr(features, 1, 40) WHERE "
                               "id = 3"),
                 std::string());
        ErrorKind kind = ErrorKind::Usage;
        QString error = errorOf([&] { DatasetFile::openReadOnly(path).samples(); }, &kind);
        QVERIFY2(error.contains("sample 3"), qPrintable(error));
        QCOMPARE(kind, ErrorKind::BadInput);
        QCOMPARE(DatasetFile::openReadOnly(path).samples({"train"}).size(), std::size_t(3));
        // A blob of the wrong width (a dataset of another layout) is refused too.
        QCOMPARE(rawExec(path, "UPDATE samples SET features = (SELECT features FROM samples "
                               "WHERE id = 0) WHERE id = 3"),
                 std::string());
        QCOMPARE(DatasetFile::openReadOnly(path).samples().size(), std::size_t(4));
        QCOMPARE(rawExec(path, "UPDATE samples SET features = substr(features, 1, 16) || "
                               "substr(features, 21) WHERE id = 2"),
                 std::string());
        error = errorOf([&] { DatasetFile::openReadOnly(path).samples(); });
        QVERIFY2(error.contains("sample 2"), qPrintable(error));
        QCOMPARE(rawExec(path, "UPDATE samples SET config_json = '{' WHERE id = 1"), std::string());
        error = errorOf([&] { DatasetFile::openReadOnly(path).samples({"train"}); });
        QVERIFY2(error.contains("sample 1"), qPrintable(error));
        QCOMPARE(rawExec(path, "UPDATE samples SET cpi = 0 WHERE id = 0"), std::string());
        error = errorOf([&] { DatasetFile::openReadOnly(path).samples(); });
        QVERIFY2(error.contains("sample 0") && error.contains("positive"), qPrintable(error));
    }

    // `concorde dataset` from traces: counts, splits, resumption and labels.
    void datasetFromTraces() {
        const auto inputs = traces();
        const BoundsGrid grid = tinyGrid();
        const auto output = file("traces.dataset");
        DatasetBuilder::Options options;
        options.samples = 60;
        options.seed = 11;
        options.holdOut = {"beta"};
        options.jobs = 2;
        options.windowSize = kDatasetWindow;
        std::size_t reports = 0, lastDone = 0, toDo = 0; // calls are serialised
        const auto first = DatasetBuilder::fromTraces(
            inputs, grid, output, options, JobControl([&](const JobProgress& p) {
                ++reports;
                lastDone = p.done;
                toDo = p.total;
                QVERIFY(p.log.find(" done") != std::string::npos);
            }));
        QCOMPARE(first.written, std::size_t(60));
        QCOMPARE(first.existing, std::size_t(0));
        QCOMPARE(first.total, std::size_t(60));
        QCOMPARE(reports, first.regions);
        QCOMPARE(lastDone, std::size_t(60));
        QCOMPARE(toDo, std::size_t(60));

        std::vector<DatasetSample> before;
        {
            DatasetFile file = DatasetFile::openReadOnly(output);
            QCOMPARE(file.settings().seed, std::uint64_t(11));
            QVERIFY(file.settings().holdOut == std::vector<std::string>{"beta"});
            QVERIFY(file.layout() == FeatureLayout::standard());
            before = file.samples();
            QCOMPARE(before.size(), std::size_t(60));
            QCOMPARE(file.samples({"held_out"}).size(),
                     std::size_t(std::count_if(before.begin(), before.end(),
                                               [](const auto& s) { return s.program == "beta"; })));
        }
        std::map<std::string, int> splits;
        std::vector<std::vector<std::uint64_t>> lengths(2);
        for (std::size_t t = 0; t < inputs.size(); ++t) {
            TraceReader reader(inputs[t]);
            for (const auto& r : reader.info().regions)
                lengths[t].push_back(r.length);
        }
        for (std::size_t i = 0; i < before.size(); ++i) {
            const DatasetSample& s = before[i];
            QCOMPARE(s.id, std::int64_t(i));
            QVERIFY(s.program == "alpha" || s.program == "beta");
            const std::string expected = s.program == "beta"  ? "held_out"
                                         : s.regionIndex == 3 ? "test"
                                                              : "train";
            QCOMPARE(s.split, expected);
            ++splits[s.split];
            QVERIFY(s.config == RegionLabeler::randomConfig(grid, 11, s.program, s.regionIndex,
                                                            std::uint64_t(s.id)));
            QCOMPARE(s.instructions, lengths[s.program == "beta"].at(s.regionIndex));
            QVERIFY(s.cpi > 0 && s.minBoundCpi > 0);
            QCOMPARE(s.features.size(), FeatureLayout::standard().width());
            for (const float v : s.features)
                QVERIFY(std::isfinite(v));
        }
        QVERIFY2(splits["held_out"] > 0 && splits["test"] > 0 && splits["train"] > 0,
                 qPrintable(QString("held_out %1 test %2 train %3")
                                .arg(splits["held_out"])
                                .arg(splits["test"])
                                .arg(splits["train"])));

        // Asking for more only adds draws; the first 60 are untouched.
        options.samples = 80;
        const auto second = DatasetBuilder::fromTraces(inputs, grid, output, options);
        QCOMPARE(second.written, std::size_t(20));
        QCOMPARE(second.existing, std::size_t(60));
        QCOMPARE(second.total, std::size_t(80));
        const auto after = DatasetFile::openReadOnly(output).samples();
        QCOMPARE(after.size(), std::size_t(80));
        for (std::size_t i = 0; i < before.size(); ++i)
            QVERIFY2(sameSample(after[i], before[i]), qPrintable(QString("sample %1").arg(i)));
        const auto again = DatasetBuilder::fromTraces(inputs, grid, output, options);
        QCOMPARE(again.written, std::size_t(0));
        QCOMPARE(again.existing, std::size_t(80));

        // Labels, features and the baseline recomputed for one sample of each program.
        const FeatureAssembler assembler(FeatureLayout::standard());
        for (const char* program : {"alpha", "beta"}) {
            const auto s = std::find_if(after.begin() + 60, after.end(),
                                        [&](const auto& x) { return x.program == program; });
            const auto& sample =
                s != after.end() ? *s
                                 : *std::find_if(after.begin(), after.end(), [&](const auto& x) {
                                       return x.program == program;
                                   });
            TraceReader reader(inputs[sample.program == "beta"]);
            std::vector<TraceRecord> records;
            reader.readRegion(sample.regionIndex, records);
            const auto warmup =
                static_cast<std::size_t>(reader.info().regions[sample.regionIndex].warmup);
            const SimulationResult simulated =
                ReferenceSimulator::simulate(records, warmup, sample.config);
            QCOMPARE(sample.cpi, simulated.cpi());
            QCOMPARE(sample.instructions, simulated.instructions);
            const GridSeriesSource series(GridBounds::build(records, warmup, grid, kDatasetWindow));
            QVERIFY(sameBits(sample.features, assembler.assemble(sample.config, series)));
            QCOMPARE(sample.minBoundCpi, assembler.minimumBoundCpi(sample.config, series));
        }

        // A hold-out that is not a program of the inputs is a usage error; nothing is written.
        const auto other = file("unknown-holdout.dataset");
        options.holdOut = {"gamma"};
        ErrorKind kind = ErrorKind::BadInput;
        QString error =
            errorOf([&] { DatasetBuilder::fromTraces(inputs, grid, other, options); }, &kind);
        QVERIFY2(error.contains("gamma"), qPrintable(error));
        QCOMPARE(kind, ErrorKind::Usage);
        QVERIFY(!std::filesystem::exists(other));
        // Every program held out leaves nothing to train on.
        options.holdOut = {"alpha", "beta"};
        QVERIFY(
            !errorOf([&] { DatasetBuilder::fromTraces(inputs, grid, other, options); }).isEmpty());
        // Resuming with another seed is refused before anything is computed.
        options.holdOut = {"beta"};
        options.seed = 12;
        error = errorOf([&] { DatasetBuilder::fromTraces(inputs, grid, output, options); });
        QVERIFY2(error.contains("seed"), qPrintable(error));
    }

    // The band's calibration set: each sample keeps the predictions of the members that never
    // saw its program, samples with fewer than two are skipped, and too few samples fall back
    // to every member on every sample.
    void bandCalibrationUsesMembersThatNeverSawTheProgram() {
        std::vector<DatasetSample> samples(4);
        const char* programs[] = {"a", "b", "b", "a"};
        for (std::size_t j = 0; j < samples.size(); ++j) {
            samples[j].program = programs[j];
            samples[j].cpi = 1.0 + double(j);
        }
        // Member 0 saw both programs, members 1 and 2 only a, member 3 only b.
        const std::vector<std::set<std::string>> seen = {{"a", "b"}, {"a"}, {"a"}, {"b"}};
        Eigen::MatrixXf cpis(4, 4);
        for (Eigen::Index k = 0; k < 4; ++k)
            for (Eigen::Index j = 0; j < 4; ++j)
                cpis(k, j) = float(10 * (k + 1) + j);
        const auto set = ModelTraining::bandCalibrationSet(cpis, samples, seen, 2);
        QVERIFY(set.outOfBag);
        // Program b's samples (1 and 2) are unseen by members 1 and 2; program a's by member 3
        // alone, which is too few for a spread.
        QCOMPARE(set.simulated, (std::vector<double>{2.0, 3.0}));
        QCOMPARE(set.memberCpis[0], (std::vector<double>{21.0, 31.0}));
        QCOMPARE(set.memberCpis[1], (std::vector<double>{22.0, 32.0}));
        // Each entry says which sample it is, so its out-of-bag prediction can be scored.
        QCOMPARE(set.sampleIndex, (std::vector<std::size_t>{1, 2}));
        // Scored by the unseen members' mean: (21 + 31) / 2 = 26 against 2, (22 + 32) / 2 = 27
        // against 3.
        const AccuracyReport outOfBag = ModelTraining::outOfBagAccuracy(set, samples);
        QCOMPARE(outOfBag.size(), std::size_t(2));
        QVERIFY(std::abs(outOfBag.meanRelativeError() - (24.0 / 2 + 24.0 / 3) / 2) < 1e-12);
        const auto fallback = ModelTraining::bandCalibrationSet(cpis, samples, seen, 3);
        QVERIFY(!fallback.outOfBag);
        QCOMPARE(fallback.simulated.size(), std::size_t(4));
        QCOMPARE(fallback.memberCpis[3], (std::vector<double>{13.0, 23.0, 33.0, 43.0}));
        QCOMPARE(fallback.sampleIndex, (std::vector<std::size_t>{0, 1, 2, 3}));
        QVERIFY(ModelTraining::outOfBagAccuracy(fallback, samples).empty());
        QVERIFY_THROWS_EXCEPTION(
            ConcordeError, ModelTraining::bandCalibrationSet(cpis, samples, {{"a"}, {"b"}}, 2));
    }

    // Issue 17: an anchored ensemble trained on a real dataset. Members differ, the band is
    // calibrated on the test split to hold the fraction asked for (by construction of the
    // fitted quantile), every member's CPI is the bottleneck CPI times its factor, and the
    // ensemble survives a round trip through the database.
    void anchoredEnsembleTraining() {
        DatasetFile dataset = tinyDataset("ensemble.dataset", 80, 11, {"beta"});
        TrainingOptions training;
        training.hidden = {8};
        training.maxEpochs = 15;
        training.seed = 3;
        ModelTraining::EnsembleOptions ensemble;
        ensemble.members = 3;
        ensemble.output = CpiOutput::BottleneckAnchored;
        ensemble.bandCoverage = 0.75;
        const ModelTraining::Result result = ModelTraining::train({&dataset}, training, ensemble);
        const CpiModel& model = result.model;
        QCOMPARE(model.members.size(), std::size_t(3));
        QVERIFY(model.output == CpiOutput::BottleneckAnchored);
        QVERIFY(model.band.calibrated());
        QCOMPARE(model.band.coverage(), 0.75);
        QVERIFY(!(model.members[0].weights()[0] == model.members[1].weights()[0]));
        const std::vector<DatasetSample> test = dataset.samples({"test"});
        QVERIFY(!test.empty());
        QVERIFY(ModelTraining::bandCoverage(model, test) >= 0.75);
        QCOMPARE(model.metrics["ensemble"]["members"].get<int>(), 3);
        QCOMPARE(model.metrics["ensemble"]["output"].get<std::string>(),
                 std::string("bottleneck_anchored"));
        QCOMPARE(model.metrics["training"]["members"].size(), std::size_t(3));
        QVERIFY(model.metrics["accuracy"]["test"].contains("band_coverage"));
        // An out-of-bag score exactly when the band was calibrated out of bag, on its samples.
        const nlohmann::json& bandSet = model.metrics["ensemble"]["band_calibration_set"];
        const bool outOfBag = bandSet["kind"] == "test split, out-of-bag members";
        QCOMPARE(!result.outOfBag.empty(), outOfBag);
        QCOMPARE(model.metrics["accuracy"].contains("out_of_bag"), outOfBag);
        if (outOfBag)
            QCOMPARE(result.outOfBag.size(), bandSet["samples"].get<std::size_t>());

        // Member CPI = anchor × softplus(network): the anchor is the largest resource-alone CPI,
        // never above the min-of-bounds CPI.
        const Eigen::MatrixXf raw = ModelTraining::featureMatrix(test);
        const Eigen::MatrixXf members = model.memberPredictions(raw);
        const auto anchors = model.anchorColumns();
        const Eigen::MatrixXf normalised = model.normalizer.apply(raw);
        for (std::size_t j = 0; j < test.size(); ++j) {
            const auto col = static_cast<Eigen::Index>(j);
            const double anchor = CpiModel::anchorCpi(
                std::span<const float>(raw.col(col).data(), static_cast<std::size_t>(raw.rows())),
                anchors);
            QVERIFY(anchor <= test[j].minBoundCpi * (1 + 1e-6));
            for (std::size_t k = 0; k < 3; ++k) {
                const double factor =
                    model.members[k].predict(Eigen::VectorXf(normalised.col(col)));
                QVERIFY(std::abs(members(static_cast<Eigen::Index>(k), col) - anchor * factor) <=
                        1e-5 * anchor * factor);
            }
        }

        // Through the database: the same members, output and band, the same predictions.
        const auto path = file("ensemble.sqlite");
        {
            FeatureDatabase db = FeatureDatabase::openForWriting(path);
            db.writeModel(model);
            db.close();
        }
        FeatureDatabase db = FeatureDatabase::openReadOnly(path);
        const auto back = db.readModel();
        QVERIFY(back.has_value());
        QCOMPARE(back->members.size(), std::size_t(3));
        QVERIFY(back->output == CpiOutput::BottleneckAnchored);
        QCOMPARE(back->band.scale(), model.band.scale());
        QVERIFY(back->metrics == model.metrics);
        const std::vector<CpiBand> a = model.predictBands(raw), b = back->predictBands(raw);
        for (std::size_t j = 0; j < a.size(); ++j)
            QVERIFY(a[j].cpi == b[j].cpi && a[j].low == b[j].low && a[j].high == b[j].high);
        // A structure that disagrees with the weights is refused, naming the model.
        QCOMPARE(rawExec(path, "UPDATE models SET metrics_json = json_set(metrics_json, "
                               "'$.structure.members', 2)"),
                 std::string());
        FeatureDatabase again = FeatureDatabase::openReadOnly(path);
        const QString error = errorOf([&] { again.readModel(); });
        QVERIFY2(error.contains("members") && error.contains("model 'cpi'"), qPrintable(error));
    }

    // Issue 17 item 4: a composed ensemble that predicts a factor on each sample's min-of-bounds
    // CPI. Every member's CPI is that CPI times its network's output, a prediction without the
    // anchor is refused rather than guessed, the output kind survives the database, and the
    // precomputed tables, which have no per-window bounds, refuse the model by name.
    void minBoundAnchoredEnsembleTraining() {
        DatasetFile dataset = tinyDataset("min-bound.dataset", 80, 12, {"beta"});
        TrainingOptions training;
        training.hidden = {8};
        training.maxEpochs = 10;
        training.seed = 5;
        ModelTraining::EnsembleOptions ensemble;
        ensemble.members = 2;
        ensemble.output = CpiOutput::MinBoundAnchored;
        ensemble.composedUnits = 4;
        ensemble.composedOutputs = 2;
        const ModelTraining::Result result = ModelTraining::train({&dataset}, training, ensemble);
        const CpiModel& model = result.model;
        QVERIFY(model.needsMinBoundCpi());
        QCOMPARE(model.metrics["ensemble"]["output"].get<std::string>(),
                 std::string("min_bound_anchored"));

        const std::vector<DatasetSample> samples = dataset.samples({"train", "test", "held_out"});
        const Eigen::MatrixXf raw = ModelTraining::featureMatrix(samples);
        const std::vector<double> bounds = ModelTraining::minBoundCpis(samples);
        const Eigen::MatrixXf members = model.memberPredictions(raw, bounds);
        const Eigen::MatrixXf normalised = model.normalizer.apply(raw);
        for (std::size_t j = 0; j < samples.size(); ++j) {
            const auto col = static_cast<Eigen::Index>(j);
            QVERIFY(bounds[j] > 0);
            for (std::size_t k = 0; k < 2; ++k) {
                const double factor =
                    model.members[k].predict(Eigen::VectorXf(normalised.col(col)));
                const double expected = bounds[j] * factor;
                // Float arithmetic, and softplus outputs far below 1 on this tiny training set.
                QVERIFY(std::abs(members(static_cast<Eigen::Index>(k), col) - expected) <=
                        1e-4 * expected);
            }
        }
        // The accuracy report scores the anchored CPI: its mean error is that of these CPIs.
        const std::vector<DatasetSample> test = dataset.samples({"test"});
        const std::vector<CpiBand> bands = model.predictBands(ModelTraining::featureMatrix(test),
                                                              ModelTraining::minBoundCpis(test));
        double error = 0;
        for (std::size_t j = 0; j < test.size(); ++j)
            error += std::abs(bands[j].cpi / test[j].cpi - 1) / double(test.size());
        QVERIFY(std::abs(ModelTraining::evaluate(model, test).meanRelativeError() - error) <= 1e-9);

        ErrorKind kind = ErrorKind::BadInput;
        QString error2 = errorOf([&] { model.memberPredictions(raw); }, &kind);
        QVERIFY2(error2.contains("min-of-bounds"), qPrintable(error2));
        QCOMPARE(kind, ErrorKind::Usage);

        const auto path = file("min-bound.sqlite");
        {
            FeatureDatabase db = FeatureDatabase::openForWriting(path);
            db.writeModel(model);
            db.close();
        }
        FeatureDatabase db = FeatureDatabase::openReadOnly(path);
        const auto back = db.readModel();
        QVERIFY(back.has_value() && back->output == CpiOutput::MinBoundAnchored);
        const GridSeriesSource source(kernelBounds());
        kind = ErrorKind::Usage;
        const ParameterGrid grid(tinyGrid());
        error2 = errorOf([&] { DatabasePredictor::precompute(*back, grid, source); }, &kind);
        QVERIFY2(error2.contains("min-of-bounds") && error2.contains("evaluate --dataset"),
                 qPrintable(error2));
        QCOMPARE(kind, ErrorKind::BadInput);
    }

    // The bottleneck floor from training to the database: every member's CPI is the larger of
    // its network's CPI and the bottleneck CPI, the metrics say so, the flag survives a round
    // trip, and an unknown floor in a stored model is refused by name.
    void bottleneckFloorFromTrainingToTheDatabase() {
        DatasetFile dataset = tinyDataset("floor.dataset", 60, 13);
        TrainingOptions training;
        training.hidden = {8};
        training.maxEpochs = 5;
        training.seed = 4;
        ModelTraining::EnsembleOptions ensemble;
        ensemble.members = 2;
        ensemble.bottleneckFloor = true;
        const CpiModel model = ModelTraining::train({&dataset}, training, ensemble).model;
        QVERIFY(model.bottleneckFloor);
        QCOMPARE(model.metrics["ensemble"]["floor"].get<std::string>(), std::string("bottleneck"));
        CpiModel unfloored = model;
        unfloored.bottleneckFloor = false;
        const std::vector<DatasetSample> samples = dataset.samples({"train", "test", "held_out"});
        const Eigen::MatrixXf raw = ModelTraining::featureMatrix(samples);
        const Eigen::MatrixXf floored = model.memberPredictions(raw);
        const Eigen::MatrixXf free = unfloored.memberPredictions(raw);
        const auto anchors = model.anchorColumns();
        std::size_t bound = 0;
        for (Eigen::Index j = 0; j < raw.cols(); ++j) {
            const double anchor = CpiModel::anchorCpi(
                std::span<const float>(raw.col(j).data(), static_cast<std::size_t>(raw.rows())),
                anchors);
            for (Eigen::Index k = 0; k < 2; ++k) {
                QCOMPARE(double(floored(k, j)),
                         std::max(double(free(k, j)), double(float(anchor))));
                bound += free(k, j) < anchor;
            }
        }
        qInfo("the floor bound %zu of %zu member predictions", bound, std::size_t(2 * raw.cols()));

        const auto path = file("floor.sqlite");
        {
            FeatureDatabase db = FeatureDatabase::openForWriting(path);
            db.writeModel(model);
            db.writeModel([&] {
                CpiModel other = unfloored;
                other.name = "free";
                return other;
            }());
            db.close();
        }
        {
            FeatureDatabase db = FeatureDatabase::openReadOnly(path);
            QVERIFY(db.readModel("cpi")->bottleneckFloor);
            QVERIFY(!db.readModel("free")->bottleneckFloor);
        }
        QCOMPARE(rawExec(path, "UPDATE models SET metrics_json = json_set(metrics_json, "
                               "'$.structure.floor', 'ceiling') WHERE name = 'cpi'"),
                 std::string());
        FeatureDatabase db = FeatureDatabase::openReadOnly(path);
        const QString error = errorOf([&] { db.readModel("cpi"); });
        QVERIFY2(error.contains("unknown floor 'ceiling'") && error.contains("model 'cpi'"),
                 qPrintable(error));
    }

    // The LQ bound through commit changes what the lq features mean, not their layout, so a
    // model knows which kind it trained on and refuses features of the other kind by name:
    // datasets record it, pooling both kinds is refused, training stores it in the model, the
    // database keeps it, and predicting from a database of the other kind is a clear error.
    void loadQueueModelFromFeaturesToTheModel() {
        QVERIFY(AnalysisRevision::current().loadQueueThroughCommit);
        AnalysisRevision loadsOnlyAnalysis = AnalysisRevision::current();
        loadsOnlyAnalysis.loadQueueThroughCommit = false;
        DatasetFile loadsOnly = tinyDataset("lq-loads-only.dataset", 40, 21, {}, loadsOnlyAnalysis);
        DatasetFile committed = tinyDataset("lq-through-commit.dataset", 40, 21);
        QVERIFY(!loadsOnly.settings().loadQueueThroughCommit());
        QVERIFY(committed.settings().loadQueueThroughCommit());
        // The same draws and labels; only features differ, and only some of them.
        const auto a = loadsOnly.samples(), b = committed.samples();
        QCOMPARE(a.size(), b.size());
        std::size_t differing = 0;
        for (std::size_t i = 0; i < a.size(); ++i) {
            QVERIFY(a[i].config == b[i].config);
            QCOMPARE(a[i].cpi, b[i].cpi);
            differing += !sameBits(a[i].features, b[i].features);
        }
        QVERIFY2(differing > 0, "the LQ bound through commit changed no feature");

        TrainingOptions training;
        training.hidden = {8};
        training.maxEpochs = 2;
        const QString pooled = errorOf([&] {
            ModelTraining::train({&loadsOnly, &committed}, training);
        });
        QVERIFY2(pooled.contains("another LQ bound") && pooled.contains("cannot be pooled"),
                 qPrintable(pooled));
        CpiModel model = ModelTraining::train({&committed}, training).model;
        QVERIFY(model.loadQueueThroughCommit);
        QVERIFY(!ModelTraining::train({&loadsOnly}, training).model.loadQueueThroughCommit);

        const auto path = file("lq-model.sqlite");
        {
            FeatureDatabase db = FeatureDatabase::openForWriting(path);
            db.writeModel(model);
            db.close();
        }
        QVERIFY(FeatureDatabase::openReadOnly(path).readModel("cpi")->loadQueueThroughCommit);
        QCOMPARE(rawExec(path, "UPDATE models SET metrics_json = json_set(metrics_json, "
                               "'$.structure.load_queue_model', 'stores_too')"),
                 std::string());
        const QString unknown =
            errorOf([&] { FeatureDatabase::openReadOnly(path).readModel("cpi"); });
        QVERIFY2(unknown.contains("unknown load_queue_model 'stores_too'"), qPrintable(unknown));

        // The pipeline database has the bound through commit (the default): a model trained on
        // loads-only features cannot predict from it.
        FeatureDatabase db = FeatureDatabase::openReadOnly(database());
        QVERIFY(db.buildSettings().analysis.loadQueueThroughCommit);
        model.loadQueueThroughCommit = false;
        const QString refused = errorOf([&] { DatabasePredictor(db, model); });
        QVERIFY2(refused.contains("load queue through commit") &&
                     refused.contains("--load-queue-model loads-only"),
                 qPrintable(refused));
        QVERIFY(errorOf([&] { LabelEvaluator::evaluate(db, model); }).contains("loads-only"));
        model.loadQueueThroughCommit = true;
        std::mt19937_64 rng(3);
        QVERIFY(DatabasePredictor(db, model).regionCpi(
                    0, randomOnGrid(db.buildSettings().grid, rng)) > 0);
    }

    void linearBaselineRecoversLinearFunction() {
        const Eigen::MatrixXf x = randomMatrix(5, 40, 13);
        Eigen::VectorXd w(5);
        w << 0.5, -0.3, 0.2, 0.1, -0.4;
        const double b = 3.0;
        const auto target = [&](const Eigen::MatrixXf& inputs) {
            Eigen::VectorXd y = inputs.cast<double>().transpose() * w;
            y.array() += b;
            return Eigen::VectorXf(y.cast<float>());
        };
        const Eigen::VectorXf y = target(x);
        QVERIFY(y.minCoeff() > 0);
        const LinearBaseline model = LinearBaseline::fit(x, y, 0.0);
        QCOMPARE(model.features(), 5);
        const nlohmann::json json = model.toJson();
        QVERIFY(std::abs(json["bias"].get<double>() - b) <= 1e-4);
        for (int i = 0; i < 5; ++i)
            QVERIFY2(std::abs(json["weights"][i].get<double>() - w(i)) <= 1e-4,
                     qPrintable(QString("weight %1").arg(i)));
        const Eigen::MatrixXf fresh = randomMatrix(5, 20, 14);
        const Eigen::VectorXf predicted = model.predict(fresh);
        const Eigen::VectorXf truth = target(fresh);
        for (Eigen::Index i = 0; i < truth.size(); ++i)
            QVERIFY(std::abs(predicted(i) - truth(i)) <= 1e-4 * truth(i));
        // JSON round trip: the same predictions, the same JSON.
        const LinearBaseline back = LinearBaseline::fromJson(nlohmann::json::parse(json.dump()));
        QVERIFY(back.toJson() == json);
        QVERIFY(back.predict(fresh) == predicted);
        QVERIFY(errorOf([&] { back.predict(randomMatrix(4, 2, 1)); }).contains("expects 5"));
        ErrorKind kind = ErrorKind::Usage;
        QVERIFY(!errorOf(
                     [] {
                         LinearBaseline::fromJson(nlohmann::json{{"bias", 1}});
                     },
                     &kind)
                     .isEmpty());
        QCOMPARE(kind, ErrorKind::BadInput);
        QVERIFY(LinearBaseline().empty());
    }

    void accuracyReportByHand() {
        const auto config = [](double rob) {
            CoreConfig c;
            c.set(ParamId::Rob, rob);
            return c;
        };
        AccuracyReport report;
        //            program  config       truth model minBound linear   → errors model / min / lin
        report.add({"a", config(64), 2.0, 2.5, 1.0, 2.3});   // 0.25 / 0.5  / 0.15
        report.add({"a", config(128), 4.0, 4.2, 3.0, 4.0});  // 0.05 / 0.25 / 0
        report.add({"b", config(64), 1.0, 0.98, 0.5, 1.25}); // 0.02 / 0.5  / 0.25
        report.add({"b", config(128), 5.0, 6.0, 4.0, 5.25}); // 0.2  / 0.2  / 0.05
        QCOMPARE(report.size(), std::size_t(4));
        QCOMPARE(report.meanRelativeError(), 0.13);
        QCOMPARE(report.fractionOver10Percent(), 0.5);
        nlohmann::json json = report.toJson();
        QCOMPARE(json["samples"].get<int>(), 4);
        QCOMPARE(json["mean_rel_error"].get<double>(), 0.13);
        QCOMPARE(json["frac_over_10pct"].get<double>(), 0.5);
        QCOMPARE(json["max_rel_error"].get<double>(), 0.25);
        QCOMPARE(json["p90_rel_error"].get<double>(), 0.25);
        QCOMPARE(json["per_program"]["a"]["samples"].get<int>(), 2);
        QCOMPARE(json["per_program"]["a"]["mean_rel_error"].get<double>(), 0.15);
        QCOMPARE(json["per_program"]["a"]["frac_over_10pct"].get<double>(), 0.5);
        QCOMPARE(json["per_program"]["b"]["mean_rel_error"].get<double>(), 0.11);
        QCOMPARE(json["per_program"]["b"]["max_rel_error"].get<double>(), 0.2);
        QCOMPARE(json["per_parameter"]["rob"]["64"]["samples"].get<int>(), 2);
        QCOMPARE(json["per_parameter"]["rob"]["64"]["mean_rel_error"].get<double>(), 0.135);
        QCOMPARE(json["per_parameter"]["rob"]["128"]["mean_rel_error"].get<double>(), 0.125);
        QCOMPARE(json["per_parameter"]["rob"].size(), std::size_t(2));
        QCOMPARE(json["per_parameter"].size(), kParamCount);
        QCOMPARE(json["per_parameter"]["l1d_kb"].size(), std::size_t(1));
        QCOMPARE(json["per_parameter"]["l1d_kb"].begin()->at("samples").get<int>(), 4);
        auto& minBound = json["baselines"]["min_of_bounds"];
        QCOMPARE(minBound["mean_rel_error"].get<double>(), 0.3625);
        QCOMPARE(minBound["frac_over_10pct"].get<double>(), 1.0);
        QCOMPARE(minBound["per_program"]["b"]["mean_rel_error"].get<double>(), 0.35);
        QVERIFY(!minBound.contains("per_parameter"));
        auto& linear = json["baselines"]["linear"];
        QCOMPARE(linear["mean_rel_error"].get<double>(), 0.1125);
        QCOMPARE(linear["frac_over_10pct"].get<double>(), 0.5);
        QCOMPARE(linear["per_program"]["a"]["mean_rel_error"].get<double>(), 0.075);
        const QString text = QString::fromStdString(report.toText("test"));
        QVERIFY2(text.contains("4 samples") && text.contains("13.00 %"), qPrintable(text));
        // Without a linear prediction for every entry there is no linear baseline.
        report.add({"c", config(64), 2.0, 2.0, 2.0, 0.0});
        nlohmann::json partial = report.toJson();
        QVERIFY(!partial["baselines"].contains("linear"));
        QCOMPARE(partial["mean_rel_error"].get<double>(), 0.104);
        QCOMPARE(partial["per_program"]["c"]["mean_rel_error"].get<double>(), 0.0);
    }

    void modelRoundTripThroughDatabase() {
        const auto path = file("models.sqlite");
        CpiModel model;
        model.name = "tiny";
        model.layout = FeatureLayout::standard();
        const auto width = static_cast<Eigen::Index>(model.layout.width());
        Eigen::MatrixXf raw = randomMatrix(width, 30, 15) * 3.0f;
        raw.row(4).setConstant(2.0f); // a constant feature: scale 1
        model.normalizer = FeatureNormalizer::fit(raw);
        model.members = {Mlp({static_cast<int>(width), 8, 1}, 16)};
        Eigen::VectorXf targets(30);
        for (int i = 0; i < 30; ++i)
            targets(i) = 1.0f + 0.05f * float(i);
        model.linear = LinearBaseline::fit(model.normalizer.apply(raw), targets);
        model.metrics = {{"train", {{"mean_rel_error", 0.0625}, {"samples", 30}}},
                         {"note", "unit test"}};
        {
            FeatureDatabase db = FeatureDatabase::openForWriting(path);
            QVERIFY(!db.readModel().has_value());
            QVERIFY(db.writeModel(model) > 0);
            CpiModel other = model;
            other.name = "other";
            other.linear = LinearBaseline();
            db.writeModel(other);
            db.writeModel(model); // replaces "tiny"
            QCOMPARE(db.models().size(), std::size_t(2));
            CpiModel broken = model;
            broken.name = "broken";
            broken.members = {Mlp({static_cast<int>(width) - 1, 8, 1}, 1)};
            ErrorKind kind = ErrorKind::Usage;
            QVERIFY(errorOf([&] { db.writeModel(broken); }, &kind).contains("disagree"));
            QCOMPARE(kind, ErrorKind::BadInput);
            QCOMPARE(db.models().size(), std::size_t(2));
            db.close();
        }
        FeatureDatabase db = FeatureDatabase::openReadOnly(path);
        const auto back = db.readModel("tiny");
        QVERIFY(back.has_value());
        QCOMPARE(back->name, std::string("tiny"));
        QVERIFY(back->layout == model.layout);
        QVERIFY(back->normalizer.mean() == model.normalizer.mean());
        QVERIFY(back->normalizer.scale() == model.normalizer.scale());
        QVERIFY(back->members.front().layerSizes() == model.members.front().layerSizes());
        for (std::size_t l = 0; l < model.members.front().weights().size(); ++l) {
            QVERIFY(back->members.front().weights()[l] == model.members.front().weights()[l]);
            QVERIFY(back->members.front().biases()[l] == model.members.front().biases()[l]);
        }
        QVERIFY(!back->linear.empty());
        QVERIFY(back->linear.toJson() == model.linear.toJson());
        QVERIFY(back->metrics == model.metrics);
        const Eigen::MatrixXf probe = randomMatrix(width, 5, 16) * 3.0f;
        QVERIFY(back->predict(probe) == model.predict(probe));
        const Eigen::VectorXf column = probe.col(0);
        QCOMPARE(back->predict(std::span<const float>(column.data(), std::size_t(width))),
                 model.predict(std::span<const float>(column.data(), std::size_t(width))));
        // The newest model when no name is given; "other" was stored without a baseline.
        QCOMPARE(db.readModel()->name, std::string("tiny"));
        QVERIFY(db.readModel("other")->linear.empty());
        QVERIFY(!db.readModel("nonexistent").has_value());

        const auto damaged = file("models-damaged.sqlite");
        std::filesystem::copy_file(path, damaged);
        QCOMPARE(flipBlobByte(damaged, "models", "weights", "name = 'tiny'"), std::string());
        FeatureDatabase bad = FeatureDatabase::openReadOnly(damaged);
        ErrorKind kind = ErrorKind::Usage;
        const QString error = errorOf([&] { bad.readModel("tiny"); }, &kind);
        QVERIFY2(error.contains("model 'tiny'") && error.contains("models-damaged.sqlite"),
                 qPrintable(error));
        QCOMPARE(kind, ErrorKind::BadInput);
        QVERIFY(bad.readModel("other").has_value());
        QCOMPARE(rawExec(damaged, "UPDATE models SET normalisation_json = '{\"mean\": [1' WHERE "
                                  "name = 'other'"),
                 std::string());
        QVERIFY(errorOf([&] { bad.readModel("other"); }).contains("model 'other'"));
    }

    // Block-precomputed predictions on stored data equal the plain forward pass on assembled
    // features; programs weigh their regions by length.
    void databasePredictionsMatchForwardPass() {
        FeatureDatabase db = FeatureDatabase::openReadOnly(database());
        const CpiModel model = randomModel(db);
        const FeatureAssembler assembler(model.layout);
        std::atomic<std::size_t> progressCalls{0}; // called from worker threads
        const DatabasePredictor predictor(db, model, std::vector<std::string>{},
                                          JobControl([&](const JobProgress& p) {
                                              ++progressCalls;
                                              QCOMPARE(p.total, std::size_t(7));
                                          }));
        QCOMPARE(progressCalls.load(), std::size_t(7));
        QVERIFY(predictor.programs() == std::vector<std::string>({"alpha", "beta"}));
        const auto rows = db.regions();
        QCOMPARE(predictor.regions().size(), rows.size());
        std::vector<StoredRegionSeries> series;
        for (std::size_t r = 0; r < rows.size(); ++r) {
            QCOMPARE(predictor.regions()[r].regionId, rows[r].id);
            QCOMPARE(predictor.regions()[r].length, rows[r].length);
            series.push_back(StoredRegionSeries::load(db, rows[r].id));
        }
        const BoundsGrid grid = db.buildSettings().grid;
        std::mt19937_64 rng(17);
        std::vector<CoreConfig> configs;
        for (int i = 0; i < 24; ++i)
            configs.push_back(randomOnGrid(grid, rng));
        double worst = 0;
        std::set<double> distinct;
        for (std::size_t r = 0; r < rows.size(); ++r) {
            std::vector<double> batched(configs.size());
            predictor.regionCpi(r, configs, batched);
            for (std::size_t i = 0; i < configs.size(); ++i) {
                const double plain = model.predict(assembler.assemble(configs[i], series[r]));
                const double fast = predictor.regionCpi(r, configs[i]);
                QVERIFY(plain > 0);
                const double d = relativeDifference(fast, plain);
                worst = std::max(worst, d);
                QVERIFY2(d <= 1e-5, qPrintable(QString("region %1 config %2: %3 vs %4")
                                                   .arg(r)
                                                   .arg(i)
                                                   .arg(fast)
                                                   .arg(plain)));
                QVERIFY(relativeDifference(batched[i], fast) <= 1e-6);
                distinct.insert(fast);
            }
        }
        qInfo("largest relative difference from the plain forward pass: %.3g", worst);
        QVERIFY(distinct.size() > configs.size()); // predictions do vary

        for (const std::string program : {"alpha", "beta"}) {
            std::vector<double> batched(configs.size());
            predictor.programCpi(program, configs, batched);
            for (std::size_t i = 0; i < configs.size(); ++i) {
                double weighted = 0, total = 0;
                for (std::size_t r = 0; r < rows.size(); ++r)
                    if (predictor.regions()[r].program == program) {
                        weighted += double(rows[r].length) * predictor.regionCpi(r, configs[i]);
                        total += double(rows[r].length);
                    }
                const double cpi = predictor.programCpi(program, configs[i]);
                QVERIFY(relativeDifference(cpi, weighted / total) <= 1e-12);
                QVERIFY(relativeDifference(batched[i], cpi) <= 1e-6);
            }
        }
        QCOMPARE(predictor.regionsOf("alpha").size(), std::size_t(4));
        QCOMPARE(predictor.regionsOf("beta").size(), std::size_t(3));

        // Off the grid: bad input naming the parameter.
        CoreConfig off = configs.front();
        off.set(ParamId::IcacheFills, 4);
        ErrorKind kind = ErrorKind::Usage;
        QString error = errorOf([&] { predictor.regionCpi(0, off); }, &kind);
        QVERIFY2(error.contains("icache_fills"), qPrintable(error));
        QCOMPARE(kind, ErrorKind::BadInput);
        off = configs.front();
        off.set(ParamId::Rob, 256);
        kind = ErrorKind::Usage;
        error = errorOf([&] { predictor.programCpi("beta", off); }, &kind);
        QVERIFY2(error.contains("'rob'"), qPrintable(error));
        QCOMPARE(kind, ErrorKind::BadInput);

        // Unknown programs are usage errors listing the known ones.
        kind = ErrorKind::BadInput;
        error = errorOf([&] { predictor.programCpi("gamma", configs.front()); }, &kind);
        QVERIFY2(error.contains("gamma") && error.contains("alpha"), qPrintable(error));
        QCOMPARE(kind, ErrorKind::Usage);
        kind = ErrorKind::BadInput;
        error = errorOf([&] { DatabasePredictor unknown(db, model, {"gamma"}); }, &kind);
        QVERIFY2(error.contains("gamma") && error.contains("beta"), qPrintable(error));
        QCOMPARE(kind, ErrorKind::Usage);

        // Loading one program gives the same predictions for it.
        const DatabasePredictor betaOnly(db, model, {"beta"});
        QVERIFY(betaOnly.programs() == std::vector<std::string>{"beta"});
        QCOMPARE(betaOnly.regions().size(), std::size_t(3));
        for (const auto& c : configs)
            QCOMPARE(betaOnly.programCpi("beta", c), predictor.programCpi("beta", c));
        QVERIFY(!errorOf([&] { betaOnly.programCpi("alpha", configs.front()); }).isEmpty());
        // A model whose parts disagree is refused.
        CpiModel broken = model;
        broken.members = {Mlp({static_cast<int>(model.layout.width()) + 1, 8, 1}, 1)};
        QVERIFY(errorOf([&] { DatabasePredictor refused(db, broken); }).contains("disagree"));
    }
};

QTEST_GUILESS_MAIN(ModelPipelineTest)
#include "ModelPipelineTest.moc"
