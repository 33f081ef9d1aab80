#pragma once

#include "analysis/MemLevel.h"
#include "analysis/MemoryConfig.h"
#include "analysis/MemorySystemSpec.h"
#include "analysis/SetAssociativeCache.h"
#include "analysis/StridePrefetcher.h"
#include "analysis/WarmState.h"

#include <cstdint>
#include <optional>
#include <queue>
#include <unordered_map>
#include <vector>

namespace concorde {

/// The reference simulator's memory system: the same set-associative tag arrays and stride
/// prefetcher as the trace analysis, with timing on top — L1d MSHRs (demand fills in flight),
/// fills that arrive later than they are looked up, prefetches that take time, and a DRAM
/// channel with finite bandwidth (requests served in order, each occupying the channel for
/// lineBytes / dramBytesPerCycle cycles).
///
/// Simplifications (docs/design.md §6): stores are written to the
/// caches at commit without timing (a store buffer drains them in the background); prefetches do
/// not occupy MSHRs; evictions are silent (no writebacks).
class TimedMemorySystem {
public:
    TimedMemorySystem(const MemoryConfig& config, const MemorySystemSpec& spec,
                      std::uint32_t mshrs);

    struct LoadResult {
        bool accepted = false;        ///< false: no MSHR free, retry in a later cycle
        std::uint64_t readyCycle = 0; ///< when the data is available to dependents
        MemLevel level = MemLevel::L1;
    };

    /// A demand load issued at `cycle` by the instruction at `pc` (all lines it touches).
    LoadResult load(std::uint64_t pc, std::uint64_t address, std::uint32_t size,
                    std::uint64_t cycle);
    /// A committed store: updates the tags (write-allocate), no timing.
    void store(std::uint64_t address, std::uint32_t size);
    /// An instruction-line fetch; returns the level that had it (latency from the spec).
    MemLevel fetchLine(std::uint64_t line);
    /// True if the instruction line is in the L1i (no state change).
    bool instructionLineCached(std::uint64_t line) const { return l1i_.probe(line); }
    /// Untimed accesses for warm-up: caches and prefetcher learn, nothing is in flight.
    void warmData(std::uint64_t pc, std::uint64_t address, std::uint32_t size, bool isStore);
    void warmInstruction(std::uint64_t line) { fetchLine(line); }
    /// Rebuilds caches and prefetcher from a functional warm-up state (WarmState::warm's
    /// order: lines oldest first, then the recent loads), untimed.
    void warm(const WarmState& state);

    /// Earliest cycle after `cycle` at which an MSHR frees, if all are busy.
    std::optional<std::uint64_t> nextMshrRelease(std::uint64_t cycle);
    std::uint32_t latency(MemLevel level) const { return spec_.latency(level); }
    std::uint32_t lineShift() const { return lineShift_; }
    std::uint64_t prefetchesIssued() const { return prefetchesIssued_; }

private:
    /// Looks the line up below L1 (L2, LLC), filling on the way; the level that had it.
    MemLevel lookupBelowL1(std::uint64_t line);
    /// Cycle at which a line from `level` requested at `cycle` arrives (DRAM queues).
    std::uint64_t arrival(MemLevel level, std::uint64_t cycle);
    void releaseMshrs(std::uint64_t cycle);
    void prefetch(std::uint64_t pc, std::uint64_t line, std::uint64_t cycle);

    MemorySystemSpec spec_;
    std::uint32_t lineShift_;
    std::uint32_t mshrs_;
    SetAssociativeCache l1i_;
    SetAssociativeCache l1d_;
    SetAssociativeCache l2_;
    SetAssociativeCache llc_;
    StridePrefetcher prefetcher_;
    struct Fill {
        std::uint64_t arrival;
        MemLevel level; ///< where the line came from
    };
    /// L1d lines whose fill has not arrived yet (demand and prefetch).
    std::unordered_map<std::uint64_t, Fill> inFlight_;
    /// Arrival cycles of outstanding demand fills (one MSHR each), earliest first.
    std::priority_queue<std::uint64_t, std::vector<std::uint64_t>, std::greater<>> mshrBusyUntil_;
    double dramChannelFree_ = 0.0;
    std::uint64_t prefetchesIssued_ = 0;
};

} // namespace concorde
