#pragma once

#include "analysis/AnnotatedRegion.h"
#include "bounds/RegionIndex.h"
#include "bounds/WindowBounds.h"

namespace concorde {

/// The load queue and the store queue of size Q (docs/design.md §7): the ROB dynamical system over
/// the loads (or stores) alone, without dependencies; every other instruction is free.
///   Loads:  a_j = c_{j-Q}, s_j = a_j, f_j = memory-ordering response + class latency,
///           c_j = max(f_j, c_{j-1}). Starts are non-decreasing (c is), so the ordering model
///           sees loads in issue order.
///   Stores: an entry frees when the store has been written to the L1d, as in the reference
///           simulator's store buffer: dispatch waits for the earliest write among the Q stores
///           in the queue; commit c_j = max(a_j + class latency, c_{j-1}); the store is sent at
///           max(c_j + 1, the previous send), oldest first; a hit is written then; a miss
///           (AnnotatedInstruction::storeLevel) takes one of `storeMshrs` fills, waits for one
///           when all are busy (holding back younger stores), and is written when its line
///           arrives (level latency; DRAM fills also one line per dramCyclesPerLine); a store to
///           a line already on its way is written when it arrives.
/// A window's end time is the commit of the last queue instruction in or before it.
class QueueModel {
public:
    /// UntimedStore: the SQ model of databases built before 2026-11-28, a store leaving at its
    /// class latency (a_j = c_{j-Q}, c_j = max(a_j + class latency, c_{j-1})), whatever the memory.
    enum class Kind { Load, Store, UntimedStore };
    /// PipelineSpec{}.l1dMshrs, the reference simulator's (a test keeps them equal).
    static constexpr std::uint32_t kDefaultStoreMshrs = 16;
    static WindowSeries run(const RegionIndex& index, Kind kind, std::uint32_t queueSize,
                            std::uint32_t windowSize,
                            std::uint32_t storeMshrs = kDefaultStoreMshrs);
    static WindowSeries run(const AnnotatedRegion& region, Kind kind, std::uint32_t queueSize,
                            std::uint32_t windowSize) {
        return run(RegionIndex(region), kind, queueSize, windowSize);
    }

private:
    static WindowSeries runStores(const RegionIndex& index, std::uint32_t queueSize,
                                  std::uint32_t windowSize, std::uint32_t storeMshrs);
};

} // namespace concorde
