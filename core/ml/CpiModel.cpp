#include "ml/CpiModel.h"

#include "common/ConcordeError.h"

namespace concorde {

double CpiModel::predict(std::span<const float> rawFeatures) const {
    if (rawFeatures.size() != layout.width())
        throw usageError("feature vector holds " + std::to_string(rawFeatures.size()) +
                         " floats, the model's layout is " + std::to_string(layout.width()));
    const Eigen::Map<const Eigen::VectorXf> raw(rawFeatures.data(),
                                                static_cast<Eigen::Index>(rawFeatures.size()));
    return mlp.predict(Eigen::VectorXf(normalizer.apply(raw)));
}

Eigen::VectorXf CpiModel::predict(const Eigen::MatrixXf& rawFeatures) const {
    return mlp.predict(normalizer.apply(rawFeatures));
}

void CpiModel::check(const std::string& context) const {
    const auto width = static_cast<int>(layout.width());
    if (mlp.inputs() != width || normalizer.features() != width)
        throw badInput(context + ": model parts disagree: layout " + std::to_string(width) +
                       " features, normalisation " + std::to_string(normalizer.features()) +
                       ", network " + std::to_string(mlp.inputs()));
    if (!linear.empty() && linear.features() != width)
        throw badInput(context + ": the linear baseline has " + std::to_string(linear.features()) +
                       " weights, the layout " + std::to_string(width) + " features");
}

} // namespace concorde
