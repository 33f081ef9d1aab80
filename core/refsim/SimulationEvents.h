#pragma once

#include "analysis/MemLevel.h"

#include <cstdint>
#include <string_view>

namespace concorde {

/// Why the rename/dispatch stage used fewer than its `rename_width` slots in a cycle: the
/// categories of the stall breakdown (a top-down view of dispatch slots).
enum class StallReason : std::uint8_t {
    None,               ///< every slot dispatched an instruction
    FrontEndMispredict, ///< nothing to dispatch: fetch is waiting for a mispredicted branch
    FrontEndIcache,     ///< nothing to dispatch: fetch is waiting for an I-cache miss
    FrontEndBandwidth,  ///< nothing (or too little) to dispatch: fetch/decode width or latency
    RobFullMemL1,       ///< ROB full, the oldest instruction waits on an L1 hit or execution
    RobFullMemL2,       ///< ROB full, the oldest instruction waits on an L2 access
    RobFullMemLlc,      ///< ROB full, the oldest instruction waits on an LLC access
    RobFullMemDram,     ///< ROB full, the oldest instruction waits on DRAM
    RobFullExecution,   ///< ROB full, the oldest instruction waits on a non-memory operation
    LoadQueueFull,
    StoreQueueFull,
    Fence, ///< a fence is draining the ROB or blocking younger instructions
};
inline constexpr std::size_t kStallReasonCount = 12;

/// Stable names for reports: "frontend.mispredict", "backend.rob.dram", ...
std::string_view stallReasonName(StallReason reason);

/// One cycle (or `repeat` identical cycles the simulator skipped over) of the dispatch stage.
struct CycleEvent {
    std::uint64_t cycle = 0;
    std::uint32_t repeat = 1;
    std::uint32_t dispatched = 0;           ///< instructions dispatched in the cycle
    std::uint32_t dispatchSlots = 0;        ///< rename_width
    StallReason reason = StallReason::None; ///< what took the unused slots
};

/// An instruction left the core.
struct CommitEvent {
    std::uint64_t index = 0; ///< position in the measured region
    std::uint64_t cycle = 0;
};

/// An instruction issued to an execution unit.
struct IssueEvent {
    std::uint64_t index = 0;
    std::uint64_t cycle = 0;
    std::uint64_t completeCycle = 0;
    bool hasMemoryLevel = false;
    MemLevel level = MemLevel::L1; ///< where its load was satisfied (forwarded loads: L1)
};

/// A taken branch that missed the BTB was decoded; fetch may request its target from
/// `redirectCycle` on.
struct RedirectEvent {
    std::uint64_t index = 0;
    std::uint64_t redirectCycle = 0;
};

/// A mispredicted branch resolved.
struct MispredictEvent {
    std::uint64_t index = 0;
    std::uint64_t resolveCycle = 0;
};

} // namespace concorde
