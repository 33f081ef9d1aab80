#include "bounds/FrontEndModel.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <queue>

namespace concorde {
namespace {

double lineLatency(const AnnotatedRegion& region, std::uint32_t instruction,
                   std::uint32_t hitCycles) {
    const MemLevel level = region[instruction].fetchLevel;
    return level == MemLevel::L1 ? hitCycles : region.spec.latency(level);
}

// Lines arrive at `ready[k]`; instructions are delivered in order, so a line's instructions are
// done when it and every earlier line have arrived. The events are the line starts: the
// instructions of line k complete at max(ready[0..k]).
WindowSeries deliveredWindows(const RegionIndex& index, std::vector<double>& ready,
                              std::uint32_t windowSize) {
    double latest = 0;
    for (double& r : ready)
        r = latest = std::max(latest, r);
    // A window whose last instruction sits inside line k completes when line k has arrived:
    // fromEvents takes the latest line start at or before the window's end.
    return WindowBounds::fromEvents(index.lineStarts, ready, index.region.size(), windowSize);
}

// Earliest request of line k: when the line before it ends at a taken branch that missed the
// BTB, fetch cannot run ahead past it; its target is requested once the branch has been
// delivered (with every earlier line, at `delivered`) and decoded: bubble + 1 − hit cycles later,
// so that it arrives `bubble` cycles after a BTB hit's target would have.
double afterRedirect(const RegionIndex& index, std::size_t k, double delivered,
                     std::uint32_t hitCycles, std::uint32_t btbMissBubble) {
    if (k == 0 || !index.region[index.lineStarts[k] - 1].btbMiss())
        return 0;
    return delivered + double(btbMissBubble) + 1.0 - double(hitCycles);
}

} // namespace

WindowSeries FrontEndModel::fetchWidth(const RegionIndex& index, std::uint32_t width,
                                       std::uint32_t windowSize, std::uint32_t btbMissBubble) {
    const std::size_t n = index.region.size();
    const double w = std::max<std::uint32_t>(width, 1);
    // Fetch groups end at taken branches; instruction j of a group is delivered in cycle
    // ceil((j + 1) / W) of the group. Evaluate at window ends only.
    WindowSeries series;
    series.reserve(WindowBounds::windowCount(n, windowSize));
    double cycles = 0; // cycles of completed groups
    std::size_t groupStart = 0;
    std::size_t g = 0; // next taken branch
    double previous = 0;
    for (std::size_t start = 0; start < n; start += windowSize) {
        const std::size_t last = std::min(n, start + std::size_t(windowSize)) - 1;
        while (g < index.takenEnds.size() && index.takenEnds[g] < last) {
            cycles += std::ceil(double(index.takenEnds[g] + 1 - groupStart) / w);
            if (index.region[index.takenEnds[g]].btbMiss())
                cycles += btbMissBubble;
            groupStart = index.takenEnds[g] + 1;
            ++g;
        }
        const double done = cycles + std::ceil(double(last + 1 - groupStart) / w);
        const double count = double(last + 1 - start);
        const double duration = done - previous;
        series.push_back(duration > count / WindowBounds::kMaxIpc
                             ? static_cast<float>(count / duration)
                             : WindowBounds::kMaxIpc);
        previous = done;
    }
    return series;
}

WindowSeries FrontEndModel::icacheFills(const RegionIndex& index, std::uint32_t fills,
                                        std::uint32_t windowSize, std::uint32_t hitCycles,
                                        std::uint32_t btbMissBubble) {
    const AnnotatedRegion& region = index.region;
    std::vector<double> ready(index.lineStarts.size());
    std::priority_queue<double, std::vector<double>, std::greater<>> busyUntil;
    double request = 0; // requests are in order
    double delivered = 0;
    const std::size_t slots = std::max<std::uint32_t>(fills, 1);
    for (std::size_t k = 0; k < ready.size(); ++k) {
        const std::uint32_t i = index.lineStarts[k];
        request = std::max(request, afterRedirect(index, k, delivered, hitCycles, btbMissBubble));
        const bool miss = region[i].fetchLevel != MemLevel::L1;
        if (miss) {
            while (busyUntil.size() >= slots) {
                request = std::max(request, busyUntil.top());
                busyUntil.pop();
            }
        }
        ready[k] = request + lineLatency(region, i, hitCycles);
        delivered = std::max(delivered, ready[k]);
        if (miss)
            busyUntil.push(ready[k]);
    }
    return deliveredWindows(index, ready, windowSize);
}

WindowSeries FrontEndModel::fetchBuffers(const RegionIndex& index, std::uint32_t buffers,
                                         std::uint32_t windowSize, std::uint32_t hitCycles,
                                         std::uint32_t btbMissBubble) {
    const AnnotatedRegion& region = index.region;
    std::vector<double> ready(index.lineStarts.size());
    double request = 0;
    double delivered = 0;
    const std::size_t b = std::max<std::uint32_t>(buffers, 1);
    for (std::size_t k = 0; k < ready.size(); ++k) {
        if (k >= b)
            request = std::max(request, ready[k - b]); // line k−B frees its entry on arrival
        request = std::max(request, afterRedirect(index, k, delivered, hitCycles, btbMissBubble));
        ready[k] = request + lineLatency(region, index.lineStarts[k], hitCycles);
        delivered = std::max(delivered, ready[k]);
    }
    return deliveredWindows(index, ready, windowSize);
}

} // namespace concorde
