// The MLP: analytical gradients against finite differences, learning a known function,
// determinism, and serialisation.
#include "common/ConcordeError.h"
#include "common/Crc32.h"
#include "features/FeatureLayout.h"
#include "ml/BandCalibration.h"
#include "ml/FeatureNormalizer.h"
#include "ml/LinearBaseline.h"
#include "ml/Mlp.h"
#include "ml/MlpTrainer.h"
#include "ml/MonotoneConstraints.h"
#include "ml/OutOfDistributionScore.h"

#include <QtTest>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

using namespace concorde;

namespace {

Eigen::MatrixXf randomMatrix(int rows, int cols, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    Eigen::MatrixXf m(rows, cols);
    for (int c = 0; c < cols; ++c)
        for (int r = 0; r < rows; ++r)
            m(r, c) = static_cast<float>((double(rng() >> 11) / 9007199254740992.0) * 2.0 - 1.0);
    return m;
}

// A data set with a known smooth target: CPI = 1 + 0.5·x0 + x1² + 0.3·x2·x3 on [-1, 1]^4.
void knownFunction(int samples, std::uint64_t seed, Eigen::MatrixXf& x, Eigen::VectorXf& y) {
    x = randomMatrix(4, samples, seed);
    y.resize(samples);
    for (int s = 0; s < samples; ++s)
        y(s) = 1.0f + 0.5f * x(0, s) + x(1, s) * x(1, s) + 0.3f * x(2, s) * x(3, s) + 0.6f;
}

} // namespace

class MlTest : public QObject {
    Q_OBJECT

private slots:
    // Backpropagation against central differences of L = Σ_j c_j ŷ_j, whose output gradient is
    // exactly c.
    void gradientCheck() {
        checkGradients(Mlp({5, 7, 4, 1}, 3));
        // A monotone network: mixed convex/concave units, sign-constrained weights.
        Mlp monotone({5, 7, 4, 1}, 3);
        monotone.makeMonotone({InputConstraint::NonIncreasing, InputConstraint::NonDecreasing,
                               InputConstraint::Free, InputConstraint::Unused,
                               InputConstraint::NonIncreasing});
        checkGradients(monotone);
        // A composed network: masked group layers, linear group outputs, a monotone top.
        checkGradients(smallComposed(3));
        // The loss gradient of the mean relative error: sign(ŷ − y) / (y · n).
        Eigen::VectorXf predictions(3), targets(3);
        predictions << 2, 1, 3;
        targets << 1, 2, 3;
        const Eigen::RowVectorXf g = MlpTrainer::lossGradient(predictions, targets);
        QCOMPARE(g(0), 1.0f / 3);
        QCOMPARE(g(1), -1.0f / 6);
        QCOMPARE(g(2), 0.0f);
    }

    // Issue 17: a monotone network moves its output only the allowed way in each constrained
    // input, ignores Unused inputs, and stays so after training on data that goes the other way
    // (projected steps).
    void monotoneNetworkHoldsItsConstraints() {
        const std::vector<InputConstraint> constraints{
            InputConstraint::NonIncreasing, InputConstraint::NonDecreasing, InputConstraint::Free,
            InputConstraint::Unused};
        const auto verify = [&](const Mlp& mlp, const char* what) {
            std::mt19937_64 rng(9);
            for (int trial = 0; trial < 300; ++trial) {
                Eigen::VectorXf x = randomMatrix(4, 1, rng()).col(0) * 2.0f;
                const double base = mlp.predict(x);
                for (int input = 0; input < 4; ++input) {
                    Eigen::VectorXf up = x;
                    up(input) += 0.7f;
                    const double moved = mlp.predict(up);
                    if (input == 0)
                        QVERIFY2(moved <= base + 1e-6, what);
                    else if (input == 1)
                        QVERIFY2(moved >= base - 1e-6, what);
                    else if (input == 3)
                        QVERIFY2(moved == base, what);
                }
            }
        };
        Mlp mlp({4, 16, 8, 1}, 21);
        mlp.makeMonotone(constraints);
        QVERIFY(mlp.monotone());
        verify(mlp, "initialised");
        // Data rising with x0 and falling with x1: against both constraints.
        const Eigen::MatrixXf x = randomMatrix(4, 400, 22);
        Eigen::VectorXf y(400);
        for (int s = 0; s < 400; ++s)
            y(s) = 2.0f + 0.8f * x(0, s) - 0.6f * x(1, s) + 0.3f * x(2, s) * x(2, s);
        TrainingOptions options;
        options.hidden = {16, 8};
        options.maxEpochs = 30;
        options.inputConstraints = constraints;
        TrainingReport report;
        const Mlp trained = MlpTrainer(options).train(x, y, report);
        QVERIFY(trained.monotone());
        verify(trained, "trained");
        // The blob keeps the constraints; weights that break them are refused.
        const auto blob = trained.toBlob();
        const Mlp back = Mlp::fromBlob(blob);
        QVERIFY(back.inputConstraints() == constraints);
        QVERIFY(back.predict(x) == trained.predict(x));
        Mlp broken = trained;
        broken.weights()[1](0, 0) = -0.5f; // a negative weight after the first layer
        try {
            Mlp::fromBlob(broken.toBlob());
            QFAIL("weights breaking the monotonicity constraints were accepted");
        } catch (const ConcordeError& e) {
            QVERIFY2(QString(e.what()).contains("monotonicity"), e.what());
        }
        QVERIFY_THROWS_EXCEPTION(ConcordeError, Mlp({4, 3, 1}, 1).makeMonotone({}));
    }

    // Issue 17 item 5: a composed network keeps its structure through training (a group's
    // units see only its inputs), rises with every varying group's outputs, round-trips
    // through its blob, and a blob whose weights break the structure is refused.
    void composedNetworkKeepsItsStructure() {
        const Eigen::MatrixXf x = randomMatrix(5, 400, 31);
        Eigen::VectorXf y(400);
        for (int s = 0; s < 400; ++s)
            y(s) = 2.0f + 0.8f * x(0, s) * x(1, s) - 0.6f * x(2, s) + 0.3f * x(4, s) * x(4, s);
        TrainingOptions options;
        options.hidden = {6};
        options.maxEpochs = 20;
        options.composition = smallComposed(1).composition();
        TrainingReport report;
        const Mlp trained = MlpTrainer(options).train(x, y, report);
        QVERIFY(trained.composed() && trained.monotone());
        QCOMPARE(trained.constrainedLayer(), std::size_t(2));
        const MlpComposition& c = trained.composition();
        for (Eigen::Index col = 0; col < 5; ++col)
            for (Eigen::Index r = 0; r < trained.weights()[0].rows(); ++r)
                if (r / c.unitsPerGroup != c.inputGroup[static_cast<std::size_t>(col)])
                    QCOMPARE(trained.weights()[0](r, col), 0.0f);
        // Moving group 1's inputs (2 and 3) leaves groups 0's and 2's outputs where they were.
        const auto groupOutputs = [&](const Eigen::VectorXf& in) {
            Eigen::VectorXf h = trained.weights()[0] * in + trained.biases()[0];
            return Eigen::VectorXf(trained.weights()[1] * h.cwiseMax(0.0f) + trained.biases()[1]);
        };
        Eigen::VectorXf a = x.col(0), b = a;
        b(2) += 0.9f;
        b(3) -= 0.4f;
        const Eigen::VectorXf za = groupOutputs(a), zb = groupOutputs(b);
        for (Eigen::Index r = 0; r < za.size(); ++r)
            if (r / c.outputsPerGroup != 1)
                QCOMPARE(za(r), zb(r));
        QVERIFY((za - zb).norm() > 0);
        for (Eigen::Index r = 0; r < trained.weights()[2].rows(); ++r)
            for (Eigen::Index col = 0; col < 2 * c.outputsPerGroup; ++col)
                QVERIFY(trained.weights()[2](r, col) >= 0.0f); // varying groups: non-negative
        QVERIFY(trained.weights()[3].minCoeff() >= 0.0f);
        const Mlp back = Mlp::fromBlob(trained.toBlob());
        QVERIFY(back.composition() == c);
        QVERIFY(back.predict(x) == trained.predict(x));
        Mlp broken = trained;
        broken.weights()[0](0, 4) = 0.25f; // group 0's unit reading group 2's input
        try {
            Mlp::fromBlob(broken.toBlob());
            QFAIL("weights breaking the composition were accepted");
        } catch (const ConcordeError& e) {
            QVERIFY2(QString(e.what()).contains("monotonicity"), e.what());
        }
        QVERIFY_THROWS_EXCEPTION(ConcordeError, Mlp({5, 6, 6, 1}, 1).makeComposed(c));
        options.inputConstraints.assign(5, InputConstraint::Free);
        QVERIFY_THROWS_EXCEPTION(ConcordeError, MlpTrainer(options).train(x, y, report));
    }

    // The standard layout's groups are the precomputation's hosts: every block lands in the
    // group of the host holding its parameters, and the fixed blocks in the last group.
    void compositionOfTheStandardLayout() {
        const FeatureLayout layout = FeatureLayout::standard();
        const MlpComposition c = MlpComposition::forLayout(layout, 12, 4);
        QCOMPARE(c.inputGroup.size(), layout.width());
        QVERIFY(!c.groupVaries.back());
        std::map<std::uint16_t, std::set<ParamId>> params;
        for (const FeatureBlock& block : layout.blocks()) {
            const std::uint16_t g = c.inputGroup[block.offset];
            QVERIFY2(block.params.empty() == !c.groupVaries[g], block.name.c_str());
            params[g].insert(block.params.begin(), block.params.end());
        }
        // A group's parameters are exactly its host's, so each group has a block naming all.
        for (const auto& [g, set] : params) {
            if (!c.groupVaries[g])
                continue;
            bool host = false;
            for (const FeatureBlock& block : layout.blocks())
                host = host || (c.inputGroup[block.offset] == g &&
                                std::set<ParamId>(block.params.begin(), block.params.end()) == set);
            QVERIFY2(host, qPrintable(QString("group %1 has no host block").arg(g)));
        }
        // One varying group per maximal parameter set (no other block's set contains it).
        std::set<std::set<ParamId>> maximal;
        for (const FeatureBlock& a : layout.blocks()) {
            const std::set<ParamId> sa(a.params.begin(), a.params.end());
            bool contained = sa.empty();
            for (const FeatureBlock& b : layout.blocks()) {
                const std::set<ParamId> sb(b.params.begin(), b.params.end());
                contained =
                    contained || (sb.size() > sa.size() &&
                                  std::includes(sb.begin(), sb.end(), sa.begin(), sa.end()));
            }
            if (!contained)
                maximal.insert(sa);
        }
        QCOMPARE(c.groups(), maximal.size() + 1);
    }

private:
    /// Five inputs in three groups (two varying, the last fixed), 2 units and 2 outputs each.
    static Mlp smallComposed(std::uint64_t seed) {
        MlpComposition c;
        c.inputGroup = {0, 0, 1, 1, 2};
        c.groupVaries = {true, true, false};
        c.unitsPerGroup = 2;
        c.outputsPerGroup = 2;
        Mlp mlp({5, 6, 6, 4, 1}, seed);
        mlp.makeComposed(c);
        return mlp;
    }

    static void checkGradients(const Mlp& mlp) {
        const Eigen::MatrixXf x = randomMatrix(5, 6, 4);
        const Eigen::RowVectorXf c = randomMatrix(1, 6, 5);
        Mlp::Activations act;
        mlp.forward(x, act);
        const auto analytical = mlp.backward(act, c);
        const auto loss = [&](const Mlp& m) { return double((c * m.predict(x)).value()); };
        const float eps = 1e-3f; // small enough not to cross a ReLU kink in this network
        int checked = 0;
        for (std::size_t l = 0; l < mlp.weights().size(); ++l) {
            for (Eigen::Index i = 0; i < mlp.weights()[l].size(); ++i) {
                Mlp plus = mlp, minus = mlp;
                plus.weights()[l].data()[i] += eps;
                minus.weights()[l].data()[i] -= eps;
                const double numerical = (loss(plus) - loss(minus)) / (2 * eps);
                const double a = analytical.weights[l].data()[i];
                QVERIFY2(std::abs(numerical - a) <= 2e-2 * std::max(1.0, std::abs(numerical)),
                         qPrintable(QString("layer %1 weight %2: numerical %3, analytical %4")
                                        .arg(l)
                                        .arg(i)
                                        .arg(numerical)
                                        .arg(a)));
                ++checked;
            }
            for (Eigen::Index i = 0; i < mlp.biases()[l].size(); ++i) {
                Mlp plus = mlp, minus = mlp;
                plus.biases()[l](i) += eps;
                minus.biases()[l](i) -= eps;
                const double numerical = (loss(plus) - loss(minus)) / (2 * eps);
                QVERIFY(std::abs(numerical - analytical.biases[l](i)) <=
                        2e-2 * std::max(1.0, std::abs(numerical)));
            }
        }
        int expected = 0;
        for (const auto& w : mlp.weights())
            expected += static_cast<int>(w.size());
        QCOMPARE(checked, expected);
    }

private slots:

    void learnsAKnownFunction() {
        Eigen::MatrixXf x, testX;
        Eigen::VectorXf y, testY;
        knownFunction(4000, 7, x, y);
        knownFunction(1000, 8, testX, testY);
        TrainingOptions options;
        options.hidden = {32, 16};
        options.maxEpochs = 150;
        options.batchSize = 64;
        options.learningRate = 3e-3;
        TrainingReport report;
        const Mlp model = MlpTrainer(options).train(x, y, report);
        const double error = MlpTrainer::meanRelativeError(model, testX, testY);
        // Predicting the mean CPI for everything is the baseline to beat by far.
        const double meanCpi = y.mean();
        const double baseline = ((testY.array() - meanCpi).abs() / testY.array()).mean();
        qInfo("held-out mean relative error %.4f (constant predictor %.4f), best epoch %d", error,
              baseline, report.bestEpoch);
        QVERIFY2(error < 0.03, qPrintable(QString::number(error)));
        QVERIFY(error < baseline / 5);
        QCOMPARE(report.trainSamples + report.validationSamples, std::size_t(4000));
        QVERIFY(report.bestEpoch >= 1 && report.bestEpoch <= report.epochsRun);
    }

    void deterministicForASeed() {
        Eigen::MatrixXf x;
        Eigen::VectorXf y;
        knownFunction(500, 9, x, y);
        TrainingOptions options;
        options.hidden = {16};
        options.maxEpochs = 5;
        TrainingReport r1, r2, r3;
        const Mlp a = MlpTrainer(options).train(x, y, r1);
        const Mlp b = MlpTrainer(options).train(x, y, r2);
        QVERIFY(a.weights()[0] == b.weights()[0]);
        QCOMPARE(r1.validationHistory, r2.validationHistory);
        options.seed = 2;
        const Mlp c = MlpTrainer(options).train(x, y, r3);
        QVERIFY(!(a.weights()[0] == c.weights()[0]));
    }

    void badTrainingData() {
        Eigen::MatrixXf x = randomMatrix(3, 10, 1);
        Eigen::VectorXf y = Eigen::VectorXf::Ones(10);
        y(4) = -1;
        TrainingReport report;
        QVERIFY_THROWS_EXCEPTION(ConcordeError, MlpTrainer().train(x, y, report));
        QVERIFY_THROWS_EXCEPTION(ConcordeError, Mlp({3, 4}, 1)); // must end in one output
    }

    void blobRoundTripAndCorruption() {
        const Mlp mlp({6, 5, 1}, 11);
        const auto blob = mlp.toBlob();
        const Mlp back = Mlp::fromBlob(blob);
        QCOMPARE(back.layerSizes(), mlp.layerSizes());
        const Eigen::MatrixXf x = randomMatrix(6, 4, 12);
        QVERIFY(back.predict(x) == mlp.predict(x));
        auto flipped = blob;
        flipped[blob.size() / 2] ^= 0x10;
        QVERIFY_THROWS_EXCEPTION(ConcordeError, Mlp::fromBlob(flipped));
        auto shortBlob = blob;
        shortBlob.resize(blob.size() - 4);
        QVERIFY_THROWS_EXCEPTION(ConcordeError, Mlp::fromBlob(shortBlob));
        QVERIFY_THROWS_EXCEPTION(ConcordeError, Mlp::fromBlob({1, 2, 3}));
    }

    // Issue 17's out-of-distribution score on clusters whose answer is known: three programs
    // around 0, 1 and 2 in every program feature (parameter blocks ignored), two regions each.
    // A region at a program's centre scores near 0, one as far from the others as they are
    // from each other near 1, one far away well above 1; the JSON round trip keeps the scores.
    void outOfDistributionScoreOnKnownClusters() {
        const FeatureLayout layout = FeatureLayout::standard(2);
        const auto width = static_cast<Eigen::Index>(layout.width());
        const std::vector<std::string> names{"a", "b", "c"};
        std::vector<std::string> programs;
        std::vector<std::uint32_t> regions;
        Eigen::MatrixXf x(width, 60);
        std::mt19937_64 rng(4);
        for (int j = 0; j < 60; ++j) {
            const int p = j % 3;
            programs.push_back(names[static_cast<std::size_t>(p)]);
            regions.push_back(static_cast<std::uint32_t>(j / 3 % 2));
            for (Eigen::Index i = 0; i < width; ++i)
                x(i, j) = float(p) + 0.05f * float(double(rng() >> 11) / 9007199254740992.0 - 0.5);
        }
        // Parameter features vary wildly and must not matter.
        for (const FeatureBlock& block : layout.blocks())
            if (block.kind == BlockKind::Parameter)
                x.row(static_cast<Eigen::Index>(block.offset)).setRandom() *= 50.0f;
        const OutOfDistributionScore ood =
            OutOfDistributionScore::fit(layout, x, programs, regions);
        QCOMPARE(ood.programs(), std::size_t(3));
        // Regions lie about 1 from the nearest other program.
        QVERIFY2(std::abs(ood.threshold() - 1.0) < 0.05,
                 qPrintable(QString::number(ood.threshold())));
        Eigen::VectorXf probe = Eigen::VectorXf::Constant(width, 1.0f);
        QVERIFY(ood.score(probe) < 0.05);
        QCOMPARE(ood.nearestProgram(probe), std::string("b"));
        probe.setConstant(2.9f);
        QVERIFY(std::abs(ood.score(probe) - 0.9) < 0.05);
        probe.setConstant(-4.0f);
        QVERIFY(ood.score(probe) > 3.5);
        const OutOfDistributionScore back =
            OutOfDistributionScore::fromJson(ood.toJson(), layout.width(), "m");
        QVERIFY(std::abs(back.score(probe) - ood.score(probe)) < 1e-5);
        nlohmann::json bad = ood.toJson();
        bad["centroids"]["a"] = {1.0, 2.0};
        try {
            OutOfDistributionScore::fromJson(bad, layout.width(), "m");
            QFAIL("a centroid of the wrong length was accepted");
        } catch (const ConcordeError& e) {
            QVERIFY2(QString(e.what()).contains("centroids"), e.what());
        }
        // One program: nothing to compare against, so no score.
        const OutOfDistributionScore single =
            OutOfDistributionScore::fit(layout, x.leftCols(1), {"a"}, {0});
        QVERIFY(single.empty());
        QCOMPARE(single.score(probe), 0.0);
    }

    // The standard layout's constraints, block by block (MonotoneConstraints' table).
    void monotoneConstraintsOfTheStandardLayout() {
        const FeatureLayout layout = FeatureLayout::standard(10);
        const auto c = MonotoneConstraints::forLayout(layout);
        QCOMPARE(c.size(), layout.width());
        const auto at = [&](const char* block, std::size_t i) {
            return c[layout.block(block).offset + i];
        };
        // rob: 21 encoded floats (IPC percentiles, weighted percentiles, mean), then the
        // resource-alone CPI.
        for (std::size_t i = 0; i < 21; ++i)
            QVERIFY(at("rob", i) == InputConstraint::NonIncreasing);
        QVERIFY(at("rob", 21) == InputConstraint::NonDecreasing);
        QVERIFY(at("aux.mispredict", 0) == InputConstraint::NonDecreasing);
        QVERIFY(at("aux.rob_sizes", 3) == InputConstraint::NonIncreasing);
        QVERIFY(at("aux.latency_issue_wait", 5) == InputConstraint::Unused);
        QVERIFY(at("aux.fences", 0) == InputConstraint::Free);
        QVERIFY(at("aux.branches", 30) == InputConstraint::Free);
        QVERIFY(at("param.rob", 0) == InputConstraint::NonIncreasing);
        QVERIFY(at("param.l2_kb", 0) == InputConstraint::NonIncreasing);
        QVERIFY(at("param.bp_miss_pct", 0) == InputConstraint::NonDecreasing);
        QVERIFY(at("param.bp", 1) == InputConstraint::Free);
    }

    // Issue 17: an ensemble's members in one blob; one member stays the plain blob that models
    // before ensembles stored, and damage is refused.
    void ensembleBlobRoundTrip() {
        const std::vector<Mlp> members{Mlp({6, 5, 1}, 1), Mlp({6, 5, 1}, 2), Mlp({6, 5, 1}, 3)};
        const auto blob = Mlp::ensembleToBlob(members);
        const std::vector<Mlp> back = Mlp::ensembleFromBlob(blob);
        QCOMPARE(back.size(), std::size_t(3));
        const Eigen::MatrixXf x = randomMatrix(6, 4, 12);
        for (std::size_t m = 0; m < 3; ++m)
            QVERIFY(back[m].predict(x) == members[m].predict(x));
        QVERIFY(Mlp::ensembleToBlob({members[0]}) == members[0].toBlob());
        QCOMPARE(Mlp::ensembleFromBlob(members[0].toBlob()).size(), std::size_t(1));
        auto truncated = blob;
        truncated.resize(blob.size() - 3);
        QVERIFY_THROWS_EXCEPTION(ConcordeError, Mlp::ensembleFromBlob(truncated));
        auto many = blob;
        many[4] = 200; // a member count beyond the limit
        QVERIFY_THROWS_EXCEPTION(ConcordeError, Mlp::ensembleFromBlob(many));
        auto longer = blob;
        longer.push_back(0);
        QVERIFY_THROWS_EXCEPTION(ConcordeError, Mlp::ensembleFromBlob(longer));
        QVERIFY_THROWS_EXCEPTION(ConcordeError, Mlp::ensembleToBlob({}));
    }

    // The band's scale by hand: members e^±0.1 around m (log spread 0.1), targets m·cosh(0.1)·
    // e^(0.05 k) for k = 1..10, floor 0: the ratios are 0.5 k, and 80 % coverage takes the 8th
    // smallest, 4.0. The fitted band then holds exactly 8 of the 10.
    void bandCalibrationByHand() {
        std::vector<std::vector<double>> members;
        std::vector<double> targets;
        for (int k = 1; k <= 10; ++k) {
            const double m = 0.5 + 0.1 * k;
            members.push_back({m * std::exp(-0.1), m * std::exp(0.1)});
            targets.push_back(m * std::cosh(0.1) * std::exp((k % 2 ? 0.05 : -0.05) * k));
        }
        const BandCalibration band = BandCalibration::fit(members, targets, 0.8, 0.0);
        QVERIFY(std::abs(band.scale() - 4.0) < 1e-6);
        int inside = 0;
        for (std::size_t i = 0; i < targets.size(); ++i) {
            const CpiBand b = band.combine(members[i]);
            QVERIFY(std::abs(b.cpi - (members[i][0] + members[i][1]) / 2) < 1e-12);
            QVERIFY(b.low < b.cpi && b.cpi < b.high);
            inside += b.contains(targets[i]) ? 1 : 0;
        }
        QCOMPARE(inside, 8);
        // Centred on the first member: the same ratios around it.
        std::vector<double> firstTargets;
        for (std::size_t i = 0; i < members.size(); ++i)
            firstTargets.push_back(members[i][0] * std::exp(0.05 * double(i + 1)));
        const BandCalibration first = BandCalibration::fit(members, firstTargets, 0.8, 0.0, true);
        QVERIFY(first.firstIsCentre());
        QVERIFY(std::abs(first.scale() - 4.0) < 1e-6);
        QCOMPARE(first.combine(members[2]).cpi, members[2][0]);
        QCOMPARE(first.centre(members[2]), members[2][0]);
        QVERIFY(BandCalibration::fromJson(first.toJson(), "m").firstIsCentre());
        // One member without calibration: the band is the CPI.
        const CpiBand single = BandCalibration().combine(std::vector<double>{1.25});
        QVERIFY(single.cpi == 1.25 && single.low == 1.25 && single.high == 1.25);
        // JSON round trip, and fields checked.
        const BandCalibration back = BandCalibration::fromJson(band.toJson(), "m");
        QCOMPARE(back.scale(), band.scale());
        QCOMPARE(back.coverage(), 0.8);
        try {
            BandCalibration::fromJson({{"scale", "wide"}, {"floor", 0}, {"coverage", 0.8}}, "m");
            QFAIL("a string scale was accepted");
        } catch (const ConcordeError& e) {
            QVERIFY2(QString(e.what()).contains("scale"), e.what());
        }
        QVERIFY_THROWS_EXCEPTION(ConcordeError, BandCalibration(-1, 0, 0.8));
        QVERIFY_THROWS_EXCEPTION(ConcordeError, BandCalibration::fit(members, targets, 1.5));

        // Out-of-bag samples of two members calibrating a band for five: every spread grows by
        // spreadBias(5) / spreadBias(2), so (floor 0) the scale shrinks by the same factor and
        // the band still holds 8 of the 10 with the rescaled spreads.
        const double grow = BandCalibration::spreadBias(5) / BandCalibration::spreadBias(2);
        QVERIFY(grow > 1.4 && grow < 1.6);
        const BandCalibration forFive = BandCalibration::fit(members, targets, 0.8, 0.0, false, 5);
        QVERIFY(std::abs(forFive.scale() - 4.0 / grow) < 1e-6);
        // Samples that already have five members are not rescaled.
        std::vector<std::vector<double>> five;
        for (const auto& pair : members)
            five.push_back({pair[0], pair[1], pair[0], pair[1], std::sqrt(pair[0] * pair[1])});
        QCOMPARE(BandCalibration::fit(five, targets, 0.8, 0.0, false, 5).scale(),
                 BandCalibration::fit(five, targets, 0.8, 0.0).scale());
    }

    // The mean population standard deviation of n normal draws, in closed form (c4) and by
    // simulation: 1/√π at n = 2, and a simulated mean within 1 % for n = 2, 3 and 5.
    void spreadBiasMatchesSimulation() {
        QVERIFY(std::abs(BandCalibration::spreadBias(2) - 1 / std::sqrt(M_PI)) < 1e-12);
        QCOMPARE(BandCalibration::spreadBias(1), 0.0);
        std::mt19937_64 random(17);
        std::normal_distribution<double> normal(0.0, 1.0);
        for (const std::size_t n : {2, 3, 5}) {
            double sum = 0;
            const int trials = 200000;
            for (int t = 0; t < trials; ++t) {
                std::vector<double> draws(n);
                double mean = 0;
                for (double& d : draws)
                    mean += (d = normal(random));
                mean /= double(n);
                double squares = 0;
                for (const double d : draws)
                    squares += (d - mean) * (d - mean);
                sum += std::sqrt(squares / double(n));
            }
            const double simulated = sum / trials;
            QVERIFY2(std::abs(simulated / BandCalibration::spreadBias(n) - 1) < 0.01,
                     qPrintable(QString("n %1: %2 against %3")
                                    .arg(n)
                                    .arg(simulated)
                                    .arg(BandCalibration::spreadBias(n))));
        }
    }

    // Issue 23: a weights blob (checksum valid) declaring layers of 2^20 x 2^20 allocated them
    // before finding the blob too short: std::bad_alloc. Refused from its size first.
    void blobLayerSizesAreBoundedByItsBytes() {
        std::vector<unsigned char> blob = Mlp({4, 3, 1}, 1).toBlob();
        const auto put32 = [&](std::size_t at, std::uint32_t v) {
            for (int b = 0; b < 4; ++b)
                blob[at + b] = static_cast<unsigned char>(v >> (8 * b));
        };
        put32(16, 1u << 20); // inputs
        put32(20, 1u << 20); // hidden
        put32(12, crc32(blob.data() + 16, blob.size() - 16));
        try {
            Mlp::fromBlob(blob);
            QFAIL("a blob declaring 2^40 weights was accepted");
        } catch (const ConcordeError& e) {
            QVERIFY2(QString(e.what()).contains("layer sizes need"), e.what());
        }
    }

    void normalizer() {
        Eigen::MatrixXf x(2, 4);
        x << 1, 2, 3, 4, //
            5, 5, 5, 5;  // a constant feature
        const auto n = FeatureNormalizer::fit(x);
        const Eigen::MatrixXf z = n.apply(x);
        QVERIFY(std::abs(z.row(0).mean()) < 1e-6);
        QVERIFY(std::abs(z.row(0).squaredNorm() / 4 - 1) < 1e-5);
        QCOMPARE(z.row(1), Eigen::RowVectorXf::Zero(4));
        const auto back = FeatureNormalizer::fromJson(n.toJson());
        QVERIFY(back.apply(x) == z);
        QVERIFY_THROWS_EXCEPTION(ConcordeError, n.apply(Eigen::MatrixXf::Zero(3, 1)));
        QVERIFY_THROWS_EXCEPTION(ConcordeError,
                                 FeatureNormalizer::fromJson(nlohmann::json{{"mean", 1}}));
    }

    // Issue 23: a stored model's JSON of the wrong shape gave nlohmann's "type must be array,
    // but is string"; the message now names the field and the element.
    void malformedModelJsonNamesTheField() {
        const auto errorOf = [](const auto& action) {
            try {
                action();
            } catch (const ConcordeError& e) {
                return std::string(e.what());
            }
            return std::string();
        };
        const std::string mean = errorOf([] {
            FeatureNormalizer::fromJson(nlohmann::json::parse(R"({"mean": "x", "scale": []})"));
        });
        QVERIFY2(mean.find("\"mean\" must be an array, not a string") != std::string::npos,
                 mean.c_str());
        const std::string element = errorOf([] {
            FeatureNormalizer::fromJson(
                nlohmann::json::parse(R"({"mean": [1, null], "scale": [1, 1]})"));
        });
        QVERIFY2(element.find("mean[1] must be a finite number, not null") != std::string::npos,
                 element.c_str());
        const std::string linear =
            errorOf([] { LinearBaseline::fromJson(nlohmann::json::parse(R"({"weights": [1]})")); });
        QVERIFY2(linear.find("linear baseline: field \"bias\" is missing") != std::string::npos,
                 linear.c_str());
        QVERIFY(!errorOf([] { LinearBaseline::fromJson(nlohmann::json(7)); }).empty());
    }
};

QTEST_APPLESS_MAIN(MlTest)
#include "MlTest.moc"
