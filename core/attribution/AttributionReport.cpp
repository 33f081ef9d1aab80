#include "attribution/AttributionReport.h"

#include <nlohmann/json.hpp>

namespace concorde {

nlohmann::json AttributionReport::toJson() const {
    nlohmann::json list = nlohmann::json::array();
    for (const ProgramAttribution& program : programs)
        list.push_back(program.toJson());
    return {{"baseline", baseline.toJson()},
            {"target", target.toJson()},
            {"players", players.toJson()},
            {"method", std::string(methodName(method))},
            {"permutations", permutations},
            // As a string: JSON readers often hold numbers as doubles, which would round a
            // 64-bit seed and make the run irreproducible.
            {"seed", std::to_string(seed)},
            {"programs", std::move(list)}};
}

} // namespace concorde
