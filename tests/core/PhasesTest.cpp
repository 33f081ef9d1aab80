// Phase clustering (SimPoint-style): random projection of basic-block vectors, seeded k-means,
// the BIC and SimPoint's choice of k, the feature-vector fallback, planted clusters recovered
// (adjusted Rand index), determinism and input errors.
#include "../support/ErrorCapture.h"
#include "common/ConcordeError.h"
#include "phases/BicScore.h"
#include "phases/KMeans.h"
#include "phases/PhaseClustering.h"
#include "phases/RandomProjection.h"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <numbers>
#include <numeric>
#include <random>

using namespace concorde;

namespace {

using concorde::testing::errorOf;

/// Adjusted Rand index (Hubert & Arabie 1985) of two labellings: 1 for identical partitions up to
/// relabelling, about 0 for independent ones.
double adjustedRand(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
    const auto choose2 = [](double n) { return n * (n - 1) / 2; };
    std::map<std::pair<std::uint32_t, std::uint32_t>, double> both;
    std::map<std::uint32_t, double> rows, cols;
    for (std::size_t i = 0; i < a.size(); ++i) {
        both[{a[i], b[i]}] += 1;
        rows[a[i]] += 1;
        cols[b[i]] += 1;
    }
    double index = 0, sumRows = 0, sumCols = 0;
    for (const auto& [key, n] : both)
        index += choose2(n);
    for (const auto& [key, n] : rows)
        sumRows += choose2(n);
    for (const auto& [key, n] : cols)
        sumCols += choose2(n);
    const double expected = sumRows * sumCols / choose2(static_cast<double>(a.size()));
    const double maximum = (sumRows + sumCols) / 2;
    if (maximum == expected)
        return 1.0; // both partitions trivial (one cluster each)
    return (index - expected) / (maximum - expected);
}

struct Planted {
    std::vector<BasicBlockVector> bbvs;
    std::vector<std::uint32_t> truth;
};

/// `phases` synthetic program phases, each a distribution over its own 40 basic blocks (blocks
/// of neighbouring phases overlap by 10); each region executes `executions` blocks drawn from its
/// phase, plus `foreign` of its executions drawn uniformly from all blocks. Regions are
/// shuffled so that phases are interleaved in the program.
Planted plantedBbvs(std::size_t phases, std::size_t regionsPerPhase, std::uint64_t executions,
                    double foreign, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::exponential_distribution<double> weight(1.0);
    std::vector<std::vector<double>> distributions(phases);
    for (auto& d : distributions)
        for (int i = 0; i < 40; ++i)
            d.push_back(weight(rng));
    const auto pcOf = [](std::size_t phase, std::size_t block) {
        return 0x400000 + 16 * (phase * 30 + block);
    };
    const std::size_t allBlocks = 30 * phases + 10;
    Planted planted;
    for (std::size_t p = 0; p < phases; ++p)
        for (std::size_t r = 0; r < regionsPerPhase; ++r) {
            std::discrete_distribution<std::size_t> block(distributions[p].begin(),
                                                          distributions[p].end());
            std::uniform_int_distribution<std::size_t> any(0, allBlocks - 1);
            std::bernoulli_distribution stray(foreign);
            std::map<std::uint64_t, std::uint64_t> counts;
            for (std::uint64_t e = 0; e < executions; ++e) {
                const std::uint64_t pc =
                    stray(rng) ? 0x400000 + 16 * any(rng) : pcOf(p, block(rng));
                counts[pc] += 5; // five instructions per block
            }
            planted.bbvs.emplace_back(counts.begin(), counts.end());
            planted.truth.push_back(static_cast<std::uint32_t>(p));
        }
    std::vector<std::size_t> order(planted.truth.size());
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    Planted shuffled;
    for (std::size_t i : order) {
        shuffled.bbvs.push_back(planted.bbvs[i]);
        shuffled.truth.push_back(planted.truth[i]);
    }
    return shuffled;
}

struct PlantedFeatures {
    std::vector<std::vector<float>> features;
    std::vector<std::uint32_t> truth;
};

/// Gaussian clusters in 6 dimensions whose units differ by up to 10^6 (so only z-normalisation
/// lets every dimension count), plus a constant dimension. Cluster c's centre in dimension d is
/// 8·cos(θ_d + 2πc/clusters): for three or more clusters the centres spread equally (variance 32)
/// in every dimension, so after z-normalisation the clusters are spherical with one shared
/// variance — the BIC's model. (With two clusters, or clusters that differ in only some
/// dimensions, normalisation leaves them elongated and the spherical BIC splits them further:
/// the model's known limit, documented in PhaseClustering.)
PlantedFeatures plantedFeatures(std::size_t clusters, std::size_t perCluster, unsigned seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0.0, 1.0);
    const std::vector<double> scale{1.0, 1000.0, 0.001, 5.0, 1.0, 200.0};
    std::vector<std::vector<double>> centres(clusters);
    for (std::size_t c = 0; c < clusters; ++c)
        for (std::size_t d = 0; d < scale.size(); ++d)
            centres[c].push_back(8.0 * std::cos(0.7 * static_cast<double>(d) +
                                                2.0 * std::numbers::pi * static_cast<double>(c) /
                                                    static_cast<double>(clusters)));
    PlantedFeatures planted;
    for (std::size_t i = 0; i < clusters * perCluster; ++i) {
        const std::size_t c = (i * 7919) % clusters; // interleaved
        std::vector<float> f;
        for (std::size_t d = 0; d < scale.size(); ++d)
            f.push_back(static_cast<float>((centres[c][d] + noise(rng)) * scale[d]));
        f.push_back(42.0f);
        planted.features.push_back(std::move(f));
        planted.truth.push_back(static_cast<std::uint32_t>(c));
    }
    return planted;
}

/// Structural checks every clustering result must pass.
void checkShape(const PhaseClusters& result, std::size_t regions) {
    QCOMPARE(result.phaseOf.size(), regions);
    QCOMPARE(result.centroids.size(), result.k);
    QCOMPARE(result.sizes.size(), result.k);
    QCOMPARE(result.representatives.size(), result.k);
    QCOMPARE(result.phaseOf.front(), 0u); // numbered by first appearance
    std::uint32_t next = 0;
    for (std::uint32_t p : result.phaseOf) {
        QVERIFY(p <= next);
        if (p == next)
            ++next;
    }
    QCOMPARE(std::size_t(next), result.k);
    std::size_t total = 0;
    for (std::size_t p = 0; p < result.k; ++p) {
        QVERIFY(result.sizes[p] > 0);
        total += result.sizes[p];
        QCOMPARE(result.phaseOf[result.representatives[p]], std::uint32_t(p));
        QCOMPARE(result.centroids[p].size(), result.dimensions);
    }
    QCOMPARE(total, regions);
}

} // namespace

class PhasesTest : public QObject {
    Q_OBJECT

private slots:
    void projectionIsDeterministicPerPc() {
        const RandomProjection projection;
        QCOMPARE(projection.dimensions(), std::size_t(15));
        const auto a = projection.project({{0x1000, 1}, {0x2000, 3}});
        QCOMPARE(a.size(), std::size_t(15));
        // Order, scale and repeated PCs do not matter: only the normalised distribution does.
        QCOMPARE(projection.project({{0x2000, 3}, {0x1000, 1}}), a);
        QCOMPARE(projection.project({{0x1000, 2}, {0x2000, 6}}), a);
        QCOMPARE(projection.project({{0x2000, 1}, {0x1000, 1}, {0x2000, 2}}), a);
        // Linear: the projection of the mixture is the mixture of the projections.
        const auto one = projection.project({{0x1000, 1}});
        const auto three = projection.project({{0x2000, 1}});
        for (std::size_t d = 0; d < 15; ++d) {
            QVERIFY(std::abs(a[d] - (0.25 * one[d] + 0.75 * three[d])) <= 1e-15);
            QCOMPARE(one[d], projection.coefficient(0x1000, d));
        }
        // Another seed gives another matrix; entries spread over [-1, 1) around 0.
        QVERIFY(RandomProjection(15, 7).project({{0x1000, 1}}) != one);
        double sum = 0, lowest = 1, highest = -1;
        for (std::uint64_t pc = 0; pc < 2000; ++pc) {
            const double c = projection.coefficient(pc * 4, pc % 15);
            sum += c;
            lowest = std::min(lowest, c);
            highest = std::max(highest, c);
        }
        QVERIFY(std::abs(sum / 2000) < 0.05);
        QVERIFY(lowest >= -1.0 && lowest < -0.95);
        QVERIFY(highest < 1.0 && highest > 0.95);
        QVERIFY(errorOf([&] { projection.project({{0x1000, 0}}); }).contains("no executed"));
        QVERIFY(errorOf([] { RandomProjection(0); }).contains("at least one dimension"));
    }

    void kmeansOnALine() {
        const std::vector<double> points{0.0, 10.1, 0.1, 10.0, 0.2, 10.2};
        const KMeans::Result r = KMeans::run(points, 1, 2);
        QCOMPARE(r.k, std::size_t(2));
        QVERIFY(r.converged);
        QCOMPARE(r.assignment[0], r.assignment[2]);
        QCOMPARE(r.assignment[0], r.assignment[4]);
        QCOMPARE(r.assignment[1], r.assignment[3]);
        QVERIFY(r.assignment[0] != r.assignment[1]);
        QVERIFY(std::abs(r.distortion - 0.04) < 1e-12);
        QCOMPARE(r.sizes, (std::vector<std::size_t>{3, 3}));
        const double low = std::min(r.centroids[0], r.centroids[1]);
        QVERIFY(std::abs(low - 0.1) < 1e-12);
        // Duplicated points with k above the number of distinct points: empty clusters, no crash.
        const std::vector<double> same(10, 3.0);
        const KMeans::Result d = KMeans::run(same, 2, 3);
        QCOMPARE(d.distortion, 0.0);
        QVERIFY(errorOf([&] { KMeans::run(points, 1, 7); }).contains("1 ≤ k ≤ 6"));
        QVERIFY(errorOf([&] { KMeans::run(points, 4, 1); }).contains("whole rows"));
    }

    void bicFollowsTheDocumentedFormula() {
        // Two clusters of 2 points in 1 dimension, distortion 4: σ² = 4 / (1·(4−2)) = 2.
        const std::vector<std::size_t> sizes{2, 2};
        const double expected = 4 * std::log(0.5) - 2.0 * std::log(2 * std::numbers::pi * 2.0) -
                                4.0 / (2 * 2.0) - (1.0 + 2.0 + 1.0) / 2 * std::log(4.0);
        QVERIFY(std::abs(BicScore::compute(sizes, 4.0, 1, 1e-9) - expected) < 1e-12);
        // The floor replaces a vanishing variance.
        const double floored = 4 * std::log(0.5) - 2.0 * std::log(2 * std::numbers::pi * 0.5) -
                               0.0 - 2.0 * std::log(4.0);
        QVERIFY(std::abs(BicScore::compute(sizes, 0.0, 1, 0.5) - floored) < 1e-12);
        // An empty cluster adds no weight term but costs parameters.
        const std::vector<std::size_t> withEmpty{2, 2, 0};
        QVERIFY(BicScore::compute(withEmpty, 4.0, 1, 1e-9) <
                BicScore::compute(sizes, 4.0, 1, 1e-9));
    }

    void recoversPlantedBbvPhases() {
        const Planted planted = plantedBbvs(4, 20, 20000, 0.02, 1);
        const PhaseClusters result = PhaseClustering::fromBasicBlockVectors(planted.bbvs);
        checkShape(result, planted.bbvs.size());
        QCOMPARE(result.space, std::string("bbv"));
        QCOMPARE(result.dimensions, std::size_t(15));
        QCOMPARE(result.k, std::size_t(4));
        QCOMPARE(adjustedRand(result.phaseOf, planted.truth), 1.0);
        // Every k from 1 to maxK was scored; the best BIC is at the planted k or above, and the
        // chosen k is the smallest within 90 % of the BIC range.
        QCOMPARE(result.scores.size(), std::size_t(10));
        double lowest = 1e300, highest = -1e300;
        for (const auto& s : result.scores) {
            lowest = std::min(lowest, s.bic);
            highest = std::max(highest, s.bic);
        }
        const double threshold = lowest + 0.9 * (highest - lowest);
        QVERIFY(result.scores[3].bic >= threshold);
        QVERIFY(result.scores[2].bic < threshold);
        QVERIFY(result.scores[0].distortion > result.scores[3].distortion);
        QCOMPARE(result.weight(0), double(result.sizes[0]) / 80.0);
        QCOMPARE(result.sizes, (std::vector<std::size_t>{20, 20, 20, 20}));
    }

    void noisyBbvPhases() {
        // Shorter regions and 15 % stray blocks: still (nearly) the planted partition.
        const Planted planted = plantedBbvs(3, 30, 2000, 0.15, 2);
        const PhaseClusters result = PhaseClustering::fromBasicBlockVectors(planted.bbvs);
        checkShape(result, planted.bbvs.size());
        const double ari = adjustedRand(result.phaseOf, planted.truth);
        qInfo("noisy BBVs: k = %zu, adjusted Rand index %.3f", result.k, ari);
        QCOMPARE(result.k, std::size_t(3));
        QVERIFY(ari >= 0.95);
    }

    void deterministic() {
        const Planted planted = plantedBbvs(3, 15, 5000, 0.05, 3);
        const PhaseClusters a = PhaseClustering::fromBasicBlockVectors(planted.bbvs);
        const PhaseClusters b = PhaseClustering::fromBasicBlockVectors(planted.bbvs);
        QCOMPARE(a.phaseOf, b.phaseOf);
        QCOMPARE(a.centroids, b.centroids);
        QCOMPARE(a.representatives, b.representatives);
        QCOMPARE(a.toJson().dump(), b.toJson().dump()); // every BIC bit too
        // Another k-means seed may number clusters differently but finds the same phases.
        PhaseClustering::Options options;
        options.kmeans.seed = 12345;
        const PhaseClusters c = PhaseClustering::fromBasicBlockVectors(planted.bbvs, options);
        QCOMPARE(adjustedRand(a.phaseOf, c.phaseOf), 1.0);
    }

    void identicalRegionsAreOnePhase() {
        const std::vector<BasicBlockVector> same(12, BasicBlockVector{{0x10, 50}, {0x40, 25}});
        const PhaseClusters bbv = PhaseClustering::fromBasicBlockVectors(same);
        checkShape(bbv, 12);
        QCOMPARE(bbv.k, std::size_t(1));
        QCOMPARE(bbv.representatives, (std::vector<std::size_t>{0}));
        const std::vector<std::vector<float>> features(9, std::vector<float>{1.0f, 2.0f, 3.0f});
        const PhaseClusters f = PhaseClustering::fromFeatures(features);
        QCOMPARE(f.k, std::size_t(1));
        QCOMPARE(f.space, std::string("features"));
        // A single region is one phase.
        QCOMPARE(PhaseClustering::fromFeatures(std::vector<std::vector<float>>{{1.0f}}).k,
                 std::size_t(1));
    }

    void featureFallbackRecoversPlantedClusters() {
        const PlantedFeatures four = plantedFeatures(4, 20, 9);
        const PhaseClusters fourResult = PhaseClustering::fromFeatures(four.features);
        QCOMPARE(fourResult.k, std::size_t(4));
        QVERIFY(adjustedRand(fourResult.phaseOf, four.truth) >= 0.95);

        const PlantedFeatures planted = plantedFeatures(3, 25, 4);
        const PhaseClusters result = PhaseClustering::fromFeatures(planted.features);
        checkShape(result, planted.features.size());
        QCOMPARE(result.dimensions, std::size_t(7));
        QCOMPARE(result.k, std::size_t(3));
        QVERIFY(adjustedRand(result.phaseOf, planted.truth) >= 0.95);
        // The constant feature is 0 after z-normalisation, so centroids are 0 there.
        for (const auto& c : result.centroids)
            QCOMPARE(c[6], 0.0);

        // Without z-normalisation the 1000× dimension dominates; the helper is what prevents it.
        std::vector<double> flat;
        for (const auto& f : planted.features)
            flat.insert(flat.end(), f.begin(), f.end());
        const std::vector<double> z = PhaseClustering::zNormalise(flat, 7);
        for (std::size_t d = 0; d < 6; ++d) {
            double mean = 0, square = 0;
            for (std::size_t i = 0; i < planted.features.size(); ++i) {
                mean += z[i * 7 + d];
                square += z[i * 7 + d] * z[i * 7 + d];
            }
            mean /= static_cast<double>(planted.features.size());
            QVERIFY(std::abs(mean) < 1e-9);
            QVERIFY(std::abs(square / static_cast<double>(planted.features.size()) - 1.0) < 1e-9);
        }

        // A fixed k skips the search.
        PhaseClustering::Options options;
        options.fixedK = 2;
        const PhaseClusters two = PhaseClustering::fromFeatures(planted.features, options);
        QCOMPARE(two.k, std::size_t(2));
        QCOMPARE(two.scores.size(), std::size_t(1));
        QCOMPARE(two.scores[0].k, std::size_t(2));
    }

    void json() {
        const PlantedFeatures planted = plantedFeatures(3, 4, 5);
        const PhaseClusters result = PhaseClustering::fromFeatures(planted.features);
        const nlohmann::json j = result.toJson();
        QCOMPARE(j["k"].get<std::size_t>(), result.k);
        QCOMPARE(j["phase_of"].size(), std::size_t(12));
        QCOMPARE(j["phases"].size(), result.k);
        QCOMPARE(j["phases"][0]["representative"].get<std::size_t>(), result.representatives[0]);
        QCOMPARE(j["phases"][0]["centroid"].size(), std::size_t(7));
        QCOMPARE(j["scores"].size(), std::size_t(6)); // k = 1 .. 12 regions / 2
        QCOMPARE(j["space"].get<std::string>(), std::string("features"));
    }

    void inputErrors() {
        ErrorKind kind = ErrorKind::Usage;
        QVERIFY(errorOf([] { PhaseClustering::fromBasicBlockVectors({}); }, &kind)
                    .contains("no regions"));
        QCOMPARE(kind, ErrorKind::BadInput);
        const std::vector<BasicBlockVector> withEmpty{{{0x10, 5}}, {}};
        QVERIFY(errorOf([&] {
                    PhaseClustering::fromBasicBlockVectors(withEmpty);
                }).contains("region 1 has an empty basic-block vector"));
        const std::vector<std::vector<float>> ragged{{1, 2}, {1, 2, 3}};
        QVERIFY(errorOf([&] {
                    PhaseClustering::fromFeatures(ragged);
                }).contains("region 1 has 3 features, region 0 has 2"));
        const std::vector<std::vector<float>> nan{{1, 2}, {1, std::nanf("")}};
        QVERIFY(errorOf([&] { PhaseClustering::fromFeatures(nan); }).contains("non-finite"));
        PhaseClustering::Options options;
        options.fixedK = 3;
        const std::vector<std::vector<float>> two{{1}, {2}};
        QVERIFY(errorOf([&] { PhaseClustering::fromFeatures(two, options); }, &kind)
                    .contains("exceeds the number of regions (2)"));
        QCOMPARE(kind, ErrorKind::Usage);
        options.fixedK = 0;
        options.bicThreshold = 1.5;
        QVERIFY(errorOf([&] {
                    PhaseClustering::fromFeatures(two, options);
                }).contains("between 0 and 1"));
    }
};

QTEST_APPLESS_MAIN(PhasesTest)
#include "PhasesTest.moc"
