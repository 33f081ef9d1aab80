#include "bounds/WindowBounds.h"

#include <algorithm>

namespace concorde {

WindowSeries WindowBounds::fromCompletionTimes(std::span<const double> done,
                                               std::uint32_t windowSize) {
    WindowSeries series;
    series.reserve(windowCount(done.size(), windowSize));
    double previous = 0;
    for (std::size_t start = 0; start < done.size(); start += windowSize) {
        const std::size_t end = std::min(done.size(), start + windowSize);
        const double duration = done[end - 1] - previous;
        const double count = static_cast<double>(end - start);
        series.push_back(duration > count / kMaxIpc ? static_cast<float>(count / duration)
                                                    : kMaxIpc);
        previous = done[end - 1];
    }
    return series;
}

WindowSeries WindowBounds::fromEvents(std::span<const std::uint32_t> indices,
                                      std::span<const double> times, std::size_t instructions,
                                      std::uint32_t windowSize) {
    WindowSeries series;
    series.reserve(windowCount(instructions, windowSize));
    double previous = 0;
    double latest = 0;
    std::size_t e = 0;
    for (std::size_t start = 0; start < instructions; start += windowSize) {
        const std::size_t end = std::min(instructions, start + std::size_t(windowSize));
        while (e < indices.size() && indices[e] < end)
            latest = times[e++];
        const double duration = latest - previous;
        const double count = static_cast<double>(end - start);
        series.push_back(duration > count / kMaxIpc ? static_cast<float>(count / duration)
                                                    : kMaxIpc);
        previous = latest;
    }
    return series;
}

WindowSeries WindowBounds::fromDemand(std::span<const float> demand,
                                      std::span<const std::uint32_t> count, double capacity) {
    WindowSeries series(demand.size());
    for (std::size_t k = 0; k < demand.size(); ++k) {
        const double cycles = demand[k] / capacity;
        series[k] =
            cycles > count[k] / double(kMaxIpc) ? static_cast<float>(count[k] / cycles) : kMaxIpc;
    }
    return series;
}

} // namespace concorde
