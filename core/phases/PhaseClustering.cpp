#include "phases/PhaseClustering.h"

#include "common/ConcordeError.h"
#include "phases/BicScore.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tbb/parallel_for.h>

namespace concorde {

namespace {

void checkOptions(const PhaseClustering::Options& options) {
    if (!(options.bicThreshold >= 0.0 && options.bicThreshold <= 1.0))
        throw usageError("the BIC threshold must be between 0 and 1");
    if (options.fixedK == 0 && options.maxK == 0)
        throw usageError("phase clustering needs maxK ≥ 1");
}

} // namespace

std::vector<double> PhaseClustering::zNormalise(std::span<const double> points,
                                                std::size_t dimensions) {
    const std::size_t count = points.size() / dimensions;
    std::vector<double> z(points.begin(), points.end());
    for (std::size_t d = 0; d < dimensions; ++d) {
        double mean = 0;
        for (std::size_t i = 0; i < count; ++i)
            mean += points[i * dimensions + d];
        mean /= static_cast<double>(count);
        double variance = 0;
        for (std::size_t i = 0; i < count; ++i) {
            const double diff = points[i * dimensions + d] - mean;
            variance += diff * diff;
        }
        const double sd = std::sqrt(variance / static_cast<double>(count));
        // Relative test: a column equal up to rounding carries no information either.
        const bool constant = !(sd > 1e-12 * std::max(1.0, std::abs(mean)));
        for (std::size_t i = 0; i < count; ++i)
            z[i * dimensions + d] = constant ? 0.0 : (points[i * dimensions + d] - mean) / sd;
    }
    return z;
}

PhaseClusters PhaseClustering::fromBasicBlockVectors(std::span<const BasicBlockVector> regions,
                                                     const Options& options) {
    checkOptions(options);
    if (regions.empty())
        throw badInput("phase clustering: there are no regions");
    const RandomProjection projection(options.dimensions, options.projectionSeed);
    std::vector<double> points;
    points.reserve(regions.size() * options.dimensions);
    for (std::size_t r = 0; r < regions.size(); ++r) {
        if (regions[r].empty())
            throw badInput("phase clustering: region " + std::to_string(r) +
                           " has an empty basic-block vector");
        const std::vector<double> projected = projection.project(regions[r]);
        points.insert(points.end(), projected.begin(), projected.end());
    }
    return fromPoints(points, options.dimensions, "bbv", options);
}

PhaseClusters PhaseClustering::fromFeatures(std::span<const std::vector<float>> regions,
                                            const Options& options) {
    checkOptions(options);
    if (regions.empty())
        throw badInput("phase clustering: there are no regions");
    const std::size_t dimensions = regions.front().size();
    if (dimensions == 0)
        throw badInput("phase clustering: the feature vectors are empty");
    std::vector<double> points;
    points.reserve(regions.size() * dimensions);
    for (std::size_t r = 0; r < regions.size(); ++r) {
        if (regions[r].size() != dimensions)
            throw badInput("phase clustering: region " + std::to_string(r) + " has " +
                           std::to_string(regions[r].size()) + " features, region 0 has " +
                           std::to_string(dimensions));
        for (float value : regions[r]) {
            if (!std::isfinite(value))
                throw badInput("phase clustering: region " + std::to_string(r) +
                               " has a non-finite feature");
            points.push_back(value);
        }
    }
    return fromPoints(zNormalise(points, dimensions), dimensions, "features", options);
}

PhaseClusters PhaseClustering::fromPoints(std::span<const double> points, std::size_t dimensions,
                                          const std::string& space, const Options& options) {
    checkOptions(options);
    if (dimensions == 0 || points.empty() || points.size() % dimensions != 0)
        throw usageError("phase clustering: the point matrix is empty or ragged");
    const std::size_t count = points.size() / dimensions;
    if (options.fixedK > count)
        throw usageError("phase clustering: k = " + std::to_string(options.fixedK) +
                         " exceeds the number of regions (" + std::to_string(count) + ")");
    std::vector<std::size_t> ks;
    if (options.fixedK > 0)
        ks.push_back(options.fixedK);
    else
        // At most half as many phases as regions: with fewer than two regions per cluster the
        // shared variance has (almost) no degrees of freedom left, σ² collapses to the floor and
        // the BIC would reward giving every region its own phase.
        for (std::size_t k = 1; k <= std::min(options.maxK, std::max<std::size_t>(1, count / 2));
             ++k)
            ks.push_back(k);

    std::vector<KMeans::Result> runs(ks.size());
    tbb::parallel_for(std::size_t(0), ks.size(), [&](std::size_t i) {
        runs[i] = KMeans::run(points, dimensions, ks[i], options.kmeans);
    });

    // The overall variance sets the BIC's variance floor; k = 1's distortion is its numerator.
    double overall = 0;
    {
        std::vector<double> mean(dimensions, 0.0);
        for (std::size_t i = 0; i < count; ++i)
            for (std::size_t d = 0; d < dimensions; ++d)
                mean[d] += points[i * dimensions + d] / static_cast<double>(count);
        for (std::size_t i = 0; i < count; ++i)
            overall += KMeans::squaredDistance(&points[i * dimensions], mean.data(), dimensions);
        overall /= static_cast<double>(dimensions) *
                   static_cast<double>(std::max<std::size_t>(1, count - 1));
    }
    // Identical points: any positive floor gives every k the same likelihood, so k = 1 wins.
    const double floor = overall > 0 ? 1e-6 * overall : 1.0;

    PhaseClusters result;
    result.space = space;
    result.dimensions = dimensions;
    for (std::size_t i = 0; i < ks.size(); ++i)
        result.scores.push_back(
            {ks[i], BicScore::compute(runs[i].sizes, runs[i].distortion, dimensions, floor),
             runs[i].distortion});
    double lowest = std::numeric_limits<double>::infinity();
    double highest = -std::numeric_limits<double>::infinity();
    for (const auto& s : result.scores) {
        lowest = std::min(lowest, s.bic);
        highest = std::max(highest, s.bic);
    }
    const double threshold = lowest + options.bicThreshold * (highest - lowest);
    std::size_t chosen = 0;
    while (result.scores[chosen].bic < threshold)
        ++chosen;
    const KMeans::Result& best = runs[chosen];

    // Renumber non-empty clusters by first appearance.
    constexpr std::uint32_t kUnset = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::uint32_t> renumber(best.k, kUnset);
    result.phaseOf.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
        std::uint32_t& phase = renumber[best.assignment[i]];
        if (phase == kUnset) {
            phase = static_cast<std::uint32_t>(result.k++);
            const double* c = &best.centroids[best.assignment[i] * dimensions];
            result.centroids.emplace_back(c, c + dimensions);
        }
        result.phaseOf[i] = phase;
    }
    result.sizes.assign(result.k, 0);
    result.representatives.assign(result.k, count);
    std::vector<double> closest(result.k, std::numeric_limits<double>::infinity());
    for (std::size_t i = 0; i < count; ++i) {
        const std::uint32_t p = result.phaseOf[i];
        ++result.sizes[p];
        const double d = KMeans::squaredDistance(&points[i * dimensions],
                                                 result.centroids[p].data(), dimensions);
        if (d < closest[p]) {
            closest[p] = d;
            result.representatives[p] = i;
        }
    }
    return result;
}

} // namespace concorde
