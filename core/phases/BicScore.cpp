#include "phases/BicScore.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace concorde {

double BicScore::compute(std::span<const std::size_t> clusterSizes, double distortion,
                         std::size_t dimensions, double varianceFloor) {
    std::size_t points = 0;
    for (std::size_t size : clusterSizes)
        points += size;
    const double R = static_cast<double>(points);
    const double K = static_cast<double>(clusterSizes.size());
    const double M = static_cast<double>(dimensions);
    const double freedom = std::max(1.0, R - K);
    const double variance = std::max(distortion / (M * freedom), varianceFloor);
    double logLikelihood = 0;
    for (std::size_t size : clusterSizes)
        if (size > 0)
            logLikelihood += static_cast<double>(size) * std::log(static_cast<double>(size) / R);
    logLikelihood -= R * M / 2.0 * std::log(2.0 * std::numbers::pi * variance);
    logLikelihood -= distortion / (2.0 * variance);
    const double parameters = (K - 1.0) + M * K + 1.0;
    return logLikelihood - parameters / 2.0 * std::log(R);
}

} // namespace concorde
