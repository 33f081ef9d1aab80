#include "analysis/MemoryOrderingModel.h"

#include "analysis/AnnotatedRegion.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace concorde {

MemoryOrderingModel::MemoryOrderingModel(const MemorySystemSpec& spec, std::uint32_t lineCount,
                                         std::uint32_t episodeCount)
    : lastResponse_(lineCount), episodeStarted_(episodeCount) {
    for (std::size_t level = 0; level < kMemLevelCount; ++level)
        latency_[level] = spec.latencies[level];
    reset();
}

MemoryOrderingModel::MemoryOrderingModel(const AnnotatedRegion& region)
    : MemoryOrderingModel(region.spec, region.lineCount, region.episodeCount) {
    region_ = &region;
    mshrs_ = region.loadMshrs;
}

double MemoryOrderingModel::takeMshr(double issueTime, MemLevel level) {
    while (!mshrsBusy_.empty() && mshrsBusy_.top() <= issueTime)
        mshrsBusy_.pop();
    double start = issueTime;
    if (mshrsBusy_.size() >= mshrs_) {
        start = mshrsBusy_.top();
        mshrsBusy_.pop();
    }
    mshrsBusy_.push(start + latency_[levelIndex(level)]);
    return start;
}

void MemoryOrderingModel::issuePrefetches(std::uint32_t trigger, double issueTime) {
    if (region_ == nullptr)
        return;
    for (const AnnotatedRegion::Prefetch& p : region_->prefetchesOf(trigger))
        respond(p.lineId, p.episodeId, p.level, issueTime);
}

void MemoryOrderingModel::reset() {
    std::fill(lastResponse_.begin(), lastResponse_.end(), -std::numeric_limits<double>::infinity());
    std::fill(episodeStarted_.begin(), episodeStarted_.end(), 0);
    mshrsBusy_ = {};
}

std::vector<double> MemoryOrderingModel::respondAll(const MemorySystemSpec& spec,
                                                    std::span<const Load> loads) {
    std::uint32_t lines = 0;
    std::uint32_t episodes = 0;
    for (const Load& load : loads) {
        lines = std::max(lines, load.lineId + 1);
        episodes = std::max(episodes, load.episodeId + 1);
    }
    std::vector<std::size_t> order(loads.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return loads[a].issueTime < loads[b].issueTime;
    });
    MemoryOrderingModel model(spec, lines, episodes);
    std::vector<double> responses(loads.size());
    for (std::size_t i : order)
        responses[i] = model.respond(loads[i].lineId, loads[i].episodeId, loads[i].episodeLevel,
                                     loads[i].issueTime);
    return responses;
}

} // namespace concorde
