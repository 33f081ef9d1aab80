// The block-precomputed first layer predicts exactly what the plain forward pass predicts.
#include "common/ConcordeError.h"
#include "features/FeatureLayout.h"
#include "ml/BlockPrecomputedMlp.h"
#include "ml/MonotoneConstraints.h"
#include "ml/MonotoneEnvelope.h"

#include <QtTest>
#include <random>
#include <set>

using namespace concorde;

namespace {

// Features of a block that depend only on the block's own parameters (as real bound series do):
// a hash of the block name and those parameter values seeds the numbers.
void syntheticFeatures(const FeatureBlock& block, const CoreConfig& config, std::span<float> out) {
    std::uint64_t h = std::hash<std::string>{}(block.name);
    for (ParamId id : block.params)
        h = h * 1000003u ^ std::hash<double>{}(config.value(id));
    std::mt19937_64 rng(h);
    for (float& v : out)
        v = static_cast<float>(double(rng() >> 11) / 9007199254740992.0 * 4.0);
}

ParameterGrid smallGrid() {
    // Two or three values per parameter keep the tables small while every block still has
    // several combinations.
    std::map<ParamId, std::vector<double>> overrides;
    for (const auto& spec : ParameterSpace::all())
        overrides[spec.id] =
            spec.grid.size() > 2
                ? std::vector<double>{spec.grid.front(), spec.grid[spec.grid.size() / 2],
                                      spec.grid.back()}
                : spec.grid;
    return ParameterGrid(overrides);
}

CoreConfig randomOnGrid(const ParameterGrid& grid, std::mt19937_64& rng) {
    CoreConfig config;
    for (const auto& spec : ParameterSpace::all()) {
        const auto& values = grid.values(spec.id);
        config.set(spec.id, values[rng() % values.size()]);
    }
    return config;
}

Eigen::VectorXf fullVector(const FeatureLayout& layout, const CoreConfig& config) {
    Eigen::VectorXf x(static_cast<Eigen::Index>(layout.width()));
    for (const FeatureBlock& block : layout.blocks())
        syntheticFeatures(block, config, std::span<float>(x.data() + block.offset, block.width));
    return x;
}

/// A normaliser fitted on 64 synthetic vectors at random grid configurations.
FeatureNormalizer normalizerOn(const FeatureLayout& layout, const ParameterGrid& grid,
                               std::mt19937_64& rng) {
    Eigen::MatrixXf sample(static_cast<Eigen::Index>(layout.width()), 64);
    for (int s = 0; s < 64; ++s)
        sample.col(s) = fullVector(layout, randomOnGrid(grid, rng));
    return FeatureNormalizer::fit(sample);
}

CpiModel modelOf(const FeatureLayout& layout, const FeatureNormalizer& normalizer,
                 std::vector<Mlp> members) {
    CpiModel model;
    model.layout = layout;
    model.normalizer = normalizer;
    model.members = std::move(members);
    return model;
}

} // namespace

class BlockPrecomputedTest : public QObject {
    Q_OBJECT

private slots:
    void matchesPlainForwardPass() {
        const FeatureLayout layout = FeatureLayout::standard(4);
        const ParameterGrid grid = smallGrid();
        std::mt19937_64 rng(3);
        // A normaliser fitted on real-looking (synthetic) vectors, and a random network.
        const FeatureNormalizer normalizer = normalizerOn(layout, grid, rng);
        const Mlp model({static_cast<int>(layout.width()), 48, 24, 1}, 9);
        const BlockPrecomputedMlp fast(modelOf(layout, normalizer, {model}), grid,
                                       syntheticFeatures);
        QVERIFY(fast.tableFloats() > 0);

        std::vector<CoreConfig> configs;
        for (int i = 0; i < 300; ++i)
            configs.push_back(randomOnGrid(grid, rng));
        std::vector<double> batched(configs.size());
        fast.predict(configs, batched);
        double worst = 0;
        for (std::size_t i = 0; i < configs.size(); ++i) {
            const double plain =
                model.predict(Eigen::VectorXf(normalizer.apply(fullVector(layout, configs[i]))));
            const double single = fast.predict(configs[i]);
            worst = std::max(worst, std::abs(single - plain) / plain);
            // Batched and single evaluation differ only by float rounding (GEMM vs GEMV).
            QVERIFY(std::abs(batched[i] - single) <= 1e-6 * single);
        }
        qInfo("largest relative difference from the plain forward pass: %.3g", worst);
        QVERIFY2(worst <= 1e-5, qPrintable(QString::number(worst)));
    }

    void offGridConfigurationIsAnError() {
        const FeatureLayout layout = FeatureLayout::standard(2);
        const ParameterGrid grid = smallGrid();
        const Mlp model({static_cast<int>(layout.width()), 8, 1}, 1);
        Eigen::MatrixXf sample =
            Eigen::MatrixXf::Random(static_cast<Eigen::Index>(layout.width()), 4);
        const BlockPrecomputedMlp fast(modelOf(layout, FeatureNormalizer::fit(sample), {model}),
                                       grid, syntheticFeatures);
        CoreConfig config;
        std::mt19937_64 rng(1);
        config = randomOnGrid(grid, rng);
        config.applyAssignment("rob=100"); // in range, not on this grid
        try {
            fast.predict(config);
            QFAIL("an off-grid ROB size was accepted");
        } catch (const ConcordeError& e) {
            QVERIFY2(QString(e.what()).contains("rob"), e.what());
        }
        const Mlp wrongWidth({10, 4, 1}, 1);
        QVERIFY_THROWS_EXCEPTION(
            ConcordeError,
            BlockPrecomputedMlp(modelOf(layout, FeatureNormalizer::fit(sample), {wrongWidth}), grid,
                                syntheticFeatures));
    }

    // An anchored ensemble: the stacked first layers, the folded anchor maxima and the band
    // give what the plain model gives on the assembled vector, and the anchor is the largest
    // resource-alone CPI of that vector.
    void anchoredEnsembleMatchesPlainModel() {
        const FeatureLayout layout = FeatureLayout::standard(4);
        const ParameterGrid grid = smallGrid();
        std::mt19937_64 rng(5);
        CpiModel model = modelOf(layout, normalizerOn(layout, grid, rng),
                                 {Mlp({static_cast<int>(layout.width()), 32, 16, 1}, 1),
                                  Mlp({static_cast<int>(layout.width()), 32, 16, 1}, 2),
                                  Mlp({static_cast<int>(layout.width()), 32, 16, 1}, 3)});
        model.output = CpiOutput::BottleneckAnchored;
        model.band = BandCalibration(2.0, 0.01, 0.8);
        model.check("test");
        const std::vector<std::size_t> anchors = model.anchorColumns();
        QCOMPARE(anchors.size(), std::size_t(10)); // the ten resource blocks
        const BlockPrecomputedMlp fast(model, grid, syntheticFeatures);
        QCOMPARE(fast.members(), std::size_t(3));

        std::vector<CoreConfig> configs;
        for (int i = 0; i < 200; ++i)
            configs.push_back(randomOnGrid(grid, rng));
        std::vector<CpiBand> batched(configs.size());
        fast.predictBands(configs, batched);
        std::set<std::size_t> anchorsThatBound;
        for (std::size_t i = 0; i < configs.size(); ++i) {
            const Eigen::VectorXf raw = fullVector(layout, configs[i]);
            const std::span<const float> rawSpan(raw.data(), static_cast<std::size_t>(raw.size()));
            const CpiBand plain = model.predictBand(rawSpan);
            const CpiBand single = fast.predictBand(configs[i]);
            QVERIFY2(std::abs(single.cpi - plain.cpi) <= 1e-5 * plain.cpi,
                     qPrintable(QString("%1 vs %2").arg(single.cpi).arg(plain.cpi)));
            // The band's ends amplify the members' float rounding by the exponential.
            QVERIFY2(std::abs(single.low - plain.low) <= 1e-4 * plain.low,
                     qPrintable(QString("%1 vs %2").arg(single.low).arg(plain.low)));
            QVERIFY2(std::abs(single.high - plain.high) <= 1e-4 * plain.high,
                     qPrintable(QString("%1 vs %2").arg(single.high).arg(plain.high)));
            QVERIFY(std::abs(batched[i].cpi - single.cpi) <= 1e-6 * single.cpi);
            QVERIFY(single.low < single.cpi && single.cpi < single.high);
            QCOMPARE(fast.predict(configs[i]), single.cpi);
            // The anchor is the maximum of the anchor columns, and each member scales it.
            double anchor = 0;
            std::size_t which = 0;
            for (const std::size_t a : anchors)
                if (raw(static_cast<Eigen::Index>(a)) > anchor) {
                    anchor = raw(static_cast<Eigen::Index>(a));
                    which = a;
                }
            anchorsThatBound.insert(which);
            QCOMPARE(CpiModel::anchorCpi(rawSpan, anchors), anchor);
        }
        // The configurations exercise several blocks as the bottleneck, folded ones included.
        QVERIFY(anchorsThatBound.size() >= 3);
    }
    // The envelope on a hand-made block: rob (3 values, larger is better) × bp_miss_pct
    // (2 values, smaller is better), rob the most significant digit, so column = 2·g_rob + g_bp.
    // Row 0 may only grow with the core, row 1 may only fall, row 2 is free.
    void envelopeKnownAnswer() {
        std::map<ParamId, std::vector<double>> overrides{{ParamId::Rob, {32, 64, 128}},
                                                         {ParamId::BpMissPct, {0, 5}}};
        const ParameterGrid grid(overrides);
        Eigen::MatrixXf x(3, 6);
        //        rob32:bp0 bp5  rob64:bp0 bp5  rob128:bp0 bp5
        x << 1.0f, 3.0f, 0.5f, 0.2f, 2.0f, 4.0f, //
            9.0f, 1.0f, 8.0f, 7.0f, 9.5f, 0.5f,  //
            5.0f, 6.0f, 1.0f, 2.0f, 3.0f, 4.0f;
        const std::vector<InputConstraint> constraints{
            InputConstraint::NonIncreasing, InputConstraint::NonDecreasing, InputConstraint::Free};
        MonotoneEnvelope::apply({ParamId::Rob, ParamId::BpMissPct}, grid, constraints, x);
        // The smallest core is rob 32 with bp_miss_pct 5 (column 1); the biggest rob 128, 0 %.
        // Row 0: max over every combination no bigger in rob and no lower in bp_miss_pct.
        Eigen::MatrixXf expected(3, 6);
        expected << 3.0f, 3.0f, 3.0f, 3.0f, 4.0f, 4.0f, //
            1.0f, 1.0f, 1.0f, 1.0f, 0.5f, 0.5f,         //
            5.0f, 6.0f, 1.0f, 2.0f, 3.0f, 4.0f;
        QVERIFY2(x.isApprox(expected), "envelope differs from the hand-computed one");
        // A block that is already monotone comes back unchanged.
        Eigen::MatrixXf monotone(3, 6);
        monotone << 1, 0, 2, 1, 3, 2, //
            0, 1, 0, 1, 0, 1,         //
            7, 7, 7, 7, 7, 7;
        const Eigen::MatrixXf before = monotone;
        MonotoneEnvelope::apply({ParamId::Rob, ParamId::BpMissPct}, grid, constraints, monotone);
        QVERIFY(monotone == before);
        QVERIFY_THROWS_EXCEPTION(
            ConcordeError, MonotoneEnvelope::apply({ParamId::Rob}, grid, constraints, monotone));
    }

    // A monotone network fed features that move every which way (the synthetic source is a hash)
    // still predicts a CPI that never rises toward a bigger core through the precomputed path,
    // while the same network on the raw features does rise: the envelope is what repairs it.
    void monotoneModelIsMonotoneOnAnyFeatures() {
        const FeatureLayout layout = FeatureLayout::standard(4);
        const ParameterGrid grid = smallGrid();
        std::mt19937_64 rng(7);
        const FeatureNormalizer normalizer = normalizerOn(layout, grid, rng);
        std::vector<Mlp> members;
        for (std::uint64_t seed : {11u, 12u}) {
            Mlp member({static_cast<int>(layout.width()), 32, 16, 1}, seed);
            member.makeMonotone(MonotoneConstraints::forLayout(layout));
            members.push_back(std::move(member));
        }
        CpiModel model = modelOf(layout, normalizer, members);
        model.band = BandCalibration(2.0, 0.01, 0.8);
        const BlockPrecomputedMlp fast(model, grid, syntheticFeatures);
        const auto rawCpi = [&](const CoreConfig& config) {
            const Eigen::VectorXf raw = fullVector(layout, config);
            return model
                .predictBand(
                    std::span<const float>(raw.data(), static_cast<std::size_t>(raw.size())))
                .cpi;
        };
        std::size_t steps = 0, rawRises = 0;
        double worst = 0;
        for (int b = 0; b < 40; ++b) {
            const CoreConfig base = randomOnGrid(grid, rng);
            for (const auto& spec : ParameterSpace::all()) {
                const int direction = ParameterSpace::betterDirection(spec.id);
                if (direction == 0)
                    continue;
                std::vector<double> values = grid.values(spec.id);
                if (direction < 0)
                    std::reverse(values.begin(), values.end());
                CoreConfig config = base;
                config.set(spec.id, values.front());
                double previous = fast.predict(config);
                double previousRaw = rawCpi(config);
                for (std::size_t v = 1; v < values.size(); ++v) {
                    config.set(spec.id, values[v]);
                    const double cpi = fast.predict(config);
                    const double raw = rawCpi(config);
                    worst = std::max(worst, cpi / previous - 1);
                    rawRises += raw > previousRaw * (1 + 1e-6);
                    ++steps;
                    previous = cpi;
                    previousRaw = raw;
                }
            }
        }
        qInfo("%zu steps toward a bigger core: largest rise %.3g; %zu rises on raw features", steps,
              worst, rawRises);
        QVERIFY(steps > 500);
        QVERIFY2(worst <= 1e-6, qPrintable(QString::number(worst)));
        QVERIFY2(rawRises > steps / 20, "the synthetic features should break a bare network");
    }
};

QTEST_APPLESS_MAIN(BlockPrecomputedTest)
#include "BlockPrecomputedTest.moc"
