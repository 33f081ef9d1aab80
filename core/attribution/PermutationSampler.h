#pragma once

#include <cstdint>
#include <span>

namespace concorde {

/// Uniformly random permutations for Shapley sampling, each a pure function of (seed, index).
/// Because permutation i never depends on which thread drew permutations before it, a sampled
/// attribution is the same for a given seed whatever the number of threads. The generator is
/// SplitMix64 with a multiply-shift bounded draw, written out here rather than taken from
/// <random> because std::uniform_int_distribution differs between standard libraries.
class PermutationSampler {
public:
    explicit PermutationSampler(std::uint64_t seed) : seed_(seed) {}

    /// Fills `out` with a permutation of 0 .. out.size()-1 (Fisher–Yates).
    void permutation(std::uint64_t index, std::span<std::uint32_t> out) const;

private:
    std::uint64_t seed_;
};

} // namespace concorde
