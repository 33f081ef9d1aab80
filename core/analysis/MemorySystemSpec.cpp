#include "analysis/MemorySystemSpec.h"

#include "common/ConcordeError.h"

#include <bit>
#include <string>

namespace concorde {

std::uint32_t MemorySystemSpec::lineShift() const {
    return static_cast<std::uint32_t>(std::countr_zero(lineBytes));
}

void MemorySystemSpec::validate() const {
    auto check = [](bool ok, const std::string& what) {
        if (!ok)
            throw badInput("memory system: " + what);
    };
    check(std::has_single_bit(lineBytes) && lineBytes >= 8, "line size must be a power of two");
    for (std::uint32_t ways : {l1dWays, l1iWays, l2Ways, llcWays})
        check(std::has_single_bit(ways) && ways <= 64,
              "associativity must be a power of two of at most 64");
    check(llcKb > 0, "LLC size must be positive");
    check(latencies[0] > 0, "L1 latency must be positive");
    for (std::size_t i = 1; i < latencies.size(); ++i)
        check(latencies[i] >= latencies[i - 1], "latencies must not decrease with distance");
    check(dramBytesPerCycle > 0, "DRAM bandwidth must be positive");
    check(l2BytesPerCycle > 0, "L2 bandwidth must be positive");
    check(std::has_single_bit(prefetchTableEntries), "prefetch table size must be a power of two");
    check(l1dMshrs > 0, "there must be at least one L1d MSHR");
}

} // namespace concorde
