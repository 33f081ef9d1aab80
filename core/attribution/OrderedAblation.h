#pragma once

#include "attribution/PlayerSet.h"
#include "attribution/ValueFunction.h"
#include "params/CoreConfig.h"

#include <nlohmann/json_fwd.hpp>
#include <span>
#include <string>
#include <vector>

namespace concorde {

/// The classic one-at-a-time study: starting from the baseline, switch one player (parameter or
/// group) after another to its target value, in a given order, and record each step's CPI
/// change. The steps add up to CPI(target) − CPI(baseline) (they telescope), but unlike Shapley
/// values each step depends on the order whenever players interact: a bigger load queue gains
/// little while the small cache still hits, a lot once the cache is big. Shown next to the Shapley
/// bars to make that visible.
class OrderedAblation {
public:
    struct Step {
        std::string player;
        double cpiBefore = 0;
        double cpiAfter = 0;
        double delta() const { return cpiAfter - cpiBefore; }
    };

    struct Result {
        double baselineCpi = 0;
        double targetCpi = 0;
        std::vector<Step> steps;

        /// {"baseline_cpi", "target_cpi", "steps": [{"player", "cpi_before", "cpi_after",
        ///  "delta"}]}
        nlohmann::json toJson() const;
    };

    /// `order` names players of `players`. Every player whose parameters differ between
    /// baseline and target must appear exactly once (else a bad-input error names the missing or
    /// repeated player), so the last step reaches the target; players that do not differ may
    /// appear and get a step of exactly 0. All configurations are evaluated in one batch.
    static Result run(const ValueFunction& value, const PlayerSet& players,
                      const CoreConfig& baseline, const CoreConfig& target,
                      std::span<const std::string> order);
    /// The same with player indices.
    static Result run(const ValueFunction& value, const PlayerSet& players,
                      const CoreConfig& baseline, const CoreConfig& target,
                      std::span<const std::size_t> order);
};

} // namespace concorde
