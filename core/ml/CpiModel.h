#pragma once

#include "features/FeatureLayout.h"
#include "ml/FeatureNormalizer.h"
#include "ml/LinearBaseline.h"
#include "ml/Mlp.h"

#include <nlohmann/json.hpp>
#include <span>
#include <string>

namespace concorde {

/// Everything needed to turn a raw feature vector into a CPI: the layout the features follow,
/// the normalisation learned on the training set, the MLP, and (for comparison) the linear
/// baseline fitted on the same data. `metrics` holds the training report and the measured
/// accuracy (what the GUI and `concorde info` show).
struct CpiModel {
    std::string name = "cpi";
    FeatureLayout layout = FeatureLayout::standard();
    FeatureNormalizer normalizer;
    Mlp mlp;
    LinearBaseline linear;
    nlohmann::json metrics = nlohmann::json::object();

    /// Plain forward pass on raw features (width = layout.width()).
    double predict(std::span<const float> rawFeatures) const;
    /// Batch: raw features, one column per sample.
    Eigen::VectorXf predict(const Eigen::MatrixXf& rawFeatures) const;
    /// Throws a bad-input ConcordeError naming `context` if the parts disagree (widths).
    void check(const std::string& context) const;
};

} // namespace concorde
