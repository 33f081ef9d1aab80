#pragma once

#include "attribution/Attribution.h"
#include "attribution/PlayerSet.h"
#include "attribution/ProgramAttribution.h"
#include "params/CoreConfig.h"

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <vector>

namespace concorde {

/// Everything one attribution run produced: the question (baseline, target, players, method)
/// and the answer per program and region. What `concorde shapley` writes as JSON (toJson()) or
/// CSV (AttributionCsvWriter).
struct AttributionReport {
    CoreConfig baseline;
    CoreConfig target;
    PlayerSet players;
    AttributionMethod method = AttributionMethod::Exact;
    std::size_t permutations = 0; ///< used in sampling mode, 0 when exact
    std::uint64_t seed = 0;
    std::vector<ProgramAttribution> programs;

    /// {"baseline": {params}, "target": {params}, "players": {"groups": ...}, "method",
    ///  "permutations", "seed", "programs": [ProgramAttribution...]}; every program and region
    /// entry carries its baseline_cpi and target_cpi.
    nlohmann::json toJson() const;
};

} // namespace concorde
