#include "ml/FeatureNormalizer.h"

#include "common/ConcordeError.h"
#include "common/JsonFields.h"

#include <cmath>
#include <nlohmann/json.hpp>

namespace concorde {

FeatureNormalizer FeatureNormalizer::fit(const Eigen::MatrixXf& samples) {
    FeatureNormalizer n;
    const auto count = static_cast<double>(samples.cols());
    n.mean_.resize(samples.rows());
    n.scale_.resize(samples.rows());
    for (int f = 0; f < samples.rows(); ++f) {
        double sum = 0, squares = 0;
        for (int s = 0; s < samples.cols(); ++s) {
            sum += samples(f, s);
            squares += double(samples(f, s)) * samples(f, s);
        }
        const double mean = count > 0 ? sum / count : 0.0;
        const double variance = count > 0 ? std::max(0.0, squares / count - mean * mean) : 0.0;
        const double sd = std::sqrt(variance);
        n.mean_(f) = static_cast<float>(mean);
        n.scale_(f) =
            sd > 1e-6 * std::max(1.0, std::abs(mean)) ? static_cast<float>(1.0 / sd) : 1.0f;
    }
    return n;
}

void FeatureNormalizer::applyInPlace(Eigen::MatrixXf& samples) const {
    if (samples.rows() != mean_.size())
        throw badInput("feature vector has " + std::to_string(samples.rows()) +
                       " features, the model expects " + std::to_string(mean_.size()));
    samples.colwise() -= mean_;
    samples.array().colwise() *= scale_.array();
}

Eigen::MatrixXf FeatureNormalizer::apply(const Eigen::MatrixXf& samples) const {
    Eigen::MatrixXf copy = samples;
    applyInPlace(copy);
    return copy;
}

nlohmann::json FeatureNormalizer::toJson() const {
    return {{"mean", std::vector<float>(mean_.data(), mean_.data() + mean_.size())},
            {"scale", std::vector<float>(scale_.data(), scale_.data() + scale_.size())}};
}

FeatureNormalizer FeatureNormalizer::fromJson(const nlohmann::json& json) {
    const JsonFields fields(json, "normalisation");
    const std::vector<double> mean = fields.numbers("mean");
    const std::vector<double> scale = fields.numbers("scale");
    if (mean.size() != scale.size())
        throw badInput("normalisation: mean and scale differ in length");
    FeatureNormalizer n;
    n.mean_ = Eigen::Map<const Eigen::VectorXd>(mean.data(), static_cast<Eigen::Index>(mean.size()))
                  .cast<float>();
    n.scale_ =
        Eigen::Map<const Eigen::VectorXd>(scale.data(), static_cast<Eigen::Index>(scale.size()))
            .cast<float>();
    return n;
}

} // namespace concorde
