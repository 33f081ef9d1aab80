// Feature machinery (docs/design.md §8): distribution encoding and CDFs, the feature layout and its
// block dependencies and combinations, parameter normalisation, JSON and binary blob round trips.
#include "../support/ErrorCapture.h"
#include "common/ConcordeError.h"
#include "features/BlockCombinations.h"
#include "features/Cdf.h"
#include "features/DistributionEncoder.h"
#include "features/FeatureLayout.h"
#include "features/FeatureVectorCodec.h"
#include "features/ParameterGrid.h"
#include "params/CoreConfig.h"
#include "params/ParameterSpace.h"

#include <QtTest>
#include <bit>
#include <cmath>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

using namespace concorde;

namespace {

using Floats = std::vector<float>;
using GridMap = std::map<ParamId, std::vector<double>>;
constexpr float kInf = std::numeric_limits<float>::infinity();

/// The message of the ConcordeError `action` throws, or empty if it throws none.
using concorde::testing::errorOf;

Floats concat(std::initializer_list<Floats> parts) {
    Floats all;
    for (const auto& part : parts)
        all.insert(all.end(), part.begin(), part.end());
    return all;
}

Floats repeat(float value, std::size_t count) {
    return Floats(count, value);
}

std::vector<std::string> names(const std::vector<const FeatureBlock*>& blocks) {
    std::vector<std::string> result;
    for (const auto* block : blocks)
        result.push_back(block->name);
    return result;
}

Floats randomSeries(std::mt19937& rng, std::size_t n) {
    // A mix of small bounds, ties and capped "never binding" windows, like real series.
    std::uniform_real_distribution<float> uniform(0.0f, 8.0f);
    std::uniform_int_distribution<int> pick(0, 9);
    Floats series(n);
    for (auto& v : series) {
        const int kind = pick(rng);
        v = kind == 0 ? kInf : kind == 1 ? 2.0f : uniform(rng);
    }
    return series;
}

} // namespace

class FeaturesTest : public QObject {
    Q_OBJECT

private slots:
    // --- Cdf and DistributionEncoder -------------------------------------------------------

    void percentilesOfOneToFour() {
        const Floats values = {4, 2, 3, 1}; // unsorted on purpose
        const auto cdf = Cdf::fromValues(values);
        QCOMPARE(cdf.sortedValues(), (Floats{1, 2, 3, 4}));
        // Levels (i+0.5)/10 = 0.05 … 0.95; F = 0.25, 0.5, 0.75, 1; the smallest v with F(v) ≥ p.
        // Ties (0.25, 0.75) take the lower value.
        QCOMPARE(cdf.percentiles(10), (Floats{1, 1, 1, 2, 2, 3, 3, 3, 4, 4}));
        // With K = n the levels fall in the middle of each sample's slice: the samples back.
        QCOMPARE(cdf.percentiles(4), (Floats{1, 2, 3, 4}));
        QCOMPARE(cdf.percentiles(1), (Floats{2}));
        QCOMPARE(cdf.quantile(0.5), 2.0f);
        QCOMPARE(cdf.quantile(0.51), 3.0f);
        QCOMPARE(cdf.quantile(0.0), 1.0f);
        QCOMPARE(cdf.quantile(1.0), 4.0f);
        QCOMPARE(cdf.quantile(7.0), 4.0f); // clamped level
        QCOMPARE(cdf.evaluate(0.5), 0.0);
        QCOMPARE(cdf.evaluate(1.0), 0.25);
        QCOMPARE(cdf.evaluate(2.5), 0.5);
        QCOMPARE(cdf.evaluate(4.0), 1.0);
        QCOMPARE(cdf.evaluate(1e9), 1.0);
        QCOMPARE(cdf.mean(), 2.5);
    }

    void sizeWeightedPercentilesByHand() {
        const auto cdf = Cdf::fromValues(Floats{1, 2, 3, 4});
        // F_w: 1/10, 3/10, 6/10, 10/10.
        QCOMPARE(cdf.evaluate(2.0, CdfWeighting::Value), 0.3);
        QCOMPARE(cdf.evaluate(3.5, CdfWeighting::Value), 0.6);
        QCOMPARE(cdf.percentiles(10, CdfWeighting::Value), (Floats{1, 2, 2, 3, 3, 3, 4, 4, 4, 4}));
        QCOMPARE(cdf.mean(CdfWeighting::Value), 3.0); // (1+4+9+16)/10

        const auto tail = Cdf::fromValues(Floats{1, 1, 1, 1, 96});
        QCOMPARE(tail.quantile(0.5), 1.0f);
        QCOMPARE(tail.quantile(0.5, CdfWeighting::Value), 96.0f);
        QCOMPARE(tail.evaluate(1.0, CdfWeighting::Value), 0.04);
        QCOMPARE(tail.percentiles(10), concat({repeat(1, 8), repeat(96, 2)}));
        QCOMPARE(tail.percentiles(10, CdfWeighting::Value), repeat(96, 10));
        QCOMPARE(tail.mean(), 20.0);
        QCOMPARE(tail.mean(CdfWeighting::Value), 92.2); // (4 + 96²)/100
    }

    void encodingLayoutMeanAndCap() {
        const Floats series = {1, 1, 1, 1, 96};
        const DistributionEncoder uncapped(10, 100.0f);
        QCOMPARE(uncapped.width(), std::size_t(21));
        QCOMPARE(uncapped.weightedOffset(), std::size_t(10));
        QCOMPARE(uncapped.meanOffset(), std::size_t(20));
        QCOMPARE(uncapped.encode(series),
                 concat({repeat(1, 8), repeat(96, 2), repeat(96, 10), Floats{20}}));

        // The default cap (64) clamps 96: weighted mass 4 + 64 = 68, F_w(1) = 4/68 ≥ 0.05 only.
        const DistributionEncoder capped;
        QCOMPARE(capped.cap(), 64.0f);
        QCOMPARE(capped.encode(series),
                 concat({repeat(1, 8), repeat(64, 2), Floats{1}, repeat(64, 9), Floats{13.6f}}));
        // An infinite bound (a resource that never binds) is the cap.
        QCOMPARE(capped.encode(Floats{kInf, 2}), capped.encode(Floats{64, 2}));

        const auto levels = DistributionEncoder(4).levels();
        QCOMPARE(levels, (std::vector<double>{0.125, 0.375, 0.625, 0.875}));
    }

    void emptyAndConstantSeries() {
        const DistributionEncoder encoder(10);
        QCOMPARE(encoder.encode(Floats{}), repeat(0, 21));
        const Cdf empty;
        QCOMPARE(empty.evaluate(3.0), 0.0);
        QCOMPARE(empty.quantile(0.5), 0.0f);
        QCOMPARE(empty.mean(), 0.0);
        QVERIFY(empty.steps().empty());
        QVERIFY(empty.staircase().empty());

        QCOMPARE(encoder.encode(repeat(2.5f, 7)), repeat(2.5f, 21));
        QCOMPARE(encoder.encode(repeat(0.1f, 250)), repeat(0.1f, 21));
        // All zeros: no weighted mass; the weighted distribution is the point mass at 0.
        QCOMPARE(encoder.encode(repeat(0, 3)), repeat(0, 21));
        const auto zeros = Cdf::fromValues(repeat(0, 3));
        QCOMPARE(zeros.evaluate(0.0, CdfWeighting::Value), 1.0);
        QCOMPARE(zeros.evaluate(-1.0, CdfWeighting::Value), 0.0);
        QCOMPARE(zeros.mean(CdfWeighting::Value), 0.0);
    }

    void invalidSamplesAreRejected() {
        const DistributionEncoder encoder;
        ErrorKind kind = ErrorKind::Usage;
        const QString nan = errorOf(
            [&] {
                encoder.encode(Floats{1, std::numeric_limits<float>::quiet_NaN()});
            },
            &kind);
        QVERIFY2(nan.contains("#1") && nan.contains("NaN"), qPrintable(nan));
        QCOMPARE(kind, ErrorKind::BadInput);
        const QString negative = errorOf([&] { encoder.encode(Floats{1, 2, -3}); });
        QVERIFY2(negative.contains("#2") && negative.contains("negative"), qPrintable(negative));
        const QString infinite = errorOf([] { Cdf::fromValues(Floats{1, kInf}); });
        QVERIFY2(infinite.contains("infinite"), qPrintable(infinite));
        const QString unsorted = errorOf([] { Cdf::fromSorted(Floats{1, 3, 2}); });
        QVERIFY2(unsorted.contains("#2"), qPrintable(unsorted));
        QCOMPARE(Cdf::fromSorted(Floats{1, 2, 2}).percentiles(3), (Floats{1, 2, 2}));

        QVERIFY(!errorOf([] { DistributionEncoder(0); }).isEmpty());
        QVERIFY(!errorOf([] { DistributionEncoder(10, 0.0f); }).isEmpty());
        QVERIFY(!errorOf([] { DistributionEncoder(10, std::nanf("")); }).isEmpty());
        Floats tooSmall(20);
        const QString size = errorOf([&] { encoder.encodeInto(Floats{1}, tooSmall); });
        QVERIFY2(size.contains("20") && size.contains("21"), qPrintable(size));
    }

    void encodingIsMonotoneAndMatchesCdf() {
        std::mt19937 rng(12345);
        for (const int k : {1, 3, 10, 16}) {
            const DistributionEncoder encoder(k);
            for (const std::size_t n : {1, 2, 7, 250, 1001}) {
                const Floats series = randomSeries(rng, n);
                const Floats encoded = encoder.encode(series);
                QCOMPARE(encoded.size(), encoder.width());
                const auto cdf = Cdf::fromValues(series, encoder.cap());
                const float lo = cdf.sortedValues().front();
                const float hi = cdf.sortedValues().back();
                for (int i = 0; i < k; ++i) {
                    const float plain = encoded[static_cast<std::size_t>(i)];
                    const float weighted = encoded[static_cast<std::size_t>(k + i)];
                    if (i > 0) {
                        QVERIFY(plain >= encoded[static_cast<std::size_t>(i - 1)]);
                        QVERIFY(weighted >= encoded[static_cast<std::size_t>(k + i - 1)]);
                    }
                    // Weighting by value moves mass up: never below the plain percentile.
                    QVERIFY(weighted >= plain);
                    QVERIFY(plain >= lo && weighted <= hi);
                    // A percentile is the generalised inverse: F(q) ≥ p, and F just below q < p.
                    const double level = Cdf::level(i, k);
                    QVERIFY(cdf.evaluate(plain) >= level);
                    QVERIFY(cdf.evaluate(std::nextafter(plain, -1.0f)) < level);
                    QVERIFY(cdf.evaluate(weighted, CdfWeighting::Value) >= level);
                    QCOMPARE(plain, cdf.quantile(level));
                }
                const float mean = encoded[2 * static_cast<std::size_t>(k)];
                QVERIFY(mean >= lo && mean <= hi);
                QCOMPARE(mean, static_cast<float>(cdf.mean()));
                QCOMPARE(encoded, encoder.encode(series)); // deterministic
            }
        }
    }

    void cdfCurvePoints() {
        const auto cdf = Cdf::fromValues(Floats{2, 1, 4, 2});
        QCOMPARE(cdf.steps(), (std::vector<CdfPoint>{{1, 0.25}, {2, 0.75}, {4, 1.0}}));
        QCOMPARE(cdf.staircase(), (std::vector<CdfPoint>{
                                      {1, 0}, {1, 0.25}, {2, 0.25}, {2, 0.75}, {4, 0.75}, {4, 1}}));
        QCOMPARE(cdf.steps(CdfWeighting::Value),
                 (std::vector<CdfPoint>{{1, 1.0 / 9}, {2, 5.0 / 9}, {4, 1.0}}));
        // The plotted curve passes through every encoded percentile.
        const auto steps = cdf.steps();
        for (const float q : cdf.percentiles(10)) {
            bool onCurve = false;
            for (const auto& point : steps)
                onCurve = onCurve || (point.x == q && point.p == cdf.evaluate(q));
            QVERIFY(onCurve);
        }
    }

    // --- FeatureLayout ---------------------------------------------------------------------

    void standardLayoutWidthsAndOffsets() {
        for (const int k : {1, 5, 10}) {
            const auto layout = FeatureLayout::standard(k);
            const std::size_t e = 2 * static_cast<std::size_t>(k) + 1;
            QCOMPARE(layout.percentiles(), k);
            QCOMPARE(layout.width(), 21 * e + 38);
            std::size_t next = 0;
            std::set<std::string> seen;
            for (const auto& block : layout.blocks()) {
                QCOMPARE(block.offset, next); // contiguous, in order, from 0
                QCOMPARE(block.width, block.expectedWidth(k));
                QVERIFY(block.width > 0);
                QVERIFY2(seen.insert(block.name).second, block.name.c_str());
                next = block.end();
            }
            QCOMPARE(next, layout.width());
        }
        const auto layout = FeatureLayout::standard(10);
        QCOMPARE(layout.width(), std::size_t(479));
        QCOMPARE(layout.blocks().size(), std::size_t(18 + 20));
        QCOMPARE(layout.block("rob").offset, std::size_t(0));
        QCOMPARE(layout.block("rob").width, std::size_t(22)); // + the reciprocal mean
        QVERIFY(layout.block("rob").reciprocalMean);
        QVERIFY(!layout.block("aux.fences").reciprocalMean);
        QCOMPARE(layout.block("aux.branches").width, std::size_t(5 * 21));
        QCOMPARE(layout.block("aux.branches").columns,
                 (std::vector<std::string>{"direct-uncond", "direct-cond", "indirect", "call",
                                           "return"}));
        QCOMPARE(layout.block("aux.rob_sizes").width, std::size_t(6));
        QCOMPARE(layout.block("param.bp").width, std::size_t(2));
        QCOMPARE(layout.block("param.rob").width, std::size_t(1));
        QCOMPARE(layout.block("param.pf_degree").end(), layout.width()); // parameters come last
        QCOMPARE(layout.blockIndex("lq"), std::size_t(1));
        QCOMPARE(layout.block("aux.latency_commit_wait").cap, 4096.0f);
        QVERIFY(layout.find("nonsense") == nullptr);
        const QString unknown = errorOf([&] { layout.block("nonsense"); });
        QVERIFY2(unknown.contains("'nonsense'") && unknown.contains("alu_issue"),
                 qPrintable(unknown));
    }

    void blockDependencies() {
        const auto layout = FeatureLayout::standard(10);
        const std::vector<ParamId> robDeps = {ParamId::Rob, ParamId::L1dKb, ParamId::L1iKb,
                                              ParamId::L2Kb, ParamId::PrefetchDegree};
        QCOMPARE(layout.dependencies("rob"), robDeps);
        QVERIFY(!layout.block("rob").dependsOn(ParamId::AluIssue));
        QVERIFY(layout.block("rob").dependsOn(ParamId::L2Kb));
        QCOMPARE(layout.dependencies("alu_issue"), (std::vector<ParamId>{ParamId::AluIssue}));
        QCOMPARE(layout.dependencies("pipes_upper"),
                 (std::vector<ParamId>{ParamId::LsPipes, ParamId::LoadPipes}));
        QCOMPARE(layout.dependencies("aux.mispredict"),
                 (std::vector<ParamId>{ParamId::BranchPredictor, ParamId::BpMissPct}));
        QVERIFY(layout.block("aux.fences").isFixed());
        QVERIFY(layout.block("aux.branches").isFixed());
        QVERIFY(!layout.block("aux.rob_sizes").dependsOn(ParamId::Rob));

        QCOMPARE(names(layout.blocksDependingOn(ParamId::AluIssue)),
                 (std::vector<std::string>{"alu_issue", "param.alu_issue"}));
        QCOMPARE(names(layout.blocksDependingOn(ParamId::Rob)),
                 (std::vector<std::string>{"rob", "aux.latency_issue_wait", "aux.latency_execution",
                                           "aux.latency_commit_wait", "param.rob"}));
        QCOMPARE(names(layout.blocksDependingOn(ParamId::L1iKb)),
                 (std::vector<std::string>{"rob", "lq", "sq", "icache_fills", "fetch_buffers",
                                           "aux.rob_sizes", "aux.latency_issue_wait",
                                           "aux.latency_execution", "aux.latency_commit_wait",
                                           "param.l1i_kb"}));
        // Front-end widths only enter through their parameter column.
        QCOMPARE(names(layout.blocksDependingOn(ParamId::CommitWidth)),
                 (std::vector<std::string>{"param.commit_width"}));
        // Exactly one parameter block per parameter, depending on that parameter only.
        for (const auto& spec : ParameterSpace::all()) {
            const auto& block = layout.block("param." + spec.key);
            QCOMPARE(block.kind, BlockKind::Parameter);
            QCOMPARE(block.params, (std::vector<ParamId>{spec.id}));
        }
    }

    void combinationEnumeration() {
        const auto layout = FeatureLayout::standard(10);
        const ParameterGrid grid;
        QCOMPARE(layout.combinations("rob").count(), std::size_t(10 * 3 * 3 * 3 * 2));
        QCOMPARE(layout.combinations("alu_issue").count(), std::size_t(8));
        QCOMPARE(layout.combinations("pipes_lower").count(), std::size_t(4 * 5));
        QCOMPARE(layout.combinations("aux.mispredict").count(), std::size_t(2 * 6));
        QCOMPARE(layout.combinations("aux.fences").count(), std::size_t(1));
        QCOMPARE(layout.combinations("param.bp").count(), std::size_t(2));

        for (const auto& block : layout.blocks()) {
            const auto combos = layout.combinations(block.name, grid);
            std::size_t product = 1;
            for (const ParamId id : block.params)
                product *= grid.size(id);
            QCOMPARE(combos.count(), product);
            std::set<std::vector<double>> distinct;
            for (std::size_t i = 0; i < combos.count(); ++i) {
                QCOMPARE(combos.indexOfGridIndices(combos.gridIndices(i)), i);
                const auto values = combos.values(i);
                distinct.insert(values);
                CoreConfig config;
                combos.apply(i, config);
                QCOMPARE(combos.indexOf(config), i);
                for (std::size_t j = 0; j < block.params.size(); ++j)
                    QCOMPARE(config.value(block.params[j]), values[j]);
            }
            QCOMPARE(distinct.size(), combos.count()); // a bijection
        }

        // Mixed radix, first parameter most significant: index 1 steps the last (pf_degree).
        const auto rob = layout.combinations("rob");
        QCOMPARE(rob.values(0), (std::vector<double>{16, 32, 32, 512, 0}));
        QCOMPARE(rob.values(1), (std::vector<double>{16, 32, 32, 512, 2}));
        QCOMPARE(rob.values(2), (std::vector<double>{16, 32, 32, 1024, 0}));
        QCOMPARE(rob.values(54), (std::vector<double>{32, 32, 32, 512, 0}));
        QCOMPARE(rob.values(539), (std::vector<double>{512, 128, 128, 2048, 2}));
        QVERIFY(!errorOf([&] { rob.values(540); }).isEmpty());

        CoreConfig config; // defaults: rob 128 (grid 5), l1d 64 (1), l1i 64 (1), l2 1024 (1), pf 0
        QCOMPARE(rob.indexOf(config), std::size_t((((5 * 3 + 1) * 3 + 1) * 3 + 1) * 2 + 0));
        config.set(ParamId::Rob, 100);
        QVERIFY(!rob.tryIndexOf(config).has_value());
        const QString off = errorOf([&] { rob.indexOf(config); });
        QVERIFY2(off.contains("'rob'") && off.contains("100") && off.contains("512"),
                 qPrintable(off));
        // Other blocks do not care about rob.
        QCOMPARE(layout.combinations("alu_issue").indexOf(config), std::size_t(2));

        // A custom grid changes the counts and the numbering.
        const ParameterGrid small(GridMap{{ParamId::Rob, {64, 128}}, {ParamId::L2Kb, {1024}}});
        const auto robSmall = layout.combinations("rob", small);
        QCOMPARE(robSmall.count(), std::size_t(2 * 3 * 3 * 1 * 2));
        config.set(ParamId::Rob, 128);
        QCOMPARE(robSmall.indexOf(config), std::size_t(((1 * 3 + 1) * 3 + 1) * 2));
    }

    void parameterGridValidation() {
        const QString empty = errorOf([] { ParameterGrid(GridMap{{ParamId::Rob, {}}}); });
        QVERIFY2(empty.contains("'rob'") && empty.contains("empty"), qPrintable(empty));
        const QString unsorted = errorOf([] { ParameterGrid(GridMap{{ParamId::Rob, {64, 32}}}); });
        QVERIFY2(unsorted.contains("ascending"), qPrintable(unsorted));
        const QString range = errorOf([] { ParameterGrid(GridMap{{ParamId::LoadQueue, {2, 8}}}); });
        QVERIFY2(range.contains("'lq'") && range.contains("4–256"), qPrintable(range));
        const ParameterGrid grid;
        QCOMPARE(grid.values(ParamId::FetchWidth), ParameterSpace::spec(ParamId::FetchWidth).grid);
        QCOMPARE(grid.find(ParamId::Rob, 192), std::optional<std::size_t>(6));
        QVERIFY(!grid.find(ParamId::Rob, 193));
    }

    void parameterNormalisation() {
        const auto layout = FeatureLayout::standard(10);
        for (const auto& spec : ParameterSpace::all()) {
            const auto& block = layout.block("param." + spec.key);
            if (spec.kind == ParamKind::Choice)
                continue;
            QCOMPARE(block.lo, spec.min);
            QCOMPARE(block.hi, spec.max);
            float out = -1;
            block.encodeParameter(spec.min, std::span<float>(&out, 1));
            QVERIFY2(out == 0.0f, spec.key.c_str());
            block.encodeParameter(spec.max, std::span<float>(&out, 1));
            QVERIFY2(out == 1.0f, spec.key.c_str());
            float previous = -1;
            for (const double v : spec.grid) { // strictly increasing inside [0, 1]
                block.encodeParameter(v, std::span<float>(&out, 1));
                QVERIFY2(out > previous && out >= 0 && out <= 1, spec.key.c_str());
                previous = out;
            }
        }
        QCOMPARE(layout.block("param.rob").scale, ParamScale::Log2);
        QCOMPARE(layout.block("param.l2_kb").scale, ParamScale::Log2);
        QCOMPARE(layout.block("param.alu_issue").scale, ParamScale::Linear);
        QCOMPARE(layout.block("param.load_pipes").scale, ParamScale::Linear);

        CoreConfig config;
        config.set(ParamId::Rob, 128);     // log2: (7 − 3) / (10 − 3)
        config.set(ParamId::AluIssue, 3);  // linear: (3 − 1) / (8 − 1)
        config.set(ParamId::BpMissPct, 5); // linear: 5 / 20
        config.applyAssignment("bp=simple");
        const auto params = layout.normalisedParameters(config);
        QCOMPARE(params.size(), std::size_t(21));
        QCOMPARE(params[0], static_cast<float>(4.0 / 7.0));
        QCOMPARE(params[4], static_cast<float>(2.0 / 7.0));
        QCOMPARE(params[14], 1.0f); // bp one-hot: simple
        QCOMPARE(params[15], 0.0f); //              tage
        QCOMPARE(params[16], 0.25f);

        Floats features(layout.width(), -7.0f);
        config.applyAssignment("bp=tage");
        layout.encodeParameters(config, features);
        QCOMPARE(layout.slice(std::span<const float>(features), "param.bp")[0], 0.0f);
        QCOMPARE(layout.slice(std::span<const float>(features), "param.bp")[1], 1.0f);
        QCOMPARE(features[layout.block("param.rob").offset], static_cast<float>(4.0 / 7.0));
        for (const auto& block : layout.blocks()) // only parameter blocks were written
            for (std::size_t i = block.offset; i < block.end(); ++i)
                QCOMPARE(features[i] == -7.0f, block.kind != BlockKind::Parameter);
    }

    void encodeSeriesWritesItsSlot() {
        const auto layout = FeatureLayout::standard(10);
        Floats features(layout.width(), -1.0f);
        layout.encodeSeries("aux.branches", "call", Floats{3, 1, 2}, features);
        const auto& block = layout.block("aux.branches");
        const std::size_t start = block.offset + 3 * 21;
        for (std::size_t i = 0; i < features.size(); ++i)
            QCOMPARE(features[i] != -1.0f, i >= start && i < start + 21);
        QCOMPARE(features[start + 20], 2.0f); // the mean
        layout.encodeSeries("rob", "rob", Floats{kInf}, features);
        QCOMPARE(features[0], 64.0f); // capped at the throughput cap
        layout.encodeSeries("aux.latency_execution", "aux.latency_execution", Floats{5000},
                            features);
        QCOMPARE(features[layout.block("aux.latency_execution").offset], 4096.0f);
        QVERIFY(
            !errorOf([&] { layout.encodeSeries("aux.branches", "jump", {}, features); }).isEmpty());
        Floats wrong(10);
        QVERIFY(!errorOf([&] { layout.encodeSeries("rob", "rob", {}, wrong); }).isEmpty());
    }

    // --- Serialisation ---------------------------------------------------------------------

    void layoutJsonRoundTrip() {
        for (const int k : {1, 3, 10}) {
            const auto layout = FeatureLayout::standard(k);
            const auto json = layout.toJson();
            const auto text = json.dump(2);
            const auto restored = FeatureLayout::fromJson(nlohmann::json::parse(text), "test");
            QVERIFY(restored == layout);
            QCOMPARE(restored.toJson(), json);
        }
        const auto json = FeatureLayout::standard(10).toJson();
        QCOMPARE(json["format"].get<std::string>(), std::string("concorde-feature-layout"));
        QCOMPARE(json["width"].get<int>(), 479);
        QCOMPARE(json["blocks"][0]["params"],
                 nlohmann::json::parse(R"(["rob","l1d_kb","l1i_kb","l2_kb","pf_degree"])"));
        // A custom layout with an odd cap and range survives too.
        FeatureBlock custom;
        custom.name = "x";
        custom.columns = {"a", "b"};
        custom.cap = 0.1f;
        FeatureBlock param;
        param.name = "p";
        param.kind = BlockKind::Parameter;
        param.params = {ParamId::BpMissPct};
        param.columns = {"bp_miss_pct"};
        param.scale = ParamScale::Linear;
        param.lo = 0.3;
        param.hi = 17.1;
        const FeatureLayout layout(2, {custom, param});
        QCOMPARE(layout.width(), std::size_t(11));
        QVERIFY(FeatureLayout::fromJson(nlohmann::json::parse(layout.toJson().dump()), "t") ==
                layout);
    }

    void malformedLayoutJson() {
        const auto good = FeatureLayout::standard(10).toJson();
        struct Case {
            const char* what;
            std::function<void(nlohmann::json&)> corrupt;
            const char* expected;
        };
        const std::vector<Case> cases = {
            {"not an object", [](auto& j) { j = nlohmann::json::array(); }, "JSON object"},
            {"wrong format", [](auto& j) { j["format"] = "other"; }, "'format'"},
            {"future version", [](auto& j) { j["version"] = 2; }, "version 2"},
            {"no blocks", [](auto& j) { j.erase("blocks"); }, "'blocks' is missing"},
            {"empty blocks", [](auto& j) { j["blocks"] = nlohmann::json::array(); }, "no blocks"},
            {"zero percentiles", [](auto& j) { j["percentiles"] = 0; }, "'percentiles'"},
            {"negative offset", [](auto& j) { j["blocks"][2]["offset"] = -1; }, "'offset'"},
            {"unknown parameter", [](auto& j) { j["blocks"][0]["params"][1] = "l3_kb"; },
             "unknown parameter 'l3_kb'"},
            {"unknown kind", [](auto& j) { j["blocks"][3]["kind"] = "histogram"; },
             "unknown kind 'histogram'"},
            {"shifted offset", [](auto& j) { j["blocks"][1]["offset"] = 23; }, "('lq')"},
            {"wrong width", [](auto& j) { j["blocks"][0]["width"] = 20; }, "offset/width"},
            {"wrong total", [](auto& j) { j["width"] = 480; }, "add up to 479"},
            {"duplicate name", [](auto& j) { j["blocks"][1]["name"] = "rob"; }, "earlier block"},
            {"no columns", [](auto& j) { j["blocks"][4]["columns"] = nlohmann::json::array(); },
             "no columns"},
            {"missing cap", [](auto& j) { j["blocks"][0].erase("cap"); }, "'cap' is missing"},
            {"zero cap", [](auto& j) { j["blocks"][0]["cap"] = 0; }, "positive cap"},
            {"unexpected field", [](auto& j) { j["blocks"][0]["scale"] = "log2"; },
             "unexpected field 'scale'"},
            {"two-parameter column", [](auto& j) { j["blocks"].back()["params"].push_back("rob"); },
             "exactly one"},
            {"bp not one-hot",
             [](auto& j) {
                 auto& bp = findBlock(j, "param.bp");
                 bp["scale"] = "linear";
                 bp["min"] = 0;
                 bp["max"] = 1;
             },
             "one-hot"},
            {"log2 from zero", [](auto& j) { findBlock(j, "param.rob")["min"] = 0; }, "min > 0"},
            {"inverted range", [](auto& j) { findBlock(j, "param.lq")["max"] = 1; }, "min < max"},
            {"params not strings", [](auto& j) { j["blocks"][0]["params"] = 3; }, "'params'"},
        };
        for (const auto& c : cases) {
            auto json = good;
            c.corrupt(json);
            ErrorKind kind = ErrorKind::Usage;
            const QString message =
                errorOf([&] { FeatureLayout::fromJson(json, "model.json"); }, &kind);
            QVERIFY2(!message.isEmpty(), c.what);
            QVERIFY2(message.startsWith("model.json: "), qPrintable(message));
            QVERIFY2(message.contains(c.expected), qPrintable(QString(c.what) + " -> " + message));
            QCOMPARE(kind, ErrorKind::BadInput);
        }
    }

    void blobRoundTrip() {
        const Floats special = {1.0f,
                                -0.0f,
                                kInf,
                                -kInf,
                                std::numeric_limits<float>::denorm_min(),
                                std::numeric_limits<float>::max(),
                                std::bit_cast<float>(0x7fc01234u), // NaN with a payload
                                0.1f};
        const auto blob = FeatureVectorCodec::encode(special);
        QCOMPARE(blob.size(), std::size_t(16 + 4 * special.size()));
        QCOMPARE(FeatureVectorCodec::encodedSize(special.size()), blob.size());
        QCOMPARE(std::string(blob.begin(), blob.begin() + 4), std::string("CFV1"));
        QCOMPARE(int(blob[4]), 1); // version, little-endian
        QCOMPARE(int(blob[5]), 0);
        QCOMPARE(int(blob[8]), 8); // count, little-endian
        QCOMPARE(int(blob[9]) + blob[10] + blob[11], 0);
        // 1.0f = 0x3f800000 stored little-endian.
        QCOMPARE((std::vector<int>{blob[16], blob[17], blob[18], blob[19]}),
                 (std::vector<int>{0x00, 0x00, 0x80, 0x3f}));
        const auto back = FeatureVectorCodec::decode(blob, special.size());
        QCOMPARE(back.size(), special.size());
        for (std::size_t i = 0; i < special.size(); ++i)
            QCOMPARE(std::bit_cast<std::uint32_t>(back[i]),
                     std::bit_cast<std::uint32_t>(special[i]));

        const auto layout = FeatureLayout::standard(10);
        std::mt19937 rng(7);
        std::uniform_real_distribution<float> uniform(-100, 100);
        Floats features(layout.width());
        for (auto& v : features)
            v = uniform(rng);
        QCOMPARE(FeatureVectorCodec::decode(FeatureVectorCodec::encode(features), layout.width()),
                 features);
        QCOMPARE(FeatureVectorCodec::decode(FeatureVectorCodec::encode(Floats{})), Floats{});
    }

    void corruptBlobsGiveClearErrors() {
        const auto good = FeatureVectorCodec::encode(Floats{1, 2, 3, 4});
        const auto errorFor = [](std::vector<std::uint8_t> blob,
                                 std::optional<std::size_t> expected = std::nullopt) {
            ErrorKind kind = ErrorKind::Usage;
            const QString message =
                errorOf([&] { FeatureVectorCodec::decode(blob, expected, "region 3 rob"); }, &kind);
            return kind == ErrorKind::BadInput ? message : QString("wrong kind: ") + message;
        };
        const auto check = [](const QString& message, const char* expected) {
            QVERIFY2(message.startsWith("region 3 rob: ") && message.contains(expected),
                     qPrintable(message));
        };
        check(errorFor({good.begin(), good.begin() + 5}), "too short (5 bytes");
        check(errorFor({}), "too short (0 bytes");
        auto magic = good;
        magic[0] = 'X';
        check(errorFor(magic), "not a feature vector");
        auto version = good;
        version[4] = 9;
        check(errorFor(version), "version 9");
        auto truncated = good;
        truncated.pop_back();
        check(errorFor(truncated), "declares 4 values (32 bytes) but the blob is 31 bytes");
        auto extended = good;
        extended.push_back(0);
        check(errorFor(extended), "blob is 33 bytes");
        auto count = good;
        count[8] = 5;
        check(errorFor(count), "declares 5 values");
        auto huge = good;
        huge[8] = huge[9] = huge[10] = huge[11] = 0xff;
        check(errorFor(huge), "declares 4294967295 values");
        auto flipped = good;
        flipped[20] ^= 0x01;
        check(errorFor(flipped), "checksum");
        check(errorFor(good, 5), "holds 4 values, expected 5");
        QCOMPARE(FeatureVectorCodec::decode(good, 4), (Floats{1, 2, 3, 4}));
    }

private:
    static nlohmann::json& findBlock(nlohmann::json& layout, const std::string& name) {
        for (auto& block : layout["blocks"])
            if (block["name"] == name)
                return block;
        throw std::runtime_error("test: no block " + name);
    }
};

QTEST_APPLESS_MAIN(FeaturesTest)
#include "FeaturesTest.moc"
