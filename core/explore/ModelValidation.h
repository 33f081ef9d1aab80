#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace concorde {

class ExplorerModel;

/// Every labelled (region, configuration) of an open database with the model's prediction beside
/// the reference simulator's CPI: what the explorer's validation chart shows (issue 18, item 4),
/// so that a user sees how far the live numbers can be trusted, and where.
struct ModelValidation {
    struct Point {
        std::string program;
        std::uint32_t regionIndex = 0;
        std::string source; ///< the label's source: "random", "preset:n1-like", ...
        double simulatedCpi = 0;
        double predictedCpi = 0;
        /// The model's training kept this program out (ModelAccuracy::heldOutPrograms).
        bool heldOut = false;
        /// Relative error of the prediction (0.05: 5 % too high).
        double error() const { return predictedCpi / simulatedCpi - 1.0; }
    };
    /// Mean absolute relative error and the share of points over 10 %, of a set of points.
    struct Summary {
        std::size_t count = 0;
        double meanAbsError = 0;
        double over10Percent = 0; ///< fraction of the points
    };

    std::vector<Point> points; ///< labels whose configuration is on the database's grid
    std::size_t offGrid = 0;   ///< labels off the grid, which the live predictor cannot place

    /// The summary of every point, of the held-out programs' only, or of the others'.
    enum class Subset { All, HeldOut, Trained };
    Summary summary(Subset subset = Subset::All) const;

    /// Predicts every label of `model`'s database with its live predictor (block-precomputed,
    /// as the sliders are). Labels on the database's grid that the predictor has not precomputed
    /// (a model opened for a few configurations only, ExplorerModel::open) are predicted the same
    /// way from their region's series, precomputing only the label's configuration. A database
    /// without labels gives no points.
    static ModelValidation compute(const ExplorerModel& model);
};

} // namespace concorde
