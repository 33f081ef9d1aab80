#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

namespace concorde {

/// What `concorde simulate` reports for one region.
struct SimulationResult {
    std::uint64_t instructions = 0;
    std::uint64_t cycles = 0;
    std::vector<double> windowIpc;
    nlohmann::json stallCycles; ///< reason → cycles (sums to `cycles`)
    std::uint64_t mispredictions = 0;
    /// Memory-system counters of the measured part: prefetches issued and dropped (no MSHR
    /// free), store misses, L1d writebacks, DRAM reads and writebacks.
    nlohmann::json memory = nlohmann::json::object();

    double cpi() const {
        return instructions ? static_cast<double>(cycles) / static_cast<double>(instructions) : 0;
    }
    nlohmann::json toJson() const;
};

} // namespace concorde
