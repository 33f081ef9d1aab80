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
    /// A composed network (Mlp::makeComposed) when not empty: `hidden` are then the sizes of
    /// the monotone layers on top of the groups' sub-networks. Excludes inputConstraints.
    MlpComposition composition;
    /// Composed networks: weight of the group-order penalty (GroupOrderContext); 0 turns it off.
    double groupOrderPenalty = 0;
};

/// What a composed network's group-order penalty needs to know about each training sample.
///
/// The precomputation makes every group output fall (or stay) as the core grows by replacing it
/// with its minimum over the smaller cores of its group's lattice (MonotoneEnvelope). That is
/// exact only for outputs that already fall; where a trained output rises, the repair moves the
/// prediction away from what training fitted. So training pairs each sample with another of the
/// same region: where one's group parameters are all no bigger than the other's, the group's
/// features differ only through those parameters, and an output that is higher at the bigger
/// core pays `groupOrderPenalty` times the excess (a hinge, averaged over the batch).
struct GroupOrderContext {
    /// Per sample (column of the inputs): its region; pairs are drawn within a region.
    std::vector<std::uint32_t> region;
    /// Parameters × samples: each parameter's value signed so that larger is a bigger core
    /// (ParameterSpace::betterDirection); unordered parameters (choices) hold their value.
    Eigen::MatrixXf position;
    /// Per parameter row: compared by ≤ (ordered) or must be equal (choices).
    std::vector<bool> ordered;
    /// Per group of the composition: the parameter rows it depends on (empty: a fixed group).
    std::vector<std::vector<int>> groupParams;

    bool empty() const { return region.empty(); }
    /// The context of a subset of the samples, in the order of `columns`.
    GroupOrderContext select(const std::vector<std::size_t>& columns) const;
};

/// What happened in training.
struct TrainingReport {
    int epochsRun = 0;
    int bestEpoch = 0;
    double trainLoss = 0;      ///< mean relative error on the training part at the best epoch
    double validationLoss = 0; ///< the same on the validation part
    double finalLearningRate = 0;
    std::vector<double> validationHistory;
    /// Composed networks with the group-order penalty: per epoch, the mean hinge excess per
    /// training sample (how much group outputs still rise toward bigger cores within pairs).
    std::vector<double> groupOrderHistory;
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
    /// The same with a composed network's group-order penalty (options.groupOrderPenalty > 0),
    /// `context` describing each column of `inputs`.
    Mlp train(const Eigen::MatrixXf& inputs, const Eigen::VectorXf& targets,
              const GroupOrderContext& context, TrainingReport& report,
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
