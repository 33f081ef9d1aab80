#include "bounds/QueueModel.h"

#include "analysis/MemoryOrderingModel.h"

#include <algorithm>
#include <deque>

namespace concorde {

WindowSeries QueueModel::run(const AnnotatedRegion& region, Kind kind, std::uint32_t queueSize,
                             std::uint32_t windowSize) {
    const std::size_t n = region.size();
    const std::size_t q = std::max<std::uint32_t>(queueSize, 1);
    MemoryOrderingModel memory(region);
    std::vector<double> done(n, 0);
    std::deque<double> commits; // commit times of the last q queue instructions
    double lastCommit = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const AnnotatedInstruction& inst = region[i];
        const bool member = kind == Kind::Load ? inst.isLoad() : inst.isStore();
        if (member) {
            const double s = commits.size() < q ? 0.0 : commits.front();
            double f;
            if (kind == Kind::Load)
                f = memory.respond(inst, s) + inst.classLatency;
            else
                f = s + inst.classLatency;
            lastCommit = std::max(lastCommit, f);
            commits.push_back(lastCommit);
            if (commits.size() > q)
                commits.pop_front();
        }
        done[i] = lastCommit; // free instructions commit with the last queue instruction
    }
    return WindowBounds::fromCompletionTimes(done, windowSize);
}

} // namespace concorde
