#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace concorde {

/// Seeded k-means: k-means++ initialisation, Lloyd iterations until no point changes cluster
/// (or a cap), several restarts keeping the lowest distortion. Points are rows of a row-major
/// matrix. Deterministic: restart j of a given k draws from hash(seed, k, j) only; ties (equal
/// distances, equal distortions) go to the lower index.
class KMeans {
public:
    struct Options {
        std::size_t restarts = 5;        ///< SimPoint's default number of initial seedings
        std::size_t maxIterations = 100; ///< SimPoint's default iteration cap
        std::uint64_t seed = 493575226;
    };

    struct Result {
        std::size_t k = 0;
        std::vector<std::uint32_t> assignment; ///< cluster of each point
        std::vector<double> centroids;         ///< k × dimensions, row-major
        std::vector<std::size_t> sizes;        ///< points per cluster (may be 0 with duplicates)
        double distortion = 0;                 ///< Σ squared distance to the own centroid
        std::size_t iterations = 0;            ///< Lloyd iterations of the kept restart
        bool converged = false;                ///< assignments stopped changing before the cap
    };

    /// Clusters `points` (count × dimensions). Throws a usage error if k is 0 or exceeds the
    /// number of points, or if the matrix shape is inconsistent.
    static Result run(std::span<const double> points, std::size_t dimensions, std::size_t k,
                      const Options& options);
    static Result run(std::span<const double> points, std::size_t dimensions, std::size_t k) {
        return run(points, dimensions, k, Options{});
    }

    /// Squared Euclidean distance of two rows of length `dimensions`.
    static double squaredDistance(const double* a, const double* b, std::size_t dimensions);
};

} // namespace concorde
