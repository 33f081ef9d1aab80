#include "bounds/QueueModel.h"

#include "analysis/MemoryOrderingModel.h"

#include <algorithm>

namespace concorde {

WindowSeries QueueModel::run(const RegionIndex& index, Kind kind, std::uint32_t queueSize,
                             std::uint32_t windowSize) {
    const AnnotatedRegion& region = index.region;
    const std::vector<std::uint32_t>& members = kind == Kind::Load ? index.loads : index.stores;
    const std::size_t q = std::max<std::uint32_t>(queueSize, 1);
    MemoryOrderingModel memory(region);
    std::vector<double> commit(members.size());
    double lastCommit = 0;
    for (std::size_t j = 0; j < members.size(); ++j) {
        const AnnotatedInstruction& inst = region[members[j]];
        const double s = j < q ? 0.0 : commit[j - q];
        const double f = kind == Kind::Load ? memory.respond(inst, s) + inst.classLatency
                                            : s + inst.classLatency;
        lastCommit = std::max(lastCommit, f);
        commit[j] = lastCommit;
    }
    // Other instructions are free: they complete with the last queue instruction before them.
    return WindowBounds::fromEvents(members, commit, region.size(), windowSize);
}

} // namespace concorde
