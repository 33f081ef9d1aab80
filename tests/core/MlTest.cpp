// The MLP: analytical gradients against finite differences, learning a known function,
// determinism, and serialisation.
#include "common/ConcordeError.h"
#include "common/Crc32.h"
#include "ml/FeatureNormalizer.h"
#include "ml/LinearBaseline.h"
#include "ml/Mlp.h"
#include "ml/MlpTrainer.h"

#include <QtTest>
#include <nlohmann/json.hpp>
#include <random>

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
        Mlp mlp({5, 7, 4, 1}, 3);
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
        QCOMPARE(checked, 5 * 7 + 7 * 4 + 4 * 1);
        // The loss gradient of the mean relative error: sign(ŷ − y) / (y · n).
        Eigen::VectorXf predictions(3), targets(3);
        predictions << 2, 1, 3;
        targets << 1, 2, 3;
        const Eigen::RowVectorXf g = MlpTrainer::lossGradient(predictions, targets);
        QCOMPARE(g(0), 1.0f / 3);
        QCOMPARE(g(1), -1.0f / 6);
        QCOMPARE(g(2), 0.0f);
    }

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
