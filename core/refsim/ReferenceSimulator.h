#pragma once

#include "analysis/WarmState.h"
#include "params/CoreConfig.h"
#include "params/MethodConstants.h"
#include "refsim/DependencyGraph.h"
#include "refsim/SimulationResult.h"
#include "trace/TraceRecord.h"

#include <span>

namespace concorde {

/// The reference simulator with its standard collectors: one call per region gives cycles, CPI,
/// per-window IPC and the stall breakdown.
class ReferenceSimulator {
public:
    static constexpr std::uint32_t kDefaultWindow = kDefaultWindowSize;

    /// Simulates records[warmup, end) after warming up on records[0, warmup), from the
    /// functional warm-up state `warm` when given (cold otherwise). `graph`: the records'
    /// DependencyGraph when the caller simulates the same region under many configurations
    /// (the results are the same with or without it).
    static SimulationResult simulate(std::span<const TraceRecord> records, std::size_t warmup,
                                     const CoreConfig& config,
                                     std::uint32_t windowSize = kDefaultWindow,
                                     const WarmState* warm = nullptr,
                                     const DependencyGraph* graph = nullptr);
};

} // namespace concorde
