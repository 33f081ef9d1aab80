#pragma once

#include "common/JobControl.h"
#include "ml/Mlp.h"

#include <nlohmann/json_fwd.hpp>

namespace concorde {

/// Training settings (docs/design.md §8): AdamW on the relative error |ŷ − y| / y, mini-batches, a
/// validation split with early stopping. Deterministic for a given seed.
struct TrainingOptions {
    std::vector<int> hidden{256, 128};
    int maxEpochs = 200;
    int batchSize = 256;
    double learningRate = 1e-3;
    double weightDecay = 1e-4; ///< decoupled (AdamW), applied to weights, not biases
    double beta1 = 0.9;
    double beta2 = 0.999;
    double epsilon = 1e-8;
    double validationFraction = 0.1;
    int patience = 15; ///< epochs without validation improvement before stopping
    /// Epochs without improvement before the learning rate is multiplied by decayFactor
    /// (0: constant learning rate).
    int plateau = 5;
    double decayFactor = 0.5;
    std::uint64_t seed = 1;
    /// One per input for a monotone network (Mlp::makeMonotone; weights are projected back
    /// onto the constraints after every step); empty for an unconstrained one.
    std::vector<InputConstraint> inputConstraints;
};

/// What happened in training.
struct TrainingReport {
    int epochsRun = 0;
    int bestEpoch = 0;
    double trainLoss = 0;      ///< mean relative error on the training part at the best epoch
    double validationLoss = 0; ///< the same on the validation part
    double finalLearningRate = 0;
    std::vector<double> validationHistory;
    std::size_t trainSamples = 0;
    std::size_t validationSamples = 0;
    nlohmann::json toJson() const;
};

/// Trains an Mlp. Inputs are normalised feature vectors (features × samples), targets CPIs.
class MlpTrainer {
public:
    explicit MlpTrainer(TrainingOptions options = {}) : options_(std::move(options)) {}

    /// Reports each epoch out of maxEpochs, with its training and validation error as the
    /// item and the log line. A cancelled job stops after the epoch and throws jobCancelled.
    Mlp train(const Eigen::MatrixXf& inputs, const Eigen::VectorXf& targets, TrainingReport& report,
              const JobControl& job = {}) const;

    /// Mean relative error of `model` on a data set.
    static double meanRelativeError(const Mlp& model, const Eigen::MatrixXf& inputs,
                                    const Eigen::VectorXf& targets);
    /// dLoss/dŷ of the mean relative error over a batch.
    static Eigen::RowVectorXf lossGradient(const Eigen::VectorXf& predictions,
                                           const Eigen::VectorXf& targets);

private:
    TrainingOptions options_;
};

} // namespace concorde
