#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace concorde::synthetic {

/// Seeded randomness for kernels that is identical on every platform and standard library:
/// std::mt19937_64's output sequence is fixed by the standard, whereas the std::*_distribution
/// classes are not, so they are deliberately avoided.
class KernelRandom {
public:
    explicit KernelRandom(std::uint64_t seed) : engine_(seed) {}

    std::uint64_t next() { return engine_(); }
    /// A value in [0, bound) by multiply-shift (bias below bound / 2^64, irrelevant here).
    std::uint64_t below(std::uint64_t bound);
    /// A fair coin: the top bit of the next output.
    bool coin() { return (engine_() >> 63) != 0; }
    /// 0..n-1 in a random order (Fisher–Yates driven by below()).
    std::vector<std::uint32_t> permutation(std::uint32_t n);

private:
    std::mt19937_64 engine_;
};

} // namespace concorde::synthetic
