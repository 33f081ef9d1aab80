#include "ml/LinearBaseline.h"

#include "common/ConcordeError.h"
#include "common/JsonFields.h"

namespace concorde {

LinearBaseline LinearBaseline::fit(const Eigen::MatrixXf& inputs, const Eigen::VectorXf& targets,
                                   double ridge) {
    const Eigen::Index n = inputs.cols();
    const Eigen::Index d = inputs.rows();
    if (n < 1 || targets.size() != n)
        throw badInput("the linear baseline needs at least one sample with a target");
    // Augmented design [x; 1], rows weighted by 1 / y: minimise Σ ((w·x + b − y) / y)².
    Eigen::MatrixXd a(d + 1, n);
    a.topRows(d) = inputs.cast<double>();
    a.row(d).setOnes();
    Eigen::VectorXd weight = targets.cast<double>().cwiseInverse();
    Eigen::MatrixXd weighted = a * weight.asDiagonal();
    Eigen::MatrixXd normal = weighted * weighted.transpose();
    normal.diagonal().head(d).array() += ridge * static_cast<double>(n);
    // Each weighted target is y / y = 1.
    const Eigen::VectorXd rhs = weighted * Eigen::VectorXd::Ones(n);
    const Eigen::VectorXd solution = normal.ldlt().solve(rhs);
    LinearBaseline model;
    model.weights_ = solution.head(d);
    model.bias_ = solution(d);
    return model;
}

Eigen::VectorXf LinearBaseline::predict(const Eigen::MatrixXf& inputs) const {
    if (inputs.rows() != weights_.size())
        throw usageError("the linear baseline expects " + std::to_string(weights_.size()) +
                         " features, got " + std::to_string(inputs.rows()));
    Eigen::VectorXd out = inputs.cast<double>().transpose() * weights_;
    out.array() += bias_;
    return out.cwiseMax(1e-3).cast<float>();
}

nlohmann::json LinearBaseline::toJson() const {
    return {{"weights", std::vector<double>(weights_.data(), weights_.data() + weights_.size())},
            {"bias", bias_}};
}

LinearBaseline LinearBaseline::fromJson(const nlohmann::json& json) {
    const JsonFields fields(json, "linear baseline");
    const std::vector<double> weights = fields.numbers("weights");
    LinearBaseline model;
    model.weights_ = Eigen::Map<const Eigen::VectorXd>(weights.data(),
                                                       static_cast<Eigen::Index>(weights.size()));
    model.bias_ = fields.number("bias");
    return model;
}

} // namespace concorde
