#pragma once

#include "attribution/Attribution.h"

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace concorde {

/// The attribution of one region of a program.
struct RegionAttribution {
    std::string region;
    std::uint64_t instructions = 0;
    Attribution attribution;
};

/// A program's attribution: per region, and for the whole program (`total`, region "all" in the
/// CSV), which is the instruction-weighted mean of the region attributions and equals the
/// Shapley attribution of the program's CPI (the weighted mean of its region CPIs).
struct ProgramAttribution {
    std::string program;
    std::uint64_t instructions = 0;
    Attribution total;
    std::vector<RegionAttribution> regions;

    /// {"program", "instructions", "all": Attribution, "regions": [{"region", "instructions",
    ///  ...Attribution fields}]}
    nlohmann::json toJson() const;
};

} // namespace concorde
