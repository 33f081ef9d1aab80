// The block-precomputed first layer predicts exactly what the plain forward pass predicts.
#include "common/ConcordeError.h"
#include "features/BlockCombinations.h"
#include "features/FeatureLayout.h"
#include "ml/BlockPrecomputedMlp.h"
#include "ml/MonotoneConstraints.h"
#include "ml/MonotoneEnvelope.h"

#include <QtTest>
#include <functional>
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

/// What sweeping every ordered parameter over its grid toward the bigger core found, from
/// `bases` random base configurations: the steps taken, the largest relative rise of `fast`,
/// and how many steps `raw` rose.
struct SweepResult {
    std::size_t steps = 0;
    double largestRise = 0;
    std::size_t rawRises = 0;
};

SweepResult sweepTowardBiggerCores(const ParameterGrid& grid, std::mt19937_64& rng, int bases,
                                   const std::function<double(const CoreConfig&)>& fast,
                                   const std::function<double(const CoreConfig&)>& raw) {
    SweepResult result;
    for (int b = 0; b < bases; ++b) {
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
            double previous = fast(config);
            double previousRaw = raw(config);
            for (std::size_t v = 1; v < values.size(); ++v) {
                config.set(spec.id, values[v]);
                const double cpi = fast(config);
                const double rawCpi = raw(config);
                result.largestRise = std::max(result.largestRise, cpi / previous - 1);
                result.rawRises += rawCpi > previousRaw * (1 + 1e-6);
                ++result.steps;
                previous = cpi;
                previousRaw = rawCpi;
            }
        }
    }
    return result;
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
        const auto [steps, worst, rawRises] = sweepTowardBiggerCores(
            grid, rng, 40, [&](const CoreConfig& c) { return fast.predict(c); }, rawCpi);
        qInfo("%zu steps toward a bigger core: largest rise %.3g; %zu rises on raw features", steps,
              worst, rawRises);
        QVERIFY(steps > 500);
        QVERIFY2(worst <= 1e-6, qPrintable(QString::number(worst)));
        QVERIFY2(rawRises > steps / 20, "the synthetic features should break a bare network");
    }

    // The bottleneck floor (CpiModel::bottleneckFloor): the member's CPI is at least the
    // bottleneck CPI, which the tables make monotone first (a down-set minimum, so never above
    // the raw one). The synthetic features are random per combination, so the raw bottleneck
    // CPI rises toward bigger cores all the time and binds almost everywhere: the floored
    // tables must still never rise, lie between the unfloored tables and the larger of those
    // and the raw bottleneck CPI, and move predictions.
    void bottleneckFloorIsMonotoneAndBelowTheRawBound() {
        const FeatureLayout layout = FeatureLayout::standard(4);
        const ParameterGrid grid = smallGrid();
        std::mt19937_64 rng(17);
        Mlp member({static_cast<int>(layout.width()), 32, 16, 1}, 21);
        member.makeMonotone(MonotoneConstraints::forLayout(layout));
        CpiModel unfloored = modelOf(layout, normalizerOn(layout, grid, rng), {member});
        CpiModel floored = unfloored;
        floored.bottleneckFloor = true;
        floored.check("test");
        const std::vector<std::size_t> anchors = floored.anchorColumns();
        const BlockPrecomputedMlp fast(floored, grid, syntheticFeatures);
        const BlockPrecomputedMlp fastUnfloored(unfloored, grid, syntheticFeatures);
        const auto rawBottleneck = [&](const CoreConfig& config) {
            const Eigen::VectorXf raw = fullVector(layout, config);
            return CpiModel::anchorCpi(
                std::span<const float>(raw.data(), static_cast<std::size_t>(raw.size())), anchors);
        };
        std::size_t raised = 0;
        for (int i = 0; i < 300; ++i) {
            const CoreConfig config = randomOnGrid(grid, rng);
            const double cpi = fast.predict(config);
            const double below = fastUnfloored.predict(config);
            const double above = std::max(below, rawBottleneck(config));
            QVERIFY2(cpi >= below * (1 - 1e-6) && cpi <= above * (1 + 1e-6),
                     qPrintable(QString("%1 not in [%2, %3]").arg(cpi).arg(below).arg(above)));
            raised += cpi > below * 1.01;
        }
        QVERIFY2(raised > 150, qPrintable(QString::number(raised)));
        const auto [steps, worst, rawRises] = sweepTowardBiggerCores(
            grid, rng, 40, [&](const CoreConfig& c) { return fast.predict(c); }, rawBottleneck);
        QVERIFY(steps > 500);
        QVERIFY2(worst <= 1e-6, qPrintable(QString::number(worst)));
        QVERIFY2(rawRises > steps / 20, "the raw bottleneck CPI should rise toward bigger cores");
    }

    // The isotonic repair: on one axis it is pool-adjacent-violators (each out-of-order run is
    // replaced by its mean), it leaves monotone values alone, and on a two-parameter lattice
    // with random values its result is monotone along both axes and closer to the input than
    // the down-set envelope's.
    void isotonicRepairKnownAnswers() {
        const ParameterGrid grid = smallGrid(); // rob 32, 64 (middle), 512; bp_miss_pct 3 values
        const std::vector<InputConstraint> falling{InputConstraint::NonDecreasing};
        const std::vector<InputConstraint> growing{InputConstraint::NonIncreasing};
        Eigen::MatrixXf x(1, 3);
        x << 1, 3, 2; // should fall as rob grows: the run 1, 3, 2 pools to 2, 2, 2
        MonotoneEnvelope::isotonic({ParamId::Rob}, grid, falling, x);
        QVERIFY(x.isApprox((Eigen::MatrixXf(1, 3) << 2, 2, 2).finished()));
        x << 4, 1, 2; // only the last pair is out of order: 4, 1.5, 1.5
        MonotoneEnvelope::isotonic({ParamId::Rob}, grid, falling, x);
        QVERIFY(x.isApprox((Eigen::MatrixXf(1, 3) << 4, 1.5f, 1.5f).finished()));
        x << 2, 1, 5; // should grow with rob: 1.5, 1.5, 5
        MonotoneEnvelope::isotonic({ParamId::Rob}, grid, growing, x);
        QVERIFY(x.isApprox((Eigen::MatrixXf(1, 3) << 1.5f, 1.5f, 5).finished()));
        x << 5, 3, 1; // already falling: unchanged
        MonotoneEnvelope::isotonic({ParamId::Rob}, grid, falling, x);
        QVERIFY(x == (Eigen::MatrixXf(1, 3) << 5, 3, 1).finished());

        std::mt19937_64 rng(23);
        const std::vector<ParamId> params{ParamId::Rob, ParamId::BpMissPct};
        const std::size_t count = grid.size(ParamId::Rob) * grid.size(ParamId::BpMissPct);
        for (int trial = 0; trial < 20; ++trial) {
            Eigen::MatrixXf values(1, static_cast<Eigen::Index>(count));
            for (Eigen::Index c = 0; c < values.cols(); ++c)
                values(0, c) = static_cast<float>(rng() % 1000) / 100.0f;
            Eigen::MatrixXf iso = values, envelope = values;
            MonotoneEnvelope::isotonic(params, grid, falling, iso);
            MonotoneEnvelope::apply(params, grid, falling, envelope);
            // Monotone: applying the exact envelope again changes nothing.
            Eigen::MatrixXf again = iso;
            MonotoneEnvelope::apply(params, grid, falling, again);
            QVERIFY(again == iso);
            QVERIFY((iso - values).norm() <= (envelope - values).norm() + 1e-4f);
        }
    }

    // Issue 17 item 5: a composed network's precomputed prediction is its forward pass with each
    // varying group's outputs repaired over the lattice of the group's parameters: here every
    // point of that lattice goes through the plain forward pass, and the repair
    // (MonotoneEnvelope::isotonic, tested on its own below) runs on the result. And the
    // prediction never rises toward a bigger core, whatever the features do, while the same
    // network on the raw features does.
    void composedModelIsItsForwardPassWithRepairedGroups() {
        const FeatureLayout layout = FeatureLayout::standard(4);
        const ParameterGrid grid = smallGrid();
        std::mt19937_64 rng(17);
        const FeatureNormalizer normalizer = normalizerOn(layout, grid, rng);
        const MlpComposition composition = MlpComposition::forLayout(layout, 3, 2);
        const auto groups = static_cast<int>(composition.groups());
        Mlp member({static_cast<int>(layout.width()), groups * 3, groups * 2, 8, 1}, 5);
        member.makeComposed(composition);
        CpiModel model = modelOf(layout, normalizer, {member});
        const BlockPrecomputedMlp fast(model, grid, syntheticFeatures);

        // Each group's parameters: the union over its blocks (its host's).
        std::vector<std::set<ParamId>> groupParams(composition.groups());
        for (const FeatureBlock& block : layout.blocks())
            groupParams[composition.inputGroup[block.offset]].insert(block.params.begin(),
                                                                     block.params.end());
        const auto groupOutputs = [&](const CoreConfig& config) {
            const Eigen::VectorXf x = normalizer.apply(fullVector(layout, config));
            const Eigen::VectorXf h = (member.weights()[0] * x + member.biases()[0]).cwiseMax(0.0f);
            return Eigen::VectorXf(member.weights()[1] * h + member.biases()[1]);
        };
        // The host block of each group: the one naming all the group's parameters (its order
        // numbers the lattice).
        std::vector<std::vector<ParamId>> hostParams(composition.groups());
        for (const FeatureBlock& block : layout.blocks()) {
            const std::uint16_t g = composition.inputGroup[block.offset];
            if (std::set<ParamId>(block.params.begin(), block.params.end()) == groupParams[g])
                hostParams[g] = block.params;
        }
        const std::vector<InputConstraint> falling(2, InputConstraint::NonDecreasing);
        const auto expectedCpi = [&](const CoreConfig& config) {
            Eigen::VectorXf z = groupOutputs(config);
            for (std::size_t g = 0; g < composition.groups(); ++g) {
                if (!composition.groupVaries[g])
                    continue;
                const auto rows = Eigen::seqN(static_cast<Eigen::Index>(g) * 2, 2);
                const BlockCombinations lattice(hostParams[g], grid);
                Eigen::MatrixXf outputs(2, static_cast<Eigen::Index>(lattice.count()));
                for (std::size_t c = 0; c < lattice.count(); ++c) {
                    CoreConfig point = config;
                    lattice.apply(c, point);
                    outputs.col(static_cast<Eigen::Index>(c)) = groupOutputs(point)(rows);
                }
                MonotoneEnvelope::isotonic(hostParams[g], grid, falling, outputs);
                z(rows) = outputs.col(static_cast<Eigen::Index>(lattice.indexOf(config)));
            }
            Eigen::VectorXf a = member.weights()[2] * z + member.biases()[2];
            Mlp::activateHidden(Eigen::Ref<Eigen::VectorXf>(a), true);
            const float out = (member.weights()[3] * a + member.biases()[3])(0);
            return double(Mlp::softplus(out));
        };
        double worst = 0;
        for (int i = 0; i < 25; ++i) {
            const CoreConfig config = randomOnGrid(grid, rng);
            const double expected = expectedCpi(config);
            worst = std::max(worst, std::abs(fast.predict(config) - expected) / expected);
        }
        qInfo("largest relative difference from the brute-force repaired forward pass: %.3g",
              worst);
        QVERIFY2(worst <= 1e-5, qPrintable(QString::number(worst)));

        // Monotone along every sweep, though the raw network is not.
        const auto [steps, rise, rawRises] = sweepTowardBiggerCores(
            grid, rng, 30, [&](const CoreConfig& c) { return fast.predict(c); },
            [&](const CoreConfig& c) {
                return member.predict(Eigen::VectorXf(normalizer.apply(fullVector(layout, c))));
            });
        qInfo("%zu steps toward a bigger core: largest rise %.3g; %zu rises on raw features", steps,
              rise, rawRises);
        QVERIFY(steps > 500);
        QVERIFY2(rise <= 1e-6, qPrintable(QString::number(rise)));
        QVERIFY2(rawRises > steps / 20, "the synthetic features should break a bare network");
    }
};

QTEST_APPLESS_MAIN(BlockPrecomputedTest)
#include "BlockPrecomputedTest.moc"
