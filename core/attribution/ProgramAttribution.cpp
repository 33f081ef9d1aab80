#include "attribution/ProgramAttribution.h"

#include <nlohmann/json.hpp>

namespace concorde {

nlohmann::json ProgramAttribution::toJson() const {
    nlohmann::json list = nlohmann::json::array();
    for (const RegionAttribution& r : regions) {
        nlohmann::json entry = r.attribution.toJson();
        entry["region"] = r.region;
        entry["instructions"] = r.instructions;
        list.push_back(std::move(entry));
    }
    return {{"program", program},
            {"instructions", instructions},
            {"all", total.toJson()},
            {"regions", std::move(list)}};
}

} // namespace concorde
