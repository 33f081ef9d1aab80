#pragma once

#include "analysis/AnnotatedRegion.h"
#include "bounds/RegionIndex.h"
#include "bounds/WindowBounds.h"

namespace concorde {

/// The load queue and the store queue of size Q (docs/design.md §7): the ROB dynamical system over
/// the loads (or stores) alone, without dependencies; every other instruction is free.
///   a_j = c_{j-Q} over the queue's instructions, s_j = a_j,
///   f_j = memory-ordering response (loads) or s_j + latency (stores), c_j = max(f_j, c_{j-1}).
/// Starts are non-decreasing (c is), so the ordering model sees loads in issue order. A window's
/// end time is the commit of the last queue instruction in or before it.
class QueueModel {
public:
    enum class Kind { Load, Store };
    static WindowSeries run(const RegionIndex& index, Kind kind, std::uint32_t queueSize,
                            std::uint32_t windowSize);
    static WindowSeries run(const AnnotatedRegion& region, Kind kind, std::uint32_t queueSize,
                            std::uint32_t windowSize) {
        return run(RegionIndex(region), kind, queueSize, windowSize);
    }
};

} // namespace concorde
