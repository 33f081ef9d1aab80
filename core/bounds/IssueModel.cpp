#include "bounds/IssueModel.h"

#include <algorithm>

namespace concorde {

IssueModel::Counts IssueModel::count(const AnnotatedRegion& region, std::uint32_t windowSize) {
    Counts counts;
    const std::size_t windows = WindowBounds::windowCount(region.size(), windowSize);
    counts.instructions.assign(windows, 0);
    for (auto& group : counts.perGroup)
        group.assign(windows, 0.0f);
    counts.loads.assign(windows, 0.0f);
    counts.stores.assign(windows, 0.0f);
    for (std::size_t i = 0; i < region.size(); ++i) {
        const AnnotatedInstruction& inst = region[i];
        const std::size_t k = i / windowSize;
        ++counts.instructions[k];
        const bool memory = inst.isLoad() || inst.isStore();
        counts.perGroup[static_cast<std::size_t>(issueGroupOf(inst.instrClass, memory))][k] += 1;
        if (inst.isStore())
            counts.stores[k] += 1;
        else if (inst.isLoad())
            counts.loads[k] += 1;
    }
    return counts;
}

WindowSeries IssueModel::width(const Counts& counts, IssueGroup group, int width) {
    return WindowBounds::fromDemand(counts.perGroup[static_cast<std::size_t>(group)],
                                    counts.instructions, width);
}

IssueModel::PipeBounds IssueModel::pipes(const Counts& counts, int lsPipes, int loadPipes) {
    const std::size_t windows = counts.instructions.size();
    std::vector<float> worst(windows), best(windows);
    const double all = lsPipes + loadPipes;
    for (std::size_t k = 0; k < windows; ++k) {
        const double loads = counts.loads[k];
        const double stores = counts.stores[k];
        worst[k] = static_cast<float>(loads / all + stores / lsPipes);
        best[k] = static_cast<float>(std::max(stores / lsPipes, (loads + stores) / all));
    }
    // The demand is expressed in cycles already: capacity 1 per cycle.
    return {WindowBounds::fromDemand(worst, counts.instructions, 1.0),
            WindowBounds::fromDemand(best, counts.instructions, 1.0)};
}

} // namespace concorde
