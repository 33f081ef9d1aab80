#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace concorde {

/// The phases of a program: which regions behave alike (docs/design.md §10 stores `phaseOf` per
/// region; the GUI colours the program timeline by it).
struct PhaseClusters {
    /// One k that was tried, with its clustering quality.
    struct Score {
        std::size_t k = 0;
        double bic = 0;        ///< BicScore of the best restart
        double distortion = 0; ///< Σ squared distance to the own centroid
    };

    std::string space;                          ///< "bbv" (projected BBVs) or "features" (z-scores)
    std::size_t dimensions = 0;                 ///< of the clustered space
    std::size_t k = 0;                          ///< phases found (all non-empty)
    std::vector<std::uint32_t> phaseOf;         ///< per region; phases numbered by first appearance
    std::vector<std::vector<double>> centroids; ///< per phase, in the clustered space
    std::vector<std::size_t> representatives;   ///< per phase: region closest to its centroid
    std::vector<std::size_t> sizes;             ///< regions per phase
    std::vector<Score> scores;                  ///< every k tried, ascending

    /// Share of the regions in `phase` (SimPoint's phase weight for equal-length regions).
    double weight(std::size_t phase) const;

    /// {"space", "dimensions", "k", "phase_of", "phases": [{"phase", "size", "weight",
    ///  "representative", "centroid"}], "scores": [{"k", "bic", "distortion"}]}
    nlohmann::json toJson() const;
};

} // namespace concorde
