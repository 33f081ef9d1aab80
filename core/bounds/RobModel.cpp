#include "bounds/RobModel.h"

#include "analysis/MemoryOrderingModel.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <utility>

namespace concorde {
namespace {

WindowSeries windowMeans(const std::vector<double>& minuend, const std::vector<double>& subtrahend,
                         std::uint32_t windowSize) {
    WindowSeries means;
    means.reserve(WindowBounds::windowCount(minuend.size(), windowSize));
    for (std::size_t first = 0; first < minuend.size(); first += windowSize) {
        const std::size_t end = std::min(minuend.size(), first + windowSize);
        double sum = 0;
        for (std::size_t i = first; i < end; ++i)
            sum += minuend[i] - subtrahend[i];
        means.push_back(static_cast<float>(sum / double(end - first)));
    }
    return means;
}

} // namespace

RobModel::RobModel(const AnnotatedRegion& region)
    : region_(region), consumers_(region.size(), [&](std::size_t i) -> const ProducerList& {
          return region[i].producers;
      }) {
    const std::size_t n = region.size();
    compact_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const AnnotatedInstruction& inst = region[i];
        compact_[i] = {inst.lineId,
                       inst.episodeId,
                       inst.isLoad() ? inst.classLatency : inst.latency,
                       static_cast<std::uint8_t>(inst.isLoad() ? 1 : 0),
                       static_cast<std::uint8_t>(inst.episodeLevel),
                       static_cast<std::uint8_t>(inst.producers.size()),
                       static_cast<std::uint8_t>(inst.triggersPrefetch() ? 1 : 0)};
        if (inst.isLoad())
            loads_.push_back(static_cast<std::uint32_t>(i));
    }
    arrival_.resize(n);
    start_.resize(n);
    finish_.resize(n);
    commit_.resize(n);
    pending_.resize(n);
}

namespace {

/// The ROB: instruction i arrives when instruction i − R commits.
struct RobGate {
    std::size_t rob, n;
    std::size_t ungated() const { return std::min(n, rob); }
    std::size_t of(std::size_t i) const { return i - rob; }
};

/// The load queue: a precomputed gate per instruction (RobModel::runLoadQueue).
struct TableGate {
    const std::vector<std::uint32_t>& gates;
    std::size_t first;
    std::size_t ungated() const { return first; }
    std::size_t of(std::size_t i) const { return gates[i]; }
};

} // namespace

bool RobModel::sameSystemAs(const RobModel& other) const {
    const AnnotatedRegion& a = region_;
    const AnnotatedRegion& b = other.region_;
    if (compact_ != other.compact_ || a.spec.latencies != b.spec.latencies ||
        a.lineCount != b.lineCount || a.episodeCount != b.episodeCount ||
        a.loadMshrs != b.loadMshrs || a.prefetches != b.prefetches)
        return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const ProducerList &p = a[i].producers, &q = b[i].producers;
        if (p.earlyMask != q.earlyMask || !std::equal(p.begin(), p.end(), q.begin(), q.end()))
            return false;
    }
    return true;
}

RobModel::Result RobModel::run(std::uint32_t robSize, std::uint32_t windowSize) {
    return simulate(RobGate{std::max<std::uint32_t>(robSize, 1), region_.size()}, windowSize);
}

RobModel::Result RobModel::runLoadQueue(std::uint32_t loadQueueSize, std::uint32_t windowSize) {
    const std::size_t n = region_.size();
    const std::size_t q = std::max<std::uint32_t>(loadQueueSize, 1);
    // Instruction i with m loads at or before it waits for load m − Q − 1 (counted from 0) to
    // commit: a load for its own entry, a younger non-load behind it in dispatch order.
    const std::size_t first = loads_.size() > q ? loads_[q] : n;
    loadGate_.assign(n, 0);
    std::size_t seen = q + 1; // loads at or before `i`, for i ≥ first
    for (std::size_t i = first; i < n; ++i) {
        while (seen < loads_.size() && loads_[seen] <= i)
            ++seen;
        loadGate_[i] = loads_[seen - q - 1];
    }
    return simulate(TableGate{loadGate_, first}, windowSize);
}

template <class Gate>
RobModel::Result RobModel::simulate(const Gate& gate, std::uint32_t windowSize) {
    const AnnotatedRegion& region = region_;
    const std::size_t n = region.size();
    Result result;
    if (n == 0)
        return result;
    const std::size_t ungated = gate.ungated();
    std::fill(arrival_.begin(), arrival_.end(), 0.0);
    std::fill(start_.begin(), start_.end(), 0.0);
    std::fill(finish_.begin(), finish_.end(), -1.0);
    for (std::size_t i = 0; i < n; ++i)
        pending_[i] = static_cast<std::uint8_t>(compact_[i].producers + (i >= ungated ? 1 : 0));

    // The ring spans the usual distance between now and a scheduled start: the slowest memory
    // response (an in-flight line may be up to one DRAM latency away) plus the slowest class
    // latency. Starts further ahead (misses queued for the L1d MSHRs) wait in `far` until they
    // come within a lap, so a small ring stays in cache.
    std::uint32_t maxLatency = 1;
    for (auto latency : region.spec.latencies)
        maxLatency = std::max(maxLatency, latency);
    for (const Compact& c : compact_)
        maxLatency = std::max<std::uint32_t>(maxLatency, c.latency);
    std::size_t ringSize = 64;
    while (ringSize <= 2u * maxLatency + 2)
        ringSize *= 2;
    const std::size_t mask = ringSize - 1;
    if (buckets_.size() != ringSize)
        buckets_.assign(ringSize, {});
    for (auto& bucket : buckets_)
        bucket.clear();
    std::size_t scheduled = 0;
    // One bit per bucket, so that long idle stretches (a chain of DRAM misses) are skipped a
    // word at a time instead of cycle by cycle.
    std::vector<std::uint64_t> occupied(ringSize / 64, 0);
    std::size_t now = 0;
    using FarStart = std::pair<double, std::uint32_t>;
    std::priority_queue<FarStart, std::vector<FarStart>, std::greater<>> far;
    const auto push = [&](double s, std::size_t i) {
        if (s >= static_cast<double>(now + ringSize)) {
            far.emplace(s, static_cast<std::uint32_t>(i));
            return;
        }
        const std::size_t slot = static_cast<std::size_t>(s) & mask;
        buckets_[slot].push_back(static_cast<std::uint32_t>(i));
        occupied[slot >> 6] |= std::uint64_t{1} << (slot & 63);
        ++scheduled;
    };
    // The first cycle ≥ `from` whose bucket is occupied (the ring holds at most one lap).
    const auto nextOccupied = [&](std::size_t from) {
        std::size_t t = from;
        for (std::size_t scanned = 0; scanned <= ringSize + 64;) {
            const std::size_t slot = t & mask;
            const std::uint64_t word = occupied[slot >> 6] >> (slot & 63);
            if (word != 0)
                return t + static_cast<std::size_t>(__builtin_ctzll(word));
            const std::size_t advance = 64 - (slot & 63); // to the next word
            t += advance;
            scanned += advance;
        }
        return from; // not reached while anything is scheduled
    };
    for (std::size_t i = 0; i < ungated; ++i)
        if (pending_[i] == 0)
            push(0.0, i);

    MemoryOrderingModel memory(region);
    std::size_t committed = 0;       // instructions [0, committed) have commit times
    std::size_t nextGated = ungated; // the first instruction still waiting for its gate
    double lastCommit = 0;
    const auto release = [&](std::size_t j, double time) __attribute__((always_inline)) {
        if (time > start_[j])
            start_[j] = time;
        if (--pending_[j] == 0)
            push(start_[j], j);
    };
    std::vector<std::uint32_t> current;
    for (; scheduled > 0 || !far.empty(); ++now) {
        if (scheduled == 0)
            now = std::max(now, static_cast<std::size_t>(far.top().first));
        // Every start in `far` is at least a lap ahead of those in the ring, so the ring's
        // earliest is the earliest of all once the ones within a lap are in.
        while (!far.empty() && far.top().first < static_cast<double>(now + ringSize)) {
            const auto [s, i] = far.top();
            far.pop();
            push(s, i);
        }
        now = nextOccupied(now);
        auto& bucket = buckets_[now & mask];
        occupied[(now & mask) >> 6] &= ~(std::uint64_t{1} << (now & 63));
        current.swap(bucket);
        std::sort(current.begin(), current.end());
        scheduled -= current.size();
        for (const std::uint32_t i : current) {
            const double s = static_cast<double>(now);
            const Compact& inst = compact_[i];
            const double f = inst.isLoad
                                 ? memory.respondLoad(i, inst.lineId, inst.episodeId,
                                                      static_cast<MemLevel>(inst.episodeLevel),
                                                      inst.triggersPrefetch != 0, s) +
                                       inst.latency
                                 : s + inst.latency;
            finish_[i] = f;
            // An early edge (the stack pointer of pop/ret/leave) is ready a cycle after issue, as
            // in the reference simulator.
            for (const std::uint32_t edge : consumers_.of(i))
                release(ConsumerLists::consumer(edge), ConsumerLists::isEarly(edge) ? s + 1 : f);
            // Commit in order as far as finished instructions allow; each commit lets the
            // instructions it gates arrive (for the ROB, the one R places younger).
            while (committed < n && finish_[committed] >= 0) {
                lastCommit = std::max(lastCommit, finish_[committed]);
                commit_[committed] = lastCommit;
                for (; nextGated < n && gate.of(nextGated) <= committed; ++nextGated) {
                    arrival_[nextGated] = lastCommit;
                    release(nextGated, lastCommit);
                }
                ++committed;
            }
        }
        current.clear();
    }

    result.ipc = WindowBounds::fromCompletionTimes(commit_, windowSize);
    result.issueWait = windowMeans(start_, arrival_, windowSize);
    result.execution = windowMeans(finish_, start_, windowSize);
    result.commitWait = windowMeans(commit_, finish_, windowSize);
    result.overallIpc = commit_.back() > 0 ? double(n) / commit_.back() : WindowBounds::kMaxIpc;
    result.commit = commit_;
    return result;
}

} // namespace concorde
