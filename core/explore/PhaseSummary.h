#pragma once

#include "explore/ProgramTimeline.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace concorde {

class CoreConfig;
class DatabaseBounds;

/// What sets one phase of a program apart (issue 23): its share of the program's instructions,
/// its CPI and the resource that binds most of its windows, at one configuration. The phases
/// view names every phase by these instead of a bare number.
struct PhaseSummary {
    std::int64_t phase = 0;
    std::size_t regions = 0;
    /// Of the program's measured instructions (its regions' lengths).
    double instructionShare = 0;
    /// Instruction-weighted mean of its regions' predicted CPIs (NaN if any is unknown).
    double cpi = 0;
    /// The resource (BoundResources index) binding most of the phase's windows at the
    /// configuration, and the share of its windows it binds.
    std::size_t dominantResource = 0;
    double dominantShare = 0;

    /// One summary per phase of `timeline` that has regions, in phase order; bindings from
    /// `bounds` (the database `timeline` was built from) at `config`. Empty without phases.
    static std::vector<PhaseSummary> summarise(const ProgramTimeline& timeline,
                                               const DatabaseBounds& bounds,
                                               const CoreConfig& config);
};

} // namespace concorde
