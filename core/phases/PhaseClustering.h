#pragma once

#include "phases/KMeans.h"
#include "phases/PhaseClusters.h"
#include "phases/RandomProjection.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace concorde {

/// SimPoint-style phase detection over the regions of one program.
///
/// 1. Each region becomes a point: its basic-block vector normalised and randomly projected to
///    15 dimensions (RandomProjection), or — when the regions have no BBVs — its feature vector
///    (e.g. encoded bound distributions) z-normalised per dimension (mean 0, standard deviation 1
///    over the regions; a constant dimension becomes 0), so no feature dominates by its units.
/// 2. For every k = 1 .. min(maxK, max(1, regions / 2)), KMeans (k-means++, restarts, Lloyd to
/// convergence)
///    and its BicScore.
/// 3. SimPoint's rule picks k: the smallest k whose BIC reaches
///    min_BIC + bicThreshold · (max_BIC − min_BIC) over the k tried (threshold 0.9). BIC values
///    are log-likelihoods and often negative, so "90 % of the best" is read on this min–max
///    scale, exactly as SimPoint 3.0 does. Identical regions give k = 1.
/// 4. Phases are renumbered by first appearance in region order (phase 0 is the first region's),
///    empty clusters dropped, and each phase's representative is its region closest to the
///    centroid (SimPoint's simulation point).
///
/// At most regions / 2 phases are searched: with fewer than two regions per cluster the BIC's
/// variance estimate has no degrees of freedom and would favour one phase per region (SimPoint
/// targets hundreds of intervals, where this never binds); fixedK bypasses the search.
/// The BIC models clusters as spherical with one shared variance. Projected BBVs fit that well;
/// z-normalised features fit it when the phases differ along all dimensions alike, but clusters
/// separated in only some dimensions stay elongated after normalisation and the criterion then
/// prefers to split them (seen on synthetic data). Feature vectors for the fallback should
/// therefore be compact summaries (e.g. a few encoded percentiles per resource), or fixedK used.
/// The variance floor of the BIC is 10^-6 of the data's overall per-dimension variance. Every
/// step is seeded and ordered, so the result depends only on the inputs and options; the k are
/// clustered in parallel (TBB) without affecting the result.
class PhaseClustering {
public:
    struct Options {
        std::size_t maxK = 10;
        std::size_t fixedK = 0;      ///< > 0: use this k, no BIC search
        double bicThreshold = 0.9;   ///< in [0, 1]
        std::size_t dimensions = 15; ///< random projection of BBVs
        std::uint64_t projectionSeed = 2042712918;
        KMeans::Options kmeans;
    };

    /// Clusters regions by their basic-block vectors. Throws a bad-input error for no regions or
    /// a region whose BBV is empty, a usage error for bad options.
    static PhaseClusters fromBasicBlockVectors(std::span<const BasicBlockVector> regions,
                                               const Options& options);
    static PhaseClusters fromBasicBlockVectors(std::span<const BasicBlockVector> regions) {
        return fromBasicBlockVectors(regions, Options{});
    }
    /// Clusters regions by feature vectors (all the same length, finite), after z-normalisation.
    static PhaseClusters fromFeatures(std::span<const std::vector<float>> regions,
                                      const Options& options);
    static PhaseClusters fromFeatures(std::span<const std::vector<float>> regions) {
        return fromFeatures(regions, Options{});
    }
    /// Clusters points as given (count × dimensions, row-major); `space` labels the result.
    static PhaseClusters fromPoints(std::span<const double> points, std::size_t dimensions,
                                    const std::string& space, const Options& options);

    /// Per-dimension z-scores of the rows (count × dimensions); constant dimensions become 0.
    static std::vector<double> zNormalise(std::span<const double> points, std::size_t dimensions);
};

} // namespace concorde
