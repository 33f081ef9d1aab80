#pragma once

#include <cstddef>
#include <span>

namespace concorde {

/// The Bayesian information criterion of a k-means clustering, modelling the data as a mixture
/// of k spherical Gaussians with one shared variance — the score of X-means (Pelleg & Moore,
/// ICML 2000) that SimPoint 3.0 uses to choose k. With R points in M dimensions, K clusters of
/// R_n points and distortion D = Σ ||x − μ(x)||²:
///
///     σ²     = D / (M · (R − K))                       per-dimension variance (R − K ≥ 1 assumed)
///     log L  = Σ_n R_n·log(R_n / R)                    mixing weights
///              − (R·M / 2)·log(2π σ²) − D / (2σ²)      Gaussian densities
///     p      = (K − 1) + M·K + 1                       weights, centroids, variance
///     BIC    = log L − (p / 2)·log R                   larger is better
///
/// The X-means paper writes the variance without the 1/M and the last likelihood term as
/// −(R_n − K)/2 per cluster; both are known slips, corrected here (for M-dimensional spherical
/// Gaussians the variance estimate is per dimension, and D/(2σ²) = M(R − K)/2). Empty clusters
/// contribute nothing to the weights term but still count in p. σ² is floored at `varianceFloor`
/// (> 0) so that perfectly tight clusters (D = 0) give a large finite score instead of +∞.
class BicScore {
public:
    static double compute(std::span<const std::size_t> clusterSizes, double distortion,
                          std::size_t dimensions, double varianceFloor);
};

} // namespace concorde
