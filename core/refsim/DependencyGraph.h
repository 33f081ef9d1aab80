#pragma once

#include "analysis/ConsumerLists.h"
#include "analysis/ProducerList.h"
#include "trace/TraceRecord.h"

#include <cstdint>
#include <span>
#include <vector>

namespace concorde {

/// The register and memory dependencies of a region's measured records, in both directions:
/// each record's producers (DependencyAnalyzer) and each record's consumers (ConsumerLists), which
/// the reference simulator walks to wake instructions up. It depends on the records only, not on
/// the core configuration, so a labeller that simulates one region under many configurations
/// builds it once and hands it to every simulation (ReferenceSimulator::simulate).
class DependencyGraph {
public:
    /// The graph of records[warmup..]; the warm-up records count as writers only.
    DependencyGraph(std::span<const TraceRecord> records, std::size_t warmup);

    /// Measured records covered.
    std::size_t size() const { return producers_.size(); }
    /// Producers of measured record i (indices relative to the first measured record).
    const ProducerList& producers(std::size_t i) const { return producers_[i]; }
    /// Consumer edges of record i (ConsumerLists::consumer and ConsumerLists::isEarly read them).
    std::span<const std::uint32_t> consumers(std::size_t i) const { return consumers_.of(i); }

private:
    std::vector<ProducerList> producers_;
    ConsumerLists consumers_;
};

} // namespace concorde
