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
/// prefetcher as the trace analysis, with timing on top (docs/design.md §6):
/// - L1d MSHRs: every line fill in flight into the L1d holds one until it arrives, whether a
///   demand load miss, a store's read-for-ownership or a prefetch. A prefetch that finds no free
///   MSHR is dropped, so prefetching competes with demand misses.
/// - Fills arrive later than they are looked up; a load or store to a line in flight waits for
///   it without taking another MSHR.
/// - Stores are written by the store buffer after commit (write()): write-allocate, a miss
///   reads the line for ownership through L2, LLC and DRAM. Written lines are dirty.
/// - Dirty lines are written back when evicted, L1d → L2 → LLC → DRAM (lines stay dirty in
///   the level they are written to). Writebacks take no MSHR (a writeback buffer is assumed
///   large enough) but take bandwidth.
/// - Bandwidth: two in-order channels, L1d–L2 (fills from L2 and below, and L1d writebacks,
///   lineBytes / l2BytesPerCycle cycles per line) and DRAM (line reads and LLC writebacks,
///   lineBytes / dramBytesPerCycle cycles per line). A request starts when its channel is free;
///   under low load every latency is exactly the spec's load-to-use latency.
///
/// Simplifications: instruction fills take no MSHR and no bandwidth (a writeback they displace
/// is charged at the latest cycle seen); the LLC has no bandwidth limit of its own; warm-up is
/// untimed and warm-state lines start clean.
class TimedMemorySystem {
public:
    TimedMemorySystem(const MemoryConfig& config, const MemorySystemSpec& spec,
                      std::uint32_t mshrs);

    struct LoadResult {
        bool accepted = false;        ///< false: no MSHR free, retry in a later cycle
        std::uint64_t readyCycle = 0; ///< when the data is available to dependents
        MemLevel level = MemLevel::L1;
    };
    struct WriteResult {
        bool accepted = false;          ///< false: no MSHR free, retry in a later cycle
        std::uint64_t writtenCycle = 0; ///< when the data is in the L1d
    };

    /// A demand load issued at `cycle` by the instruction at `pc` (all lines it touches).
    LoadResult load(std::uint64_t pc, std::uint64_t address, std::uint32_t size,
                    std::uint64_t cycle);
    /// A committed store leaving the store buffer at `cycle` (all lines it touches). A line in
    /// the L1d is written at `cycle`, a line in flight when it arrives; a missing line takes an
    /// MSHR for a read-for-ownership and is written when it arrives. A refused write changes
    /// nothing.
    WriteResult write(std::uint64_t address, std::uint32_t size, std::uint64_t cycle);
    /// An instruction-line fetch; returns the level that had it (latency from the spec).
    MemLevel fetchLine(std::uint64_t line);
    /// True if the instruction line is in the L1i (no state change).
    bool instructionLineCached(std::uint64_t line) const { return l1i_.probe(line); }
    /// Untimed accesses for warm-up: caches and prefetcher learn, stores dirty their lines,
    /// nothing is in flight and no bandwidth is used.
    void warmData(std::uint64_t pc, std::uint64_t address, std::uint32_t size, bool isStore);
    void warmInstruction(std::uint64_t line) { fetchLine(line); }
    /// Rebuilds caches and prefetcher from a functional warm-up state (WarmState::warm's
    /// order: lines oldest first, then the recent loads), untimed.
    void warm(const WarmState& state);

    /// Earliest cycle after `cycle` at which an MSHR frees, if all are busy.
    std::optional<std::uint64_t> nextMshrRelease(std::uint64_t cycle);
    std::uint32_t latency(MemLevel level) const { return spec_.latency(level); }
    std::uint32_t lineShift() const { return lineShift_; }

    /// Counters since construction, timed accesses only (not warm-up).
    struct Counters {
        std::uint64_t prefetchesIssued = 0;
        std::uint64_t prefetchesDropped = 0; ///< no MSHR free
        std::uint64_t storeMisses = 0;       ///< read-for-ownership line fills
        std::uint64_t l1Writebacks = 0;      ///< dirty L1d lines written to L2
        std::uint64_t dramReads = 0;         ///< lines read from DRAM (demand, RFO, prefetch)
        std::uint64_t dramWritebacks = 0;    ///< dirty LLC lines written to DRAM
    };
    const Counters& counters() const { return counters_; }
    std::uint64_t prefetchesIssued() const { return counters_.prefetchesIssued; }

private:
    /// Looks the line up below L1 (L2, LLC), filling on the way; the level that had it.
    /// Displaced dirty lines are written back (timed unless `timed` is false).
    MemLevel lookupBelowL1(std::uint64_t line, std::uint64_t cycle, bool timed);
    /// Writes back what an insertion into a level displaced, if dirty.
    void evictedFromL1(const SetAssociativeCache::Eviction& evicted, std::uint64_t cycle,
                       bool timed);
    void evictedFromL2(const SetAssociativeCache::Eviction& evicted, std::uint64_t cycle,
                       bool timed);
    void evictedFromLlc(const SetAssociativeCache::Eviction& evicted, std::uint64_t cycle,
                        bool timed);
    /// Cycle at which a line from `level` requested at `cycle` arrives (channels queue).
    std::uint64_t arrival(MemLevel level, std::uint64_t cycle);
    /// Reserves `length` cycles of an in-order channel from `cycle`; returns the start.
    static double occupy(double& channelFree, std::uint64_t cycle, double length);
    /// MSHRs a load or write of lines [first, last] at `cycle` would need.
    std::uint32_t mshrsNeeded(std::uint64_t first, std::uint64_t last, std::uint64_t cycle) const;
    void releaseMshrs(std::uint64_t cycle);
    void prefetch(std::uint64_t pc, std::uint64_t line, std::uint64_t cycle);
    /// Drops arrived fills once the in-flight map grows large.
    void trimInFlight(std::uint64_t cycle);

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
    /// L1d lines whose fill has not arrived yet (demand, RFO and prefetch).
    std::unordered_map<std::uint64_t, Fill> inFlight_;
    /// Arrival cycles of outstanding L1d fills (one MSHR each), earliest first.
    std::priority_queue<std::uint64_t, std::vector<std::uint64_t>, std::greater<>> mshrBusyUntil_;
    double dramChannelFree_ = 0.0;
    double l2ChannelFree_ = 0.0;
    /// Latest cycle of any timed access: when writebacks displaced by instruction fills go.
    std::uint64_t lastCycle_ = 0;
    Counters counters_;
};

} // namespace concorde
