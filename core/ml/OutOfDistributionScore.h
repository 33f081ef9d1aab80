#pragma once

#include "features/FeatureLayout.h"

#include <Eigen/Dense>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace concorde {

/// How far a region's features lie from the programs a model was trained on (issue 17), so
/// that predict and the explorer can warn before a user trusts a number the model has no basis
/// for.
///
/// A region is summarised by its centroid: the mean of its normalised features over the
/// configuration grid (every block averaged over its parameters' grid values, which is what the
/// mean over uniformly drawn training configurations estimates). Parameter blocks are left out:
/// they describe the core, not the program. The distance to a program is the root-mean-square
/// difference to that program's centroid; the score is the distance to the nearest training
/// program divided by a threshold, the 95th percentile over training regions of their distance
/// to the nearest *other* program. So a score above 1 means: farther from everything seen than
/// 95 % of the training regions are from the programs they do not belong to.
class OutOfDistributionScore {
public:
    OutOfDistributionScore() = default;

    /// `normalised`: features × samples of the training split, `programs` and `regions` each
    /// sample's program and region index.
    static OutOfDistributionScore fit(const FeatureLayout& layout,
                                      const Eigen::MatrixXf& normalised,
                                      const std::vector<std::string>& programs,
                                      const std::vector<std::uint32_t>& regions);

    bool empty() const { return centroids_.empty(); }
    /// A region's score from its normalised centroid (the layout's width); 0 when empty().
    double score(const Eigen::VectorXf& centroid) const;
    /// The nearest training program of that centroid ("" when empty()).
    std::string nearestProgram(const Eigen::VectorXf& centroid) const;
    double threshold() const { return threshold_; }
    std::size_t programs() const { return centroids_.size(); }

    /// {"threshold", "features": [indices], "centroids": {program: [...]}}.
    nlohmann::json toJson() const;
    /// Throws a bad-input ConcordeError naming `context` and the field on malformed JSON.
    static OutOfDistributionScore fromJson(const nlohmann::json& json, std::size_t width,
                                           const std::string& context);

private:
    /// Root-mean-square difference over the compared features.
    double distance(const Eigen::VectorXf& a, const Eigen::VectorXf& b) const;

    std::vector<Eigen::Index> features_; ///< compared feature indices (non-parameter blocks)
    std::map<std::string, Eigen::VectorXf> centroids_;
    double threshold_ = 0;
};

} // namespace concorde
