#pragma once

#include "ml/AccuracyReport.h"
#include "ml/CpiModel.h"
#include "ml/MlpTrainer.h"

#include <functional>
#include <vector>

namespace concorde {

class DatasetFile;
struct DatasetSample;

/// `concorde train` and the dataset half of `concorde evaluate`: fits the normalisation, the MLP
/// and the linear baseline on a dataset's "train" split, and measures them on the "test" split
/// (regions never trained on) and the "held_out" split (programs never trained on).
class ModelTraining {
public:
    struct Result {
        CpiModel model;
        TrainingReport report;
        AccuracyReport test;
        AccuracyReport heldOut;
    };
    /// How many networks, what they predict, and the band they carry.
    struct EnsembleOptions {
        /// Members. With several, each trains on a bootstrap of the training programs (programs
        /// drawn with replacement, all their samples with them) with its own seed, so that their
        /// disagreement, which sets the band, reflects how much the answer depends on which
        /// programs were seen. The prediction is their mean.
        int members = 1;
        /// Instead, member 0 trains on every program and is the prediction (the others still
        /// set the band). Measured in docs/design.md §8: more accurate on unseen regions, less
        /// monotone; the shipped model uses the mean.
        bool firstMemberCentre = false;
        CpiOutput output = CpiOutput::Direct;
        /// Monotone networks (MonotoneConstraints): a larger resource never raises the CPI.
        bool monotone = false;
        /// The fraction of the "test" split (regions never trained on) the band is calibrated to
        /// hold. The held-out programs play no part in it.
        double bandCoverage = 0.8;
    };
    /// `job` follows the epochs (MlpTrainer::train; members train in parallel). Several datasets
    /// (e.g. more programs drawn later) are pooled; their feature layouts must agree.
    static Result train(const std::vector<DatasetFile*>& datasets, const TrainingOptions& options,
                        const JobControl& job = {});
    static Result train(const std::vector<DatasetFile*>& datasets, const TrainingOptions& options,
                        const EnsembleOptions& ensemble, const JobControl& job = {});
    /// The fraction of `samples` whose simulated CPI lies inside the model's band.
    static double bandCoverage(const CpiModel& model, const std::vector<DatasetSample>& samples);

    /// The model and both baselines on `samples` (plain forward pass on the stored features).
    static AccuracyReport evaluate(const CpiModel& model,
                                   const std::vector<DatasetSample>& samples);
    /// features × samples.
    static Eigen::MatrixXf featureMatrix(const std::vector<DatasetSample>& samples);
};

} // namespace concorde
