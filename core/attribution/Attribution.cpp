#include "attribution/Attribution.h"

#include "common/ConcordeError.h"

#include <nlohmann/json.hpp>

namespace concorde {

std::string_view methodName(AttributionMethod method) {
    return method == AttributionMethod::Exact ? "exact" : "sampling";
}

double Attribution::sum() const {
    double total = 0;
    for (const PlayerAttribution& p : players)
        total += p.value;
    return total;
}

const PlayerAttribution& Attribution::at(std::string_view player) const {
    for (const PlayerAttribution& p : players)
        if (p.player == player)
            return p;
    throw badInput("no attribution for player '" + std::string(player) + "'");
}

nlohmann::json Attribution::toJson() const {
    nlohmann::json list = nlohmann::json::array();
    for (const PlayerAttribution& p : players)
        list.push_back({{"player", p.player},
                        {"attribution", p.value},
                        {"stderr", p.standardError},
                        {"active", p.active}});
    return {{"baseline_cpi", baselineCpi},
            {"target_cpi", targetCpi},
            {"delta", delta()},
            {"method", std::string(methodName(method))},
            {"permutations", permutations},
            {"evaluations", evaluations},
            {"players", std::move(list)}};
}

} // namespace concorde
