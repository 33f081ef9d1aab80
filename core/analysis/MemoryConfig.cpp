#include "analysis/MemoryConfig.h"

#include "params/CoreConfig.h"

namespace concorde {

MemoryConfig MemoryConfig::fromCoreConfig(const CoreConfig& config) {
    return {config.l1dKb(), config.l1iKb(), config.l2Kb(), config.prefetchDegree()};
}

void MemoryConfig::applyTo(CoreConfig& config) const {
    config.set(ParamId::L1dKb, l1dKb);
    config.set(ParamId::L1iKb, l1iKb);
    config.set(ParamId::L2Kb, l2Kb);
    config.set(ParamId::PrefetchDegree, prefetchDegree);
}

std::uint64_t MemoryConfig::packedKey() const {
    auto field = [](int value, unsigned bits) {
        return static_cast<std::uint64_t>(value) & ((std::uint64_t{1} << bits) - 1);
    };
    return field(l1dKb, 16) | field(l1iKb, 16) << 16 | field(l2Kb, 16) << 32 |
           field(prefetchDegree, 8) << 48;
}

std::size_t MemoryConfig::hash() const {
    // splitmix64 finaliser: spreads the packed fields over all bits for hash-table bucketing.
    std::uint64_t x = packedKey() + 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return static_cast<std::size_t>(x ^ (x >> 31));
}

std::string MemoryConfig::toString() const {
    return "l1d_kb=" + std::to_string(l1dKb) + " l1i_kb=" + std::to_string(l1iKb) +
           " l2_kb=" + std::to_string(l2Kb) + " pf_degree=" + std::to_string(prefetchDegree);
}

} // namespace concorde
