#include "bounds/FrontEndModel.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <queue>

namespace concorde {
namespace {

double lineLatency(const AnnotatedRegion& region, const AnnotatedInstruction& inst,
                   std::uint32_t hitCycles) {
    return inst.fetchLevel == MemLevel::L1 ? hitCycles : region.spec.latency(inst.fetchLevel);
}

} // namespace

WindowSeries FrontEndModel::fetchWidth(const AnnotatedRegion& region, std::uint32_t width,
                                       std::uint32_t windowSize) {
    const std::size_t n = region.size();
    const double w = std::max<std::uint32_t>(width, 1);
    std::vector<double> done(n, 0);
    double cycles = 0;
    std::size_t groupStart = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const bool ends = region[i].taken() || i + 1 == n;
        if (ends) {
            const double size = double(i + 1 - groupStart);
            const double groupCycles = std::ceil(size / w);
            // Instructions of the group are delivered over its cycles, W per cycle.
            for (std::size_t j = groupStart; j <= i; ++j)
                done[j] = cycles + std::ceil(double(j - groupStart + 1) / w);
            cycles += groupCycles;
            groupStart = i + 1;
        }
    }
    return WindowBounds::fromCompletionTimes(done, windowSize);
}

WindowSeries FrontEndModel::icacheFills(const AnnotatedRegion& region, std::uint32_t fills,
                                        std::uint32_t windowSize, std::uint32_t hitCycles) {
    const std::size_t n = region.size();
    std::vector<double> done(n, 0);
    std::priority_queue<double, std::vector<double>, std::greater<>> busyUntil;
    double request = 0;   // time of the latest line request (requests are in order)
    double delivered = 0; // delivery is in order
    double lineReady = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const AnnotatedInstruction& inst = region[i];
        if (i == 0 || inst.newFetchLine()) {
            const bool miss = inst.fetchLevel != MemLevel::L1;
            if (miss) {
                while (busyUntil.size() >= std::max<std::uint32_t>(fills, 1)) {
                    request = std::max(request, busyUntil.top());
                    busyUntil.pop();
                }
            }
            lineReady = request + lineLatency(region, inst, hitCycles);
            if (miss)
                busyUntil.push(lineReady);
        }
        delivered = std::max(delivered, lineReady);
        done[i] = delivered;
    }
    return WindowBounds::fromCompletionTimes(done, windowSize);
}

WindowSeries FrontEndModel::fetchBuffers(const AnnotatedRegion& region, std::uint32_t buffers,
                                         std::uint32_t windowSize, std::uint32_t hitCycles) {
    const std::size_t n = region.size();
    std::vector<double> done(n, 0);
    std::deque<double> arrivals; // arrival times of the last B lines
    double request = 0;
    double delivered = 0;
    double lineReady = 0;
    const std::size_t b = std::max<std::uint32_t>(buffers, 1);
    for (std::size_t i = 0; i < n; ++i) {
        const AnnotatedInstruction& inst = region[i];
        if (i == 0 || inst.newFetchLine()) {
            if (arrivals.size() >= b) {
                request = std::max(request, arrivals.front());
                arrivals.pop_front();
            }
            lineReady = request + lineLatency(region, inst, hitCycles);
            arrivals.push_back(lineReady);
        }
        delivered = std::max(delivered, lineReady);
        done[i] = delivered;
    }
    return WindowBounds::fromCompletionTimes(done, windowSize);
}

} // namespace concorde
