#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace concorde {

/// How Shapley values were obtained.
enum class AttributionMethod {
    Exact,    ///< the Shapley formula over every coalition
    Sampling, ///< mean over sampled permutations (antithetic pairs), with standard errors
};

/// "exact" or "sampling".
std::string_view methodName(AttributionMethod method);

/// One player's share of the CPI change.
struct PlayerAttribution {
    std::string player;
    /// CPI change attributed to switching this player from baseline to target (negative when
    /// the change lowers CPI). Exactly 0 for a player whose parameters are equal in both.
    double value = 0;
    /// Standard error of `value`: 0 in exact mode and for inactive players.
    double standardError = 0;
    /// Whether the player's parameters differ between baseline and target.
    bool active = false;
};

/// The Shapley attribution of one CPI function (a region, or a program's weighted mean).
/// Efficiency: the values add up to targetCpi − baselineCpi (see ShapleyAttributor for the
/// floating-point guarantee).
struct Attribution {
    double baselineCpi = 0;
    double targetCpi = 0;
    AttributionMethod method = AttributionMethod::Exact;
    std::size_t permutations = 0; ///< permutations used (sampling), 0 when exact
    std::uint64_t evaluations = 0;
    std::vector<PlayerAttribution> players; ///< in PlayerSet order

    double delta() const { return targetCpi - baselineCpi; }
    /// Sum of the players' values, added in player order.
    double sum() const;
    /// The entry for `player`; throws a bad-input error for an unknown name.
    const PlayerAttribution& at(std::string_view player) const;

    /// {"baseline_cpi", "target_cpi", "delta", "method", "permutations", "evaluations",
    ///  "players": [{"player", "attribution", "stderr", "active"}]}
    nlohmann::json toJson() const;
};

} // namespace concorde
