#pragma once

#include <Eigen/Dense>
#include <nlohmann/json_fwd.hpp>

namespace concorde {

/// Per-feature z-score normalisation learned from the training set and stored with the model,
/// so that inference applies exactly the transform training used. Constant features (standard
/// deviation 0) are centred and left unscaled.
class FeatureNormalizer {
public:
    FeatureNormalizer() = default;
    /// `samples`: features × samples.
    static FeatureNormalizer fit(const Eigen::MatrixXf& samples);

    Eigen::MatrixXf apply(const Eigen::MatrixXf& samples) const;
    void applyInPlace(Eigen::MatrixXf& samples) const;

    const Eigen::VectorXf& mean() const { return mean_; }
    const Eigen::VectorXf& scale() const { return scale_; }
    int features() const { return static_cast<int>(mean_.size()); }

    nlohmann::json toJson() const;
    /// Throws a bad-input ConcordeError on malformed JSON.
    static FeatureNormalizer fromJson(const nlohmann::json& json);

private:
    Eigen::VectorXf mean_;
    Eigen::VectorXf scale_; ///< 1 / standard deviation (1 for constant features)
};

} // namespace concorde
