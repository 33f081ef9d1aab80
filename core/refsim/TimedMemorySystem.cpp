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

MemLevel TimedMemorySystem::lookupBelowL1(std::uint64_t line, std::uint64_t cycle, bool timed) {
    SetAssociativeCache::Eviction evicted;
    if (l2_.access(line, false, evicted))
        return MemLevel::L2;
    evictedFromL2(evicted, cycle, timed);
    if (llc_.access(line, false, evicted))
        return MemLevel::Llc;
    evictedFromLlc(evicted, cycle, timed);
    return MemLevel::Dram;
}

void TimedMemorySystem::evictedFromL1(const SetAssociativeCache::Eviction& evicted,
                                      std::uint64_t cycle, bool timed) {
    if (!evicted.valid || !evicted.dirty)
        return;
    if (timed) {
        ++counters_.l1Writebacks;
        occupy(l2ChannelFree_, cycle, spec_.l2CyclesPerLine());
    }
    SetAssociativeCache::Eviction next;
    l2_.fill(evicted.line, true, next);
    evictedFromL2(next, cycle, timed);
}

void TimedMemorySystem::evictedFromL2(const SetAssociativeCache::Eviction& evicted,
                                      std::uint64_t cycle, bool timed) {
    if (!evicted.valid || !evicted.dirty)
        return;
    SetAssociativeCache::Eviction next;
    llc_.fill(evicted.line, true, next);
    evictedFromLlc(next, cycle, timed);
}

void TimedMemorySystem::evictedFromLlc(const SetAssociativeCache::Eviction& evicted,
                                       std::uint64_t cycle, bool timed) {
    if (!evicted.valid || !evicted.dirty || !timed)
        return;
    ++counters_.dramWritebacks;
    occupy(dramChannelFree_, cycle, spec_.dramCyclesPerLine());
}

double TimedMemorySystem::occupy(double& channelFree, std::uint64_t cycle, double length) {
    const double start = std::max(static_cast<double>(cycle), channelFree);
    channelFree = start + length;
    return start;
}

std::uint64_t TimedMemorySystem::arrival(MemLevel level, std::uint64_t cycle) {
    if (level == MemLevel::L1)
        return cycle + spec_.latency(level);
    // Every fill from below crosses the L1d–L2 channel; a DRAM read also waits for the DRAM
    // channel. Under low load the latency is exactly the load-to-use latency of `level`.
    double start = occupy(l2ChannelFree_, cycle, spec_.l2CyclesPerLine());
    if (level == MemLevel::Dram) {
        ++counters_.dramReads;
        start = std::max(start, occupy(dramChannelFree_, cycle, spec_.dramCyclesPerLine()));
    }
    return static_cast<std::uint64_t>(std::ceil(start)) + spec_.latency(level);
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

std::uint32_t TimedMemorySystem::mshrsNeeded(std::uint64_t first, std::uint64_t last,
                                             std::uint64_t cycle) const {
    std::uint32_t needed = 0;
    for (std::uint64_t line = first; line <= last; ++line) {
        const auto it = inFlight_.find(line);
        const bool pending = it != inFlight_.end() && it->second.arrival > cycle;
        if (!pending && !l1d_.probe(line))
            ++needed;
    }
    return needed;
}

TimedMemorySystem::LoadResult TimedMemorySystem::load(std::uint64_t pc, std::uint64_t address,
                                                      std::uint32_t size, std::uint64_t cycle) {
    releaseMshrs(cycle);
    lastCycle_ = std::max(lastCycle_, cycle);
    const std::uint64_t first = address >> lineShift_;
    const std::uint64_t last = (address + std::max<std::uint32_t>(size, 1) - 1) >> lineShift_;

    // Check every line before changing any state, so that a refused load leaves no trace.
    if (mshrBusyUntil_.size() + mshrsNeeded(first, last, cycle) > mshrs_)
        return {};

    LoadResult result{true, cycle + spec_.latency(MemLevel::L1), MemLevel::L1};
    SetAssociativeCache::Eviction evicted;
    for (std::uint64_t line = first; line <= last; ++line) {
        std::uint64_t ready = cycle + spec_.latency(MemLevel::L1);
        MemLevel level = MemLevel::L1;
        const auto it = inFlight_.find(line);
        if (it != inFlight_.end() && it->second.arrival > cycle) {
            // Merge with the fill in flight: the data comes when it arrives.
            ready = std::max(ready, it->second.arrival);
            level = it->second.level;
            if (!l1d_.access(line, false, evicted))
                evictedFromL1(evicted, cycle, true);
        } else {
            if (it != inFlight_.end())
                inFlight_.erase(it);
            if (!l1d_.access(line, false, evicted)) {
                evictedFromL1(evicted, cycle, true);
                level = lookupBelowL1(line, cycle, true);
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
    trimInFlight(cycle);
    return result;
}

TimedMemorySystem::WriteResult TimedMemorySystem::write(std::uint64_t address, std::uint32_t size,
                                                        std::uint64_t cycle) {
    releaseMshrs(cycle);
    lastCycle_ = std::max(lastCycle_, cycle);
    const std::uint64_t first = address >> lineShift_;
    const std::uint64_t last = (address + std::max<std::uint32_t>(size, 1) - 1) >> lineShift_;
    if (mshrBusyUntil_.size() + mshrsNeeded(first, last, cycle) > mshrs_)
        return {};

    WriteResult result{true, cycle};
    SetAssociativeCache::Eviction evicted;
    for (std::uint64_t line = first; line <= last; ++line) {
        const auto it = inFlight_.find(line);
        if (it != inFlight_.end() && it->second.arrival > cycle) {
            // The line is on its way (a load miss or a prefetch): written when it arrives.
            result.writtenCycle = std::max(result.writtenCycle, it->second.arrival);
            if (!l1d_.access(line, true, evicted))
                evictedFromL1(evicted, cycle, true);
            continue;
        }
        if (it != inFlight_.end())
            inFlight_.erase(it);
        if (l1d_.access(line, true, evicted))
            continue;
        // Write-allocate: read the line for ownership; the store completes when it arrives.
        evictedFromL1(evicted, cycle, true);
        ++counters_.storeMisses;
        const MemLevel level = lookupBelowL1(line, cycle, true);
        const std::uint64_t ready = arrival(level, cycle);
        inFlight_[line] = {ready, level};
        mshrBusyUntil_.push(ready);
        result.writtenCycle = std::max(result.writtenCycle, ready);
    }
    trimInFlight(cycle);
    return result;
}

void TimedMemorySystem::prefetch(std::uint64_t pc, std::uint64_t line, std::uint64_t cycle) {
    std::array<std::uint64_t, StridePrefetcher::kMaxDegree> targets{};
    const int count = prefetcher_.train(pc, line, targets);
    SetAssociativeCache::Eviction evicted;
    for (int k = 0; k < count; ++k) {
        const std::uint64_t target = targets[k];
        if (l1d_.probe(target) || inFlight_.count(target))
            continue;
        // A prefetch is a fill like any other: without a free MSHR it is dropped.
        if (mshrBusyUntil_.size() >= mshrs_) {
            ++counters_.prefetchesDropped;
            continue;
        }
        const MemLevel level = lookupBelowL1(target, cycle, true);
        l1d_.fill(target, false, evicted);
        evictedFromL1(evicted, cycle, true);
        const std::uint64_t ready = arrival(level, cycle);
        inFlight_[target] = {ready, level};
        mshrBusyUntil_.push(ready);
        ++counters_.prefetchesIssued;
    }
}

void TimedMemorySystem::trimInFlight(std::uint64_t cycle) {
    if (inFlight_.size() > 4096) {
        for (auto it = inFlight_.begin(); it != inFlight_.end();)
            it = it->second.arrival <= cycle ? inFlight_.erase(it) : std::next(it);
    }
}

MemLevel TimedMemorySystem::fetchLine(std::uint64_t line) {
    if (l1i_.access(line))
        return MemLevel::L1;
    return lookupBelowL1(line, lastCycle_, true);
}

void TimedMemorySystem::warm(const WarmState& state) {
    SetAssociativeCache::Eviction evicted;
    for (const WarmState::Line& line : state.lines) {
        if (line.instruction) {
            if (!l1i_.access(line.line))
                lookupBelowL1(line.line, 0, false);
        } else if (!l1d_.access(line.line, false, evicted)) {
            evictedFromL1(evicted, 0, false);
            lookupBelowL1(line.line, 0, false);
        }
    }
    for (const WarmState::Load& load : state.recentLoads)
        warmData(load.pc, load.address, 1, false);
}

void TimedMemorySystem::warmData(std::uint64_t pc, std::uint64_t address, std::uint32_t size,
                                 bool isStore) {
    const std::uint64_t first = address >> lineShift_;
    const std::uint64_t last = (address + std::max<std::uint32_t>(size, 1) - 1) >> lineShift_;
    SetAssociativeCache::Eviction evicted;
    for (std::uint64_t line = first; line <= last; ++line)
        if (!l1d_.access(line, isStore, evicted)) {
            evictedFromL1(evicted, 0, false);
            lookupBelowL1(line, 0, false);
        }
    if (isStore)
        return;
    std::array<std::uint64_t, StridePrefetcher::kMaxDegree> targets{};
    const int count = prefetcher_.train(pc, first, targets);
    for (int k = 0; k < count; ++k)
        if (!l1d_.probe(targets[k])) {
            lookupBelowL1(targets[k], 0, false);
            l1d_.fill(targets[k], false, evicted);
            evictedFromL1(evicted, 0, false);
        }
}

} // namespace concorde
