#include "ml/OutOfDistributionScore.h"

#include "common/ConcordeError.h"
#include "common/JsonFields.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

namespace concorde {

double OutOfDistributionScore::distance(const Eigen::VectorXf& a, const Eigen::VectorXf& b) const {
    double sum = 0;
    for (const Eigen::Index i : features_) {
        const double d = double(a(i)) - double(b(i));
        sum += d * d;
    }
    return std::sqrt(sum / static_cast<double>(std::max<std::size_t>(1, features_.size())));
}

OutOfDistributionScore OutOfDistributionScore::fit(const FeatureLayout& layout,
                                                   const Eigen::MatrixXf& normalised,
                                                   const std::vector<std::string>& programs,
                                                   const std::vector<std::uint32_t>& regions) {
    if (static_cast<std::size_t>(normalised.cols()) != programs.size() ||
        programs.size() != regions.size())
        throw usageError("out-of-distribution fit: one program and region per sample");
    if (normalised.rows() != static_cast<Eigen::Index>(layout.width()))
        throw usageError("out-of-distribution fit: features do not match the layout");
    OutOfDistributionScore result;
    for (const FeatureBlock& block : layout.blocks())
        if (block.kind != BlockKind::Parameter)
            for (std::size_t i = 0; i < block.width; ++i)
                result.features_.push_back(static_cast<Eigen::Index>(block.offset + i));
    // Centroids of programs and of their regions.
    std::map<std::string, std::pair<Eigen::VectorXd, std::size_t>> programSums;
    std::map<std::pair<std::string, std::uint32_t>, std::pair<Eigen::VectorXd, std::size_t>>
        regionSums;
    for (Eigen::Index j = 0; j < normalised.cols(); ++j) {
        const Eigen::VectorXd x = normalised.col(j).cast<double>();
        const auto j_ = static_cast<std::size_t>(j);
        auto& p = programSums[programs[j_]];
        auto& r = regionSums[{programs[j_], regions[j_]}];
        if (p.second == 0)
            p.first = Eigen::VectorXd::Zero(x.size());
        if (r.second == 0)
            r.first = Eigen::VectorXd::Zero(x.size());
        p.first += x;
        ++p.second;
        r.first += x;
        ++r.second;
    }
    for (const auto& [name, sum] : programSums)
        result.centroids_[name] = (sum.first / double(sum.second)).cast<float>();
    // The threshold: how far training regions lie from the programs they are not part of.
    std::vector<double> otherDistances;
    for (const auto& [key, sum] : regionSums) {
        const Eigen::VectorXf centroid = (sum.first / double(sum.second)).cast<float>();
        double nearest = std::numeric_limits<double>::infinity();
        for (const auto& [name, c] : result.centroids_)
            if (name != key.first)
                nearest = std::min(nearest, result.distance(centroid, c));
        if (std::isfinite(nearest))
            otherDistances.push_back(nearest);
    }
    if (otherDistances.empty()) {
        result.centroids_.clear(); // one program: nothing to calibrate against
        return result;
    }
    const auto k = static_cast<std::size_t>(0.95 * double(otherDistances.size() - 1));
    std::nth_element(otherDistances.begin(), otherDistances.begin() + static_cast<long>(k),
                     otherDistances.end());
    result.threshold_ = std::max(otherDistances[k], 1e-6);
    return result;
}

double OutOfDistributionScore::score(const Eigen::VectorXf& centroid) const {
    if (empty())
        return 0;
    double nearest = std::numeric_limits<double>::infinity();
    for (const auto& [name, c] : centroids_)
        nearest = std::min(nearest, distance(centroid, c));
    return nearest / threshold_;
}

std::string OutOfDistributionScore::nearestProgram(const Eigen::VectorXf& centroid) const {
    std::string best;
    double nearest = std::numeric_limits<double>::infinity();
    for (const auto& [name, c] : centroids_) {
        const double d = distance(centroid, c);
        if (d < nearest) {
            nearest = d;
            best = name;
        }
    }
    return best;
}

nlohmann::json OutOfDistributionScore::toJson() const {
    nlohmann::json centroids = nlohmann::json::object();
    for (const auto& [name, c] : centroids_) {
        std::vector<float> values;
        for (const Eigen::Index i : features_)
            values.push_back(c(i));
        centroids[name] = values;
    }
    return {{"threshold", threshold_}, {"features", features_}, {"centroids", centroids}};
}

OutOfDistributionScore OutOfDistributionScore::fromJson(const nlohmann::json& json,
                                                        std::size_t width,
                                                        const std::string& context) {
    const JsonFields fields(json, context + ": out-of-distribution statistics");
    OutOfDistributionScore result;
    result.threshold_ = fields.number("threshold");
    if (!(result.threshold_ > 0))
        throw badInput(fields.where("threshold") + " must be positive");
    for (const double i : fields.numbers("features")) {
        if (!(i >= 0 && i < double(width)) || i != std::floor(i))
            throw badInput(fields.where("features") + " holds an index outside the layout");
        result.features_.push_back(static_cast<Eigen::Index>(i));
    }
    const JsonFields centroids = fields.object("centroids");
    for (const auto& [name, values] : centroids.json().items()) {
        const std::vector<double> v = centroids.numbers(name);
        if (v.size() != result.features_.size())
            throw badInput(centroids.where(name) + " holds " + std::to_string(v.size()) +
                           " values for " + std::to_string(result.features_.size()) +
                           " features");
        Eigen::VectorXf c = Eigen::VectorXf::Zero(static_cast<Eigen::Index>(width));
        for (std::size_t k = 0; k < v.size(); ++k)
            c(result.features_[k]) = static_cast<float>(v[k]);
        result.centroids_[name] = std::move(c);
    }
    return result;
}

} // namespace concorde
