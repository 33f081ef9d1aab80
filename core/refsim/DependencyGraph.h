#pragma once

#include "analysis/ProducerList.h"
#include "trace/TraceRecord.h"

#include <cstdint>
#include <span>
#include <vector>

namespace concorde {

/// The register and memory dependencies of a region's measured records, in both directions:
/// each record's producers (DependencyAnalyzer) and each record's consumers in CSR form, which
/// the reference simulator walks to wake instructions up. It depends on the records only, not on
/// the core configuration, so a labeller that simulates one region under many configurations
/// builds it once and hands it to every simulation (ReferenceSimulator::simulate).
class DependencyGraph {
public:
    /// Set in a consumer entry when the consumer only needs the producer's early result
    /// (ProducerList::isEarly: ready one cycle after the producer issues).
    static constexpr std::uint32_t kEarlyEdge = 1u << 31;

    /// The graph of records[warmup..]; the warm-up records count as writers only.
    DependencyGraph(std::span<const TraceRecord> records, std::size_t warmup);

    /// Measured records covered.
    std::size_t size() const { return producers_.size(); }
    /// Producers of measured record i (indices relative to the first measured record).
    const ProducerList& producers(std::size_t i) const { return producers_[i]; }
    /// Consumer entries of record i: indices, kEarlyEdge set for early-result edges.
    std::span<const std::uint32_t> consumers(std::size_t i) const {
        return std::span<const std::uint32_t>(consumers_)
            .subspan(consumerStart_[i], consumerStart_[i + 1] - consumerStart_[i]);
    }

private:
    std::vector<ProducerList> producers_;
    std::vector<std::uint32_t> consumerStart_;
    std::vector<std::uint32_t> consumers_;
};

} // namespace concorde
