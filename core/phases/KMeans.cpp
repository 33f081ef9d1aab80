#include "phases/KMeans.h"

#include "common/ConcordeError.h"
#include "common/SplitMix64.h"

#include <algorithm>
#include <limits>

namespace concorde {

namespace {

/// k-means++ (Arthur & Vassilvitskii 2007): the first centre uniformly, each next one with
/// probability proportional to the squared distance to the nearest centre chosen so far.
std::vector<double> seedCentroids(std::span<const double> points, std::size_t count,
                                  std::size_t dims, std::size_t k, SplitMix64& random) {
    std::vector<double> centroids;
    centroids.reserve(k * dims);
    const auto copyPoint = [&](std::size_t i) {
        centroids.insert(centroids.end(), points.begin() + static_cast<std::ptrdiff_t>(i * dims),
                         points.begin() + static_cast<std::ptrdiff_t>((i + 1) * dims));
    };
    copyPoint(random.below(count));
    std::vector<double> nearest(count, std::numeric_limits<double>::infinity());
    for (std::size_t c = 1; c < k; ++c) {
        const double* last = centroids.data() + (c - 1) * dims;
        double total = 0;
        for (std::size_t i = 0; i < count; ++i) {
            nearest[i] =
                std::min(nearest[i], KMeans::squaredDistance(&points[i * dims], last, dims));
            total += nearest[i];
        }
        if (total <= 0) {
            // Every point coincides with a centre (fewer distinct points than k): any choice
            // is as good; the duplicate centre simply ends up with an empty cluster.
            copyPoint(random.below(count));
            continue;
        }
        const double target = random.uniform() * total;
        double running = 0;
        std::size_t chosen = count - 1;
        for (std::size_t i = 0; i < count; ++i) {
            running += nearest[i];
            if (running > target && nearest[i] > 0) {
                chosen = i;
                break;
            }
        }
        // Rounding can leave `chosen` on a point at distance 0; fall back to the farthest.
        if (nearest[chosen] <= 0)
            chosen = static_cast<std::size_t>(std::max_element(nearest.begin(), nearest.end()) -
                                              nearest.begin());
        copyPoint(chosen);
    }
    return centroids;
}

/// Nearest centroid (lowest index on ties) and its squared distance.
std::pair<std::uint32_t, double> nearestCentroid(const double* point,
                                                 const std::vector<double>& centroids,
                                                 std::size_t k, std::size_t dims) {
    std::uint32_t best = 0;
    double bestDistance = std::numeric_limits<double>::infinity();
    for (std::size_t c = 0; c < k; ++c) {
        const double d = KMeans::squaredDistance(point, &centroids[c * dims], dims);
        if (d < bestDistance) {
            bestDistance = d;
            best = static_cast<std::uint32_t>(c);
        }
    }
    return {best, bestDistance};
}

KMeans::Result lloyd(std::span<const double> points, std::size_t count, std::size_t dims,
                     std::size_t k, std::vector<double> centroids, std::size_t maxIterations) {
    KMeans::Result result;
    result.k = k;
    result.assignment.assign(count, std::numeric_limits<std::uint32_t>::max());
    std::vector<double> distance(count, 0.0);
    std::vector<double> sums(k * dims);
    for (std::size_t iteration = 0;; ++iteration) {
        bool changed = false;
        for (std::size_t i = 0; i < count; ++i) {
            const auto [c, d] = nearestCentroid(&points[i * dims], centroids, k, dims);
            distance[i] = d;
            if (result.assignment[i] != c) {
                result.assignment[i] = c;
                changed = true;
            }
        }
        if (!changed) {
            result.converged = true;
            result.iterations = iteration;
            break;
        }
        if (iteration == maxIterations) {
            result.iterations = iteration;
            break;
        }
        // Update: each centroid becomes the mean of its points.
        std::fill(sums.begin(), sums.end(), 0.0);
        result.sizes.assign(k, 0);
        for (std::size_t i = 0; i < count; ++i) {
            const std::uint32_t c = result.assignment[i];
            ++result.sizes[c];
            for (std::size_t d = 0; d < dims; ++d)
                sums[c * dims + d] += points[i * dims + d];
        }
        std::vector<bool> taken(count, false);
        for (std::size_t c = 0; c < k; ++c) {
            if (result.sizes[c] > 0) {
                for (std::size_t d = 0; d < dims; ++d)
                    centroids[c * dims + d] =
                        sums[c * dims + d] / static_cast<double>(result.sizes[c]);
                continue;
            }
            // An empty cluster restarts at the point worst served by its centroid (not yet
            // taken by another empty cluster); if every point sits on its centroid, it stays.
            std::size_t worst = count;
            for (std::size_t i = 0; i < count; ++i)
                if (!taken[i] && distance[i] > 0 &&
                    (worst == count || distance[i] > distance[worst]))
                    worst = i;
            if (worst == count)
                continue;
            taken[worst] = true;
            std::copy_n(&points[worst * dims], dims, &centroids[c * dims]);
        }
    }
    // Final centroids: the means of the final clusters (converged: unchanged by this step).
    result.sizes.assign(k, 0);
    std::fill(sums.begin(), sums.end(), 0.0);
    for (std::size_t i = 0; i < count; ++i) {
        const std::uint32_t c = result.assignment[i];
        ++result.sizes[c];
        for (std::size_t d = 0; d < dims; ++d)
            sums[c * dims + d] += points[i * dims + d];
    }
    for (std::size_t c = 0; c < k; ++c)
        if (result.sizes[c] > 0)
            for (std::size_t d = 0; d < dims; ++d)
                centroids[c * dims + d] = sums[c * dims + d] / static_cast<double>(result.sizes[c]);
    result.distortion = 0;
    for (std::size_t i = 0; i < count; ++i)
        result.distortion += KMeans::squaredDistance(&points[i * dims],
                                                     &centroids[result.assignment[i] * dims], dims);
    result.centroids = std::move(centroids);
    return result;
}

} // namespace

double KMeans::squaredDistance(const double* a, const double* b, std::size_t dimensions) {
    double sum = 0;
    for (std::size_t d = 0; d < dimensions; ++d) {
        const double diff = a[d] - b[d];
        sum += diff * diff;
    }
    return sum;
}

KMeans::Result KMeans::run(std::span<const double> points, std::size_t dimensions, std::size_t k,
                           const Options& options) {
    if (dimensions == 0 || points.size() % dimensions != 0)
        throw usageError("k-means: the point matrix does not have whole rows of " +
                         std::to_string(dimensions) + " values");
    const std::size_t count = points.size() / dimensions;
    if (k == 0 || k > count)
        throw usageError("k-means: k = " + std::to_string(k) + " needs 1 ≤ k ≤ " +
                         std::to_string(count) + " (the number of points)");
    const std::size_t restarts = std::max<std::size_t>(1, options.restarts);
    Result best;
    for (std::size_t restart = 0; restart < restarts; ++restart) {
        SplitMix64 random(SplitMix64::hash(options.seed, k, restart));
        Result candidate =
            lloyd(points, count, dimensions, k, seedCentroids(points, count, dimensions, k, random),
                  options.maxIterations);
        if (restart == 0 || candidate.distortion < best.distortion)
            best = std::move(candidate);
    }
    return best;
}

} // namespace concorde
