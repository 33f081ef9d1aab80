#include "bounds/RobModel.h"

#include "analysis/MemoryOrderingModel.h"

#include <algorithm>
#include <queue>

namespace concorde {
namespace {

WindowSeries windowMeans(const std::vector<double>& values, std::uint32_t windowSize) {
    WindowSeries means;
    for (std::size_t start = 0; start < values.size(); start += windowSize) {
        const std::size_t end = std::min(values.size(), start + windowSize);
        double sum = 0;
        for (std::size_t i = start; i < end; ++i)
            sum += values[i];
        means.push_back(static_cast<float>(sum / double(end - start)));
    }
    return means;
}

} // namespace

RobModel::Result RobModel::run(const AnnotatedRegion& region, std::uint32_t robSize,
                               std::uint32_t windowSize) {
    const std::size_t n = region.size();
    Result result;
    if (n == 0)
        return result;
    const std::size_t rob = std::max<std::uint32_t>(robSize, 1);
    std::vector<double> arrival(n, 0), start(n, 0), finish(n, -1), commit(n, 0);
    std::vector<std::uint8_t> pending(n, 0);
    // Consumers of each instruction, CSR, to release them when a producer finishes.
    std::vector<std::uint32_t> first(n + 1, 0);
    for (std::size_t i = 0; i < n; ++i)
        for (std::int32_t p : region[i].producers)
            ++first[static_cast<std::size_t>(p) + 1];
    for (std::size_t i = 0; i < n; ++i)
        first[i + 1] += first[i];
    std::vector<std::uint32_t> consumers(first[n]);
    {
        std::vector<std::uint32_t> fill(first.begin(), first.end() - 1);
        for (std::size_t i = 0; i < n; ++i)
            for (std::int32_t p : region[i].producers)
                consumers[fill[static_cast<std::size_t>(p)]++] = static_cast<std::uint32_t>(i);
    }
    for (std::size_t i = 0; i < n; ++i)
        pending[i] = static_cast<std::uint8_t>(region[i].producers.size() + (i >= rob ? 1 : 0));

    using Event = std::pair<double, std::uint32_t>; // (start time, instruction)
    std::priority_queue<Event, std::vector<Event>, std::greater<>> ready;
    for (std::size_t i = 0; i < std::min(n, rob); ++i)
        if (pending[i] == 0)
            ready.push({0.0, static_cast<std::uint32_t>(i)});

    MemoryOrderingModel memory(region);
    std::size_t committed = 0; // instructions [0, committed) have commit times
    double lastCommit = 0;
    const auto release = [&](std::size_t j, double time) {
        start[j] = std::max(start[j], time);
        if (--pending[j] == 0)
            ready.push({start[j], static_cast<std::uint32_t>(j)});
    };
    while (!ready.empty()) {
        const auto [s, i] = ready.top();
        ready.pop();
        const AnnotatedInstruction& inst = region[i];
        const double f =
            inst.isLoad() ? memory.respond(inst, s) + inst.classLatency : s + inst.latency;
        finish[i] = f;
        for (std::uint32_t c = first[i]; c < first[i + 1]; ++c)
            release(consumers[c], f);
        // Commit in order as far as finished instructions allow; each commit lets the
        // instruction R places younger arrive.
        while (committed < n && finish[committed] >= 0) {
            lastCommit = std::max(lastCommit, finish[committed]);
            commit[committed] = lastCommit;
            if (committed + rob < n) {
                arrival[committed + rob] = lastCommit;
                release(committed + rob, lastCommit);
            }
            ++committed;
        }
    }

    result.ipc = WindowBounds::fromCompletionTimes(commit, windowSize);
    std::vector<double> issueWait(n), execution(n), commitWait(n);
    for (std::size_t i = 0; i < n; ++i) {
        issueWait[i] = start[i] - arrival[i];
        execution[i] = finish[i] - start[i];
        commitWait[i] = commit[i] - finish[i];
    }
    result.issueWait = windowMeans(issueWait, windowSize);
    result.execution = windowMeans(execution, windowSize);
    result.commitWait = windowMeans(commitWait, windowSize);
    result.overallIpc = commit.back() > 0 ? double(n) / commit.back() : WindowBounds::kMaxIpc;
    result.commit = std::move(commit);
    return result;
}

} // namespace concorde
