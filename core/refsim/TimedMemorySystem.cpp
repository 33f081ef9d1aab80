#include "refsim/TimedMemorySystem.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace concorde {

TimedMemorySystem::TimedMemorySystem(const MemoryConfig& config, const MemorySystemSpec& spec,
                                     std::uint32_t mshrs)
    : spec_(spec), lineShift_(spec.lineShift()), mshrs_(mshrs),
      l1i_(std::uint64_t(config.l1iKb) * 1024, spec.l1iWays, spec.lineBytes),
      l1d_(std::uint64_t(config.l1dKb) * 1024, spec.l1dWays, spec.lineBytes),
      l2_(std::uint64_t(config.l2Kb) * 1024, spec.l2Ways, spec.lineBytes),
      llc_(std::uint64_t(spec.llcKb) * 1024, spec.llcWays, spec.lineBytes),
      prefetcher_(config.prefetchDegree, spec.prefetchTableEntries) {}

MemLevel TimedMemorySystem::lookupBelowL1(std::uint64_t line) {
    if (l2_.access(line))
        return MemLevel::L2;
    if (llc_.access(line))
        return MemLevel::Llc;
    return MemLevel::Dram;
}

std::uint64_t TimedMemorySystem::arrival(MemLevel level, std::uint64_t cycle) {
    if (level != MemLevel::Dram)
        return cycle + spec_.latency(level);
    // In-order DRAM channel: a request starts its transfer when the channel is free; under low
    // load the latency is exactly the DRAM load-to-use latency.
    const double start = std::max(static_cast<double>(cycle), dramChannelFree_);
    dramChannelFree_ = start + spec_.dramCyclesPerLine();
    return static_cast<std::uint64_t>(std::ceil(start)) + spec_.latency(MemLevel::Dram);
}

void TimedMemorySystem::releaseMshrs(std::uint64_t cycle) {
    while (!mshrBusyUntil_.empty() && mshrBusyUntil_.top() <= cycle)
        mshrBusyUntil_.pop();
}

std::optional<std::uint64_t> TimedMemorySystem::nextMshrRelease(std::uint64_t cycle) {
    releaseMshrs(cycle);
    if (mshrBusyUntil_.size() < mshrs_ || mshrBusyUntil_.empty())
        return std::nullopt;
    return mshrBusyUntil_.top();
}

TimedMemorySystem::LoadResult TimedMemorySystem::load(std::uint64_t pc, std::uint64_t address,
                                                      std::uint32_t size, std::uint64_t cycle) {
    releaseMshrs(cycle);
    const std::uint64_t first = address >> lineShift_;
    const std::uint64_t last = (address + std::max<std::uint32_t>(size, 1) - 1) >> lineShift_;

    // Check every line before changing any state, so that a refused load leaves no trace.
    std::uint32_t mshrsNeeded = 0;
    for (std::uint64_t line = first; line <= last; ++line) {
        const auto it = inFlight_.find(line);
        const bool pending = it != inFlight_.end() && it->second.arrival > cycle;
        if (!pending && !l1d_.probe(line))
            ++mshrsNeeded;
    }
    if (mshrBusyUntil_.size() + mshrsNeeded > mshrs_)
        return {};

    LoadResult result{true, cycle + spec_.latency(MemLevel::L1), MemLevel::L1};
    for (std::uint64_t line = first; line <= last; ++line) {
        std::uint64_t ready = cycle + spec_.latency(MemLevel::L1);
        MemLevel level = MemLevel::L1;
        const auto it = inFlight_.find(line);
        if (it != inFlight_.end() && it->second.arrival > cycle) {
            // Merge with the fill in flight: the data comes when it arrives.
            ready = std::max(ready, it->second.arrival);
            level = it->second.level;
            l1d_.access(line);
        } else {
            if (it != inFlight_.end())
                inFlight_.erase(it);
            if (!l1d_.access(line)) {
                level = lookupBelowL1(line);
                ready = arrival(level, cycle);
                inFlight_[line] = {ready, level};
                mshrBusyUntil_.push(ready);
            }
        }
        if (ready > result.readyCycle)
            result.readyCycle = ready;
        result.level = std::max(result.level, level);
    }
    prefetch(pc, first, cycle);
    return result;
}

void TimedMemorySystem::prefetch(std::uint64_t pc, std::uint64_t line, std::uint64_t cycle) {
    std::array<std::uint64_t, StridePrefetcher::kMaxDegree> targets{};
    const int count = prefetcher_.train(pc, line, targets);
    for (int k = 0; k < count; ++k) {
        const std::uint64_t target = targets[k];
        if (l1d_.probe(target) || inFlight_.count(target))
            continue;
        const MemLevel level = lookupBelowL1(target);
        l1d_.fill(target);
        inFlight_[target] = {arrival(level, cycle), level};
        ++prefetchesIssued_;
    }
    // Keep the in-flight map small: drop fills that have arrived.
    if (inFlight_.size() > 4096) {
        for (auto it = inFlight_.begin(); it != inFlight_.end();)
            it = it->second.arrival <= cycle ? inFlight_.erase(it) : std::next(it);
    }
}

void TimedMemorySystem::store(std::uint64_t address, std::uint32_t size) {
    const std::uint64_t first = address >> lineShift_;
    const std::uint64_t last = (address + std::max<std::uint32_t>(size, 1) - 1) >> lineShift_;
    for (std::uint64_t line = first; line <= last; ++line)
        if (!l1d_.access(line))
            lookupBelowL1(line);
}

MemLevel TimedMemorySystem::fetchLine(std::uint64_t line) {
    if (l1i_.access(line))
        return MemLevel::L1;
    return lookupBelowL1(line);
}

void TimedMemorySystem::warm(const WarmState& state) {
    for (const WarmState::Line& line : state.lines) {
        if (line.instruction)
            fetchLine(line.line);
        else if (!l1d_.access(line.line))
            lookupBelowL1(line.line);
    }
    for (const WarmState::Load& load : state.recentLoads)
        warmData(load.pc, load.address, 1, false);
}

void TimedMemorySystem::warmData(std::uint64_t pc, std::uint64_t address, std::uint32_t size,
                                 bool isStore) {
    if (isStore) {
        store(address, size);
        return;
    }
    const std::uint64_t first = address >> lineShift_;
    const std::uint64_t last = (address + std::max<std::uint32_t>(size, 1) - 1) >> lineShift_;
    for (std::uint64_t line = first; line <= last; ++line)
        if (!l1d_.access(line))
            lookupBelowL1(line);
    std::array<std::uint64_t, StridePrefetcher::kMaxDegree> targets{};
    const int count = prefetcher_.train(pc, first, targets);
    for (int k = 0; k < count; ++k)
        if (!l1d_.probe(targets[k])) {
            lookupBelowL1(targets[k]);
            l1d_.fill(targets[k]);
        }
}

} // namespace concorde
