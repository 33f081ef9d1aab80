#include "attribution/OrderedAblation.h"

#include "common/ConcordeError.h"

#include <nlohmann/json.hpp>

namespace concorde {

OrderedAblation::Result OrderedAblation::run(const ValueFunction& value, const PlayerSet& players,
                                             const CoreConfig& baseline, const CoreConfig& target,
                                             std::span<const std::string> order) {
    std::vector<std::size_t> indices;
    for (const std::string& name : order)
        indices.push_back(players.require(name));
    return run(value, players, baseline, target, std::span<const std::size_t>(indices));
}

OrderedAblation::Result OrderedAblation::run(const ValueFunction& value, const PlayerSet& players,
                                             const CoreConfig& baseline, const CoreConfig& target,
                                             std::span<const std::size_t> order) {
    std::vector<bool> seen(players.size(), false);
    for (std::size_t p : order) {
        if (p >= players.size())
            throw badInput("ablation order: player index " + std::to_string(p) +
                           " is out of range");
        if (seen[p])
            throw badInput("ablation order: player '" + players[p].name + "' appears twice");
        seen[p] = true;
    }
    std::string missing;
    for (std::size_t p = 0; p < players.size(); ++p)
        if (!seen[p] && players.differs(p, baseline, target))
            missing += (missing.empty() ? "" : ", ") + players[p].name;
    if (!missing.empty())
        throw badInput("ablation order: these players differ between baseline and target but "
                       "are not in the order: " +
                       missing);

    std::vector<CoreConfig> configs{baseline};
    for (std::size_t p : order) {
        CoreConfig next = configs.back();
        for (ParamId id : players[p].params)
            next.set(id, target.value(id));
        configs.push_back(next);
    }
    std::vector<double> cpi(configs.size());
    value.evaluate(configs, cpi);

    Result result;
    result.baselineCpi = cpi.front();
    result.targetCpi = cpi.back();
    for (std::size_t k = 0; k < order.size(); ++k)
        result.steps.push_back({players[order[k]].name, cpi[k], cpi[k + 1]});
    return result;
}

nlohmann::json OrderedAblation::Result::toJson() const {
    nlohmann::json list = nlohmann::json::array();
    for (const Step& step : steps)
        list.push_back({{"player", step.player},
                        {"cpi_before", step.cpiBefore},
                        {"cpi_after", step.cpiAfter},
                        {"delta", step.delta()}});
    return {{"baseline_cpi", baselineCpi}, {"target_cpi", targetCpi}, {"steps", std::move(list)}};
}

} // namespace concorde
