#include "refsim/DependencyGraph.h"

#include "analysis/DependencyAnalyzer.h"

namespace concorde {

DependencyGraph::DependencyGraph(std::span<const TraceRecord> records, std::size_t warmup)
    : producers_(DependencyAnalyzer::analyze(records, warmup)),
      consumers_(producers_.size(),
                 [this](std::size_t i) -> const ProducerList& { return producers_[i]; }) {}

} // namespace concorde
