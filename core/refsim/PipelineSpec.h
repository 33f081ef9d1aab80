#pragma once

#include "analysis/BranchTargetSpec.h"

#include <cstdint>

namespace concorde {

/// The fixed (non-slider) structure of the reference core's pipeline. A runtime value type like
/// MemorySystemSpec: tests may vary it, production uses the defaults, and `concorde diagnose`
/// checks that the simulator's effective behaviour equals these numbers.
///
/// Stage timing of one instruction on an otherwise idle core (default cycle counts):
///   cycle f      its I-cache line is ready and fetch delivers it into the decode queue
///   f + 3        decoded (fetchToDecodeCycles) into the rename queue
///   f + 5        renamed and dispatched into ROB / LQ / SQ (decodeToRenameCycles)
///   f + 7        earliest issue (dispatchToIssueCycles)
///   issue + lat  result available to dependents and the instruction may commit
/// A mispredicted branch that completes at cycle c lets fetch request the correct path at
/// c + redirectCycles, so the minimum misprediction penalty is minimumMispredictPenalty().
/// A taken branch that misses the BTB lets fetch request its target redirectCycles after it is
/// decoded: btbMissBubble() cycles lost against a BTB hit.
///
/// Defaults give an N1-class depth: the minimum misprediction penalty is 11 cycles, as Arm
/// publishes for Cortex-A76/Neoverse N1 (and about what ChampSim's default pipeline gives);
/// a BTB miss redirected at decode loses 5 cycles.
struct PipelineSpec {
    std::uint32_t fetchToDecodeCycles = 3;
    std::uint32_t decodeToRenameCycles = 2;
    std::uint32_t dispatchToIssueCycles = 2;
    std::uint32_t redirectCycles = 2;
    /// I-cache hit: a requested line can be fetched from in the next cycle.
    std::uint32_t icacheHitCycles = 1;
    /// New I-cache lines the fetch unit can request per cycle (a 2×64 B fetch path).
    std::uint32_t lineRequestsPerCycle = 2;
    /// Decoded-instruction queues between fetch, decode and rename.
    std::uint32_t decodeQueueEntries = 64;
    std::uint32_t renameQueueEntries = 64;
    /// L1d miss status holding registers: outstanding L1d line fills, shared by demand load
    /// misses, store read-for-ownership misses and prefetches.
    std::uint32_t l1dMshrs = 16;
    /// The BTB, return stack and indirect-target predictor (shared with the trace analysis).
    BranchTargetSpec targets;

    /// Cycles from fetching a mispredicted branch whose operands are ready to fetching the
    /// first correct-path instruction after it (decode, rename, issue, one cycle of execution,
    /// redirect, I-cache hit). A correctly predicted branch lets fetch continue in the same or
    /// the next cycle, so this is what a misprediction costs a front-end-bound loop.
    std::uint32_t minimumMispredictPenalty() const {
        return fetchToDecodeCycles + decodeToRenameCycles + dispatchToIssueCycles +
               /* branch latency */ 1 + redirectCycles + icacheHitCycles;
    }
    /// Cycles a taken branch that misses the BTB costs a front-end-bound loop: fetched at f,
    /// decoded at f + fetchToDecodeCycles, its target requested redirectCycles later and
    /// fetched icacheHitCycles after that, where a BTB hit would have fetched it at f + 1.
    std::uint32_t btbMissBubble() const {
        return fetchToDecodeCycles + redirectCycles + icacheHitCycles - 1;
    }
};

} // namespace concorde
