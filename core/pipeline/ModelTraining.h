#pragma once

#include "ml/AccuracyReport.h"
#include "ml/CpiModel.h"
#include "ml/MlpTrainer.h"

#include <functional>
#include <set>
#include <string>
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
        /// The test split predicted, sample by sample, by the mean of the members whose bootstrap
        /// left its program out: an estimate of the error on a program no member saw, from the
        /// training programs alone (empty for a single member or too few such samples).
        AccuracyReport outOfBag;
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
        /// CpiModel::bottleneckFloor: no member predicts below the bottleneck CPI.
        bool bottleneckFloor = false;
        /// Monotone networks (MonotoneConstraints): a larger resource never raises the CPI.
        bool monotone = false;
        /// Composed networks (MlpComposition) when composedUnits > 0: each group of blocks that
        /// share parameters gets a sub-network of this many hidden units and composedOutputs
        /// outputs under a monotone top; monotone by construction once precomputed.
        int composedUnits = 0;
        int composedOutputs = 4;
        /// Composed networks: weight of the group-order penalty (GroupOrderContext).
        double groupOrderPenalty = 0;
        /// The fraction of the "test" split (regions never trained on) the band is calibrated to
        /// hold, each sample predicted by the members whose bootstrap left its program out (the
        /// case of a program no member saw); the whole ensemble when too few samples have two
        /// such members. The held-out programs play no part in it.
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

    /// What the band is fitted on (docs/design.md §8): per sample, member predictions and the
    /// simulated CPI.
    struct BandCalibrationSet {
        std::vector<std::vector<double>> memberCpis;
        std::vector<double> simulated;
        std::vector<std::size_t> sampleIndex; ///< each entry's position in the given samples
        bool outOfBag = false;                ///< only members that never saw the sample's program
    };
    /// A user's program is one no member saw; members whose bootstrap left a training program
    /// out stand in for that case. For every sample (memberCpis: members × samples), the members
    /// that did not see its program (`seen[k]`: the programs member k trained on) make its entry;
    /// samples with fewer than two such members are skipped. With fewer than `minimum` samples
    /// left, every member on every sample is the set instead (outOfBag false). Calibrated on the
    /// whole ensemble over regions it merely did not train on, the band held 80 % there but 65 %
    /// on new programs and 36-45 % at the n1-like and little presets.
    static BandCalibrationSet bandCalibrationSet(const Eigen::MatrixXf& memberCpis,
                                                 const std::vector<DatasetSample>& samples,
                                                 const std::vector<std::set<std::string>>& seen,
                                                 std::size_t minimum);
    /// The accuracy of an out-of-bag set: each entry's sample (`samples`, the ones the set was
    /// made from) predicted by the mean of the members that never saw its program. Empty when
    /// the set is not out of bag (too few such samples, so every member predicts every one).
    static AccuracyReport outOfBagAccuracy(const BandCalibrationSet& set,
                                           const std::vector<DatasetSample>& samples);

    /// The model and both baselines on `samples` (plain forward pass on the stored features).
    static AccuracyReport evaluate(const CpiModel& model,
                                   const std::vector<DatasetSample>& samples);
    /// features × samples.
    static Eigen::MatrixXf featureMatrix(const std::vector<DatasetSample>& samples);
    /// Each sample's min-of-bounds CPI, in order (the anchor of a MinBoundAnchored model).
    static std::vector<double> minBoundCpis(const std::vector<DatasetSample>& samples);
};

} // namespace concorde
