#include "analysis/CacheHierarchy.h"

#include <algorithm>

namespace concorde {

namespace {
const MemorySystemSpec& validated(const MemorySystemSpec& spec) {
    spec.validate();
    return spec;
}
constexpr std::uint64_t kb(int n) {
    return static_cast<std::uint64_t>(n) * 1024;
}
} // namespace

CacheHierarchy::CacheHierarchy(const MemoryConfig& config, const MemorySystemSpec& spec)
    : config_(config), spec_(validated(spec)), lineShift_(spec.lineShift()),
      l1i_(kb(config.l1iKb), spec.l1iWays, spec.lineBytes),
      l1d_(kb(config.l1dKb), spec.l1dWays, spec.lineBytes),
      l2_(kb(config.l2Kb), spec.l2Ways, spec.lineBytes),
      llc_(kb(static_cast<int>(spec.llcKb)), spec.llcWays, spec.lineBytes),
      prefetcher_(config.prefetchDegree, spec.prefetchTableEntries) {}

MemLevel CacheHierarchy::accessLine(SetAssociativeCache& first, std::uint64_t line) {
    // access() fills on a miss, so walking down fills every level that missed.
    if (first.access(line))
        return MemLevel::L1;
    if (l2_.access(line))
        return MemLevel::L2;
    if (llc_.access(line))
        return MemLevel::Llc;
    return MemLevel::Dram;
}

MemLevel CacheHierarchy::accessData(std::uint64_t pc, std::uint64_t address, bool isStore,
                                    std::uint32_t size) {
    const std::uint64_t line = address >> lineShift_;
    const std::uint64_t lastLine = (address + std::max<std::uint32_t>(size, 1) - 1) >> lineShift_;
    lastPrefetchCount_ = 0;
    MemLevel level = accessLine(l1d_, line);
    for (std::uint64_t next = line + 1; next <= lastLine; ++next)
        level = std::max(level, accessLine(l1d_, next));
    if (!isStore && config_.prefetchDegree > 0) {
        std::array<std::uint64_t, StridePrefetcher::kMaxDegree> targets;
        const int count = prefetcher_.train(pc, line, targets);
        for (int k = 0; k < count; ++k)
            prefetch(targets[k]);
    }
    return level;
}

MemLevel CacheHierarchy::accessInstruction(std::uint64_t address) {
    return accessLine(l1i_, address >> lineShift_);
}

void CacheHierarchy::prefetch(std::uint64_t line) {
    if (l1d_.probe(line))
        return;
    ++prefetchesIssued_;
    l1d_.fill(line);
    MemLevel level = MemLevel::L2;
    if (!l2_.fill(line))
        level = llc_.fill(line) ? MemLevel::Llc : MemLevel::Dram;
    lastPrefetches_[lastPrefetchCount_++] = {line, level};
}

void CacheHierarchy::resetStats() {
    l1i_.resetStats();
    l1d_.resetStats();
    l2_.resetStats();
    llc_.resetStats();
    prefetchesIssued_ = 0;
}

} // namespace concorde
