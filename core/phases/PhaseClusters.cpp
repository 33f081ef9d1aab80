#include "phases/PhaseClusters.h"

#include <nlohmann/json.hpp>

namespace concorde {

double PhaseClusters::weight(std::size_t phase) const {
    return phaseOf.empty()
               ? 0.0
               : static_cast<double>(sizes.at(phase)) / static_cast<double>(phaseOf.size());
}

nlohmann::json PhaseClusters::toJson() const {
    nlohmann::json phases = nlohmann::json::array();
    for (std::size_t p = 0; p < k; ++p)
        phases.push_back({{"phase", p},
                          {"size", sizes[p]},
                          {"weight", weight(p)},
                          {"representative", representatives[p]},
                          {"centroid", centroids[p]}});
    nlohmann::json list = nlohmann::json::array();
    for (const Score& s : scores)
        list.push_back({{"k", s.k}, {"bic", s.bic}, {"distortion", s.distortion}});
    return {{"space", space},      {"dimensions", dimensions},    {"k", k},
            {"phase_of", phaseOf}, {"phases", std::move(phases)}, {"scores", std::move(list)}};
}

} // namespace concorde
