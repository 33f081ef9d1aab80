#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace concorde {

class CoreConfig;

/// The memory-side parameters of a CoreConfig: the only parameters the trace analysis depends
/// on. Analyses are cached per MemoryConfig (equality and hash), so that the ~20 parameter
/// combinations of the default grid share one cache simulation per region each.
struct MemoryConfig {
    int l1dKb = 64;         ///< l1d_kb
    int l1iKb = 64;         ///< l1i_kb
    int l2Kb = 1024;        ///< l2_kb
    int prefetchDegree = 0; ///< pf_degree (0 = prefetcher off)

    /// The memory parameters of `config`.
    static MemoryConfig fromCoreConfig(const CoreConfig& config);
    /// Writes these values into `config` (validated by CoreConfig::set).
    void applyTo(CoreConfig& config) const;

    /// A lossless packing of the four values (sizes < 2^16 kB, degree < 2^8): usable as a
    /// database key.
    std::uint64_t packedKey() const;
    std::size_t hash() const;
    /// "l1d_kb=64 l1i_kb=64 l2_kb=1024 pf_degree=0"
    std::string toString() const;

    bool operator==(const MemoryConfig&) const = default;
};

/// Hash functor for unordered containers keyed by MemoryConfig.
struct MemoryConfigHash {
    std::size_t operator()(const MemoryConfig& config) const { return config.hash(); }
};

} // namespace concorde

template <>
struct std::hash<concorde::MemoryConfig> {
    std::size_t operator()(const concorde::MemoryConfig& config) const { return config.hash(); }
};
