#pragma once

#include "analysis/AnnotatedRegion.h"
#include "bounds/RegionIndex.h"
#include "bounds/WindowBounds.h"

namespace concorde {

/// Front-end resources as small single-component simulations (docs/design.md §7): instructions are
/// fetched in order from I-cache lines (each AnnotatedInstruction::newFetchLine starts a line
/// access at its fetchLevel), limited only by the one resource; everything else is unlimited.
///   I-cache fills F: at most F line misses outstanding; a line can be requested once a fill
///     slot is free (hits need none) and lines are requested in order; an instruction is
///     delivered when its line arrives.
///   fetch buffers B: each line holds a buffer entry from its request until it arrives
///     (delivery is instant); line k is requested once line k−B has arrived.
/// A hit takes `hitCycles` (the refsim's I-cache hit time), a miss the level's latency. Lines are
/// requested ahead of delivery except after a taken branch that missed the BTB: the next line is
/// requested only once that branch has been delivered and decoded (`btbMissBubble`, as the
/// reference simulator redirects), so BTB misses serialise I-cache misses.
///   fetch width W: fetch delivers at most W instructions per cycle and stops after a taken
///     branch (one taken branch per cycle, as the reference simulator does), so a window needs
///     Σ ceil(group / W) cycles over its fetch groups (runs of instructions ending at a taken
///     branch). The group straddling a window boundary is charged to the window it ends in.
///     A group ending at a taken branch that missed the BTB (AnnotatedInstruction::btbMiss)
///     costs `btbMissBubble` more cycles: fetch waits for decode to redirect it.
class FrontEndModel {
public:
    /// PipelineSpec{}.btbMissBubble(), the reference simulator's bubble (a test keeps them
    /// equal; bounds sit below the simulator and cannot include its headers).
    static constexpr std::uint32_t kDefaultBtbMissBubble = 5;

    static WindowSeries fetchWidth(const RegionIndex& index, std::uint32_t width,
                                   std::uint32_t windowSize,
                                   std::uint32_t btbMissBubble = kDefaultBtbMissBubble);
    static WindowSeries icacheFills(const RegionIndex& index, std::uint32_t fills,
                                    std::uint32_t windowSize, std::uint32_t hitCycles = 1,
                                    std::uint32_t btbMissBubble = kDefaultBtbMissBubble);
    static WindowSeries fetchBuffers(const RegionIndex& index, std::uint32_t buffers,
                                     std::uint32_t windowSize, std::uint32_t hitCycles = 1,
                                     std::uint32_t btbMissBubble = kDefaultBtbMissBubble);
};

} // namespace concorde
