#include "refsim/StallBreakdownCollector.h"

#include <nlohmann/json.hpp>

namespace concorde {

void StallBreakdownCollector::onStart(std::uint64_t) {
    slots_.fill(0.0);
}

void StallBreakdownCollector::onCycle(const CycleEvent& event) {
    width_ = event.dispatchSlots > 0 ? event.dispatchSlots : 1;
    const double repeat = event.repeat;
    slots_[static_cast<std::size_t>(StallReason::None)] += event.dispatched * repeat;
    const std::uint32_t unused = event.dispatchSlots - event.dispatched;
    if (unused > 0)
        slots_[static_cast<std::size_t>(event.reason)] += unused * repeat;
}

double StallBreakdownCollector::cyclesFor(StallReason reason) const {
    return unusedSlots(reason) / width_;
}

nlohmann::json StallBreakdownCollector::toJson() const {
    nlohmann::json object = nlohmann::json::object();
    for (std::size_t i = 0; i < kStallReasonCount; ++i) {
        const auto reason = static_cast<StallReason>(i);
        object[std::string(stallReasonName(reason))] = cyclesFor(reason);
    }
    return object;
}

} // namespace concorde
