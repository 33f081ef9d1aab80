#pragma once

#include "refsim/SimulationListener.h"

#include <array>
#include <nlohmann/json_fwd.hpp>

namespace concorde {

/// Top-down stall breakdown of dispatch slots: each cycle's unused rename slots are charged to
/// the reason the dispatch stage stopped. cyclesFor() turns slot counts into cycles (slots ÷
/// rename width), so the entries sum to the simulated cycles.
class StallBreakdownCollector : public SimulationListener {
public:
    void onStart(std::uint64_t instructions) override;
    void onCycle(const CycleEvent& event) override;

    double unusedSlots(StallReason reason) const {
        return slots_[static_cast<std::size_t>(reason)];
    }
    double cyclesFor(StallReason reason) const;
    /// {"dispatched": cycles, "frontend.icache": cycles, ...} with every reason.
    nlohmann::json toJson() const;

private:
    std::array<double, kStallReasonCount> slots_{};
    double width_ = 1;
};

} // namespace concorde
