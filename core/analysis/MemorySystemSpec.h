#pragma once

#include "analysis/MemLevel.h"

#include <array>
#include <cstdint>

namespace concorde {

/// The fixed part of the memory system (docs/design.md §3): everything that is not a slider. A
/// runtime value type so that tests and experiments can vary it, but every production path uses the
/// default-constructed value.
///
/// Choices beyond what docs/design.md §3 fixes:
/// - L1d and L1i are 8-way. With 64 B lines an 8-way L1 of S kB has 2·S sets, so every legal size
///   (16–256 kB) divides evenly; 8 ways is the common choice for 32–64 kB L1s (Zen 2–4: 8-way
///   32 kB), between Neoverse N1 (4-way 64 kB) and Golden Cove (12-way 48 kB L1d).
/// - L2 is 8-way (N1: 8-way 512 kB–1 MB).
/// - Replacement is tree-PLRU at every level; there is no field because there is no alternative.
/// - Latencies are load-to-use, counted from the cycle the load issues to the cycle a dependent
///   instruction can issue: an L2 hit costs 12 cycles in total, not 4 + 12.
struct MemorySystemSpec {
    std::uint32_t lineBytes = 64; ///< power of two
    std::uint32_t l1dWays = 8;
    std::uint32_t l1iWays = 8;
    std::uint32_t l2Ways = 8;
    std::uint32_t llcKb = 4096;
    std::uint32_t llcWays = 16;
    /// Load-to-use latency in cycles per MemLevel (L1, L2, LLC, DRAM), non-decreasing.
    std::array<std::uint32_t, kMemLevelCount> latencies{4, 12, 30, 200};
    /// Sustained DRAM bandwidth; one line takes lineBytes / dramBytesPerCycle cycles.
    double dramBytesPerCycle = 15.0;
    /// Bandwidth between L1d and L2, shared in request order by line fills and dirty
    /// writebacks (used by the timed simulator only; 64 B/cycle: one line per cycle).
    double l2BytesPerCycle = 64.0;
    /// Entries of the PC-indexed stride prefetcher table (power of two).
    std::uint32_t prefetchTableEntries = 256;
    /// L1d miss-status holding registers: line fills in flight (demand, prefetch) in the
    /// analytical load models; equal to the simulator's PipelineSpec::l1dMshrs (a test checks).
    std::uint32_t l1dMshrs = 16;

    /// Load-to-use latency of an access satisfied at `level`.
    std::uint32_t latency(MemLevel level) const { return latencies[levelIndex(level)]; }
    /// log2(lineBytes): shift from a byte address to a line address.
    std::uint32_t lineShift() const;
    /// Cycles of DRAM bandwidth one line transfer occupies (64 / 15 ≈ 4.27).
    double dramCyclesPerLine() const { return lineBytes / dramBytesPerCycle; }
    /// Cycles of L1–L2 bandwidth one line transfer occupies (64 / 64 = 1).
    double l2CyclesPerLine() const { return lineBytes / l2BytesPerCycle; }

    /// Throws a bad-input ConcordeError naming the first inconsistent field.
    void validate() const;

    bool operator==(const MemorySystemSpec&) const = default;
};

} // namespace concorde
