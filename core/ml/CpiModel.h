#pragma once

#include "bounds/AnalysisRevision.h"
#include "features/FeatureLayout.h"
#include "ml/BandCalibration.h"
#include "ml/FeatureNormalizer.h"
#include "ml/LinearBaseline.h"
#include "ml/Mlp.h"
#include "ml/OutOfDistributionScore.h"

#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

namespace concorde {

/// What a member network's output means.
enum class CpiOutput {
    /// The CPI itself (models before issue 17).
    Direct,
    /// A correction factor on the bottleneck CPI (anchorCpi): CPI = anchor × output. Where the
    /// network knows little, a factor near its training mean keeps the prediction tied to the
    /// analytical bound of this very configuration rather than to an average program.
    BottleneckAnchored,
    /// A correction factor on the min-of-bounds CPI of the same configuration (the mean over
    /// windows of the slowest resource's CPI): CPI = min-of-bounds × output. The anchor is not
    /// a function of the feature vector, so the caller passes it (a dataset sample's
    /// minBoundCpi); the block-precomputed path does not serve such a model yet.
    MinBoundAnchored,
};

/// Everything needed to turn a raw feature vector into a CPI and its band: the layout the
/// features follow, the normalisation learned on the training set, the ensemble's member MLPs
/// (one for a single model), what their output means, the band calibration, and (for
/// comparison) the linear baseline fitted on the same data. `metrics` holds the training report
/// and the measured accuracy (what the GUI and `concorde info` show).
struct CpiModel {
    std::string name = "cpi";
    FeatureLayout layout = FeatureLayout::standard();
    FeatureNormalizer normalizer;
    std::vector<Mlp> members;
    CpiOutput output = CpiOutput::Direct;
    /// Each member's CPI is at least the bottleneck CPI (anchorCpi), the CPI the region would
    /// have if its slowest resource alone limited it over the whole region: a lower bound of the
    /// simulated CPI (on the shipped file's labels the simulated CPI is never below 0.989 of it),
    /// which a network trained on other programs can otherwise undercut. The maximum of two
    /// monotone CPIs is monotone, so the floor keeps a monotone model monotone (the precomputed
    /// tables make the bound itself monotone, MonotoneEnvelope). Off in models before
    /// 2026-11-29.
    bool bottleneckFloor = false;
    /// The LQ bound of the features it trained on (AnalysisRevision::loadQueueThroughCommit;
    /// false in models before 2026-11-30). A model reads only features of that kind.
    bool loadQueueThroughCommit = AnalysisRevision::current().loadQueueThroughCommit;
    BandCalibration band;
    /// Where the training programs lie, for the per-region out-of-distribution score (empty
    /// in models before issue 17).
    OutOfDistributionScore ood;
    LinearBaseline linear;
    nlohmann::json metrics = nlohmann::json::object();

    /// The raw-feature indices whose maximum is the bottleneck CPI: column 0's reciprocal mean
    /// (the region's CPI under that resource alone) of every resource block of the layout
    /// (FeatureAssembler::resourceBlocks). Empty if the layout has none.
    std::vector<std::size_t> anchorColumns() const;
    /// The bottleneck CPI of one raw feature vector: the largest of `columns`' values (floored
    /// at a tiny positive CPI). It never exceeds the min-of-bounds CPI (a mean of per-window
    /// maxima is at least the maximum of the means) and needs no per-window data, so the block
    /// precomputation can carry it.
    static double anchorCpi(std::span<const float> rawFeatures,
                            std::span<const std::size_t> columns);
    /// Whether predictions need the bottleneck CPI (anchored or floored models).
    bool usesBottleneckCpi() const {
        return output == CpiOutput::BottleneckAnchored || bottleneckFloor;
    }

    /// Throws a bad-input ConcordeError (naming `context`, the features' source) when the
    /// features come from another analysis than the model trained on: the same layout, but
    /// columns that mean something else, so its predictions would be wrong without a sign.
    void checkAnalysis(const AnalysisRevision& features, const std::string& context) const;

    /// Mean CPI of the members on raw features (width = layout.width()).
    double predict(std::span<const float> rawFeatures) const;
    /// The mean and band.
    CpiBand predictBand(std::span<const float> rawFeatures) const;
    /// Batch: raw features, one column per sample → mean CPIs.
    Eigen::VectorXf predict(const Eigen::MatrixXf& rawFeatures) const;
    /// Batch: every member's CPI, members × samples. `minBoundCpis` (one per sample) is
    /// required by a MinBoundAnchored model and ignored by the others.
    Eigen::MatrixXf memberPredictions(const Eigen::MatrixXf& rawFeatures,
                                      std::span<const double> minBoundCpis = {}) const;
    /// Batch: the mean and band of each sample (`minBoundCpis` as for memberPredictions).
    std::vector<CpiBand> predictBands(const Eigen::MatrixXf& rawFeatures,
                                      std::span<const double> minBoundCpis = {}) const;
    /// Whether predictions need the min-of-bounds CPI beside the features.
    bool needsMinBoundCpi() const { return output == CpiOutput::MinBoundAnchored; }

    /// Throws a bad-input ConcordeError naming `context` if the parts disagree (widths, no
    /// member, members of different shapes, an anchored model whose layout has no resource block).
    void check(const std::string& context) const;

    /// "direct", "bottleneck_anchored" or "min_bound_anchored".
    static std::string outputName(CpiOutput output);
    /// The inverse; a bad-input error naming `context` for anything else.
    static CpiOutput parseOutput(const std::string& name, const std::string& context);
};

} // namespace concorde
