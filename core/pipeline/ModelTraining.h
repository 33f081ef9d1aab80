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
    /// `job` follows the epochs (MlpTrainer::train). Several datasets (e.g. more programs drawn
    /// later) are pooled; their feature layouts must agree.
    static Result train(const std::vector<DatasetFile*>& datasets, const TrainingOptions& options,
                        const JobControl& job = {});

    /// The model and both baselines on `samples` (plain forward pass on the stored features).
    static AccuracyReport evaluate(const CpiModel& model,
                                   const std::vector<DatasetSample>& samples);
    /// features × samples.
    static Eigen::MatrixXf featureMatrix(const std::vector<DatasetSample>& samples);
};

} // namespace concorde
