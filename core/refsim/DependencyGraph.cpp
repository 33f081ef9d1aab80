#include "refsim/DependencyGraph.h"

#include "analysis/DependencyAnalyzer.h"

namespace concorde {

DependencyGraph::DependencyGraph(std::span<const TraceRecord> records, std::size_t warmup)
    : producers_(DependencyAnalyzer::analyze(records, warmup)) {
    const std::size_t n = producers_.size();
    // Reverse edges (consumers of each producer) in CSR form: count, prefix-sum, fill.
    consumerStart_.assign(n + 1, 0);
    for (const auto& list : producers_)
        for (std::int32_t p : list)
            ++consumerStart_[static_cast<std::size_t>(p) + 1];
    for (std::size_t i = 0; i < n; ++i)
        consumerStart_[i + 1] += consumerStart_[i];
    consumers_.resize(consumerStart_[n]);
    std::vector<std::uint32_t> fill(consumerStart_.begin(), consumerStart_.end() - 1);
    for (std::size_t i = 0; i < n; ++i) {
        const ProducerList& list = producers_[i];
        for (std::size_t k = 0; k < list.size(); ++k)
            consumers_[fill[static_cast<std::size_t>(list.index[k])]++] =
                static_cast<std::uint32_t>(i) | (list.isEarly(k) ? kEarlyEdge : 0);
    }
}

} // namespace concorde
