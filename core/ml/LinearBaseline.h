#pragma once

#include <Eigen/Dense>
#include <nlohmann/json.hpp>

namespace concorde {

/// The linear-model baseline of docs/design.md §8: CPI ≈ w · x + b on normalised features, fitted
/// by ridge regression weighted by 1 / CPI², which is least squares on the relative error (the
/// metric everything is judged by). A closed-form fit, so it has no training choices to tune.
class LinearBaseline {
public:
    /// `inputs`: normalised features × samples; `targets`: CPIs. `ridge` regularises the weights
    /// (not the bias) so that constant or collinear features stay harmless.
    static LinearBaseline fit(const Eigen::MatrixXf& inputs, const Eigen::VectorXf& targets,
                              double ridge = 1e-3);

    bool empty() const { return weights_.size() == 0; }
    int features() const { return static_cast<int>(weights_.size()); }
    /// Predictions for normalised inputs (one column per sample), floored at a tiny positive CPI.
    Eigen::VectorXf predict(const Eigen::MatrixXf& inputs) const;

    nlohmann::json toJson() const;
    /// Throws a bad-input ConcordeError on malformed JSON.
    static LinearBaseline fromJson(const nlohmann::json& json);

private:
    Eigen::VectorXd weights_;
    double bias_ = 0;
};

} // namespace concorde
