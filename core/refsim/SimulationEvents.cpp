#include "refsim/SimulationEvents.h"

#include <array>

namespace concorde {

std::string_view stallReasonName(StallReason reason) {
    static constexpr std::array<std::string_view, kStallReasonCount> kNames = {
        "dispatched",          "frontend.mispredict", "frontend.icache", "frontend.bandwidth",
        "backend.rob.l1",      "backend.rob.l2",      "backend.rob.llc", "backend.rob.dram",
        "backend.rob.execute", "backend.lq",          "backend.sq",      "backend.fence"};
    const auto i = static_cast<std::size_t>(reason);
    return i < kNames.size() ? kNames[i] : "invalid";
}

} // namespace concorde
