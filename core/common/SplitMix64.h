#pragma once

#include <cstdint>

namespace concorde {

/// A tiny deterministic random generator (SplitMix64) and hash, for the seeded parts of phase
/// clustering. Spelled out instead of <random> so that a seed gives the same phases with every
/// standard library (std::uniform_*_distribution are implementation-defined).
class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t seed) : state_(seed) {}

    /// The SplitMix64 finaliser: a bijective 64-bit mix, used as a hash.
    static std::uint64_t mix(std::uint64_t z) {
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    /// Hash of several values, order-sensitive.
    static std::uint64_t hash(std::uint64_t a, std::uint64_t b, std::uint64_t c = 0) {
        return mix(a ^ mix(b ^ mix(c + 0x9e3779b97f4a7c15ULL)));
    }
    /// A double in [0, 1) from 53 random bits of `bits`.
    static double unit(std::uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1.0p-53; }

    std::uint64_t next() {
        state_ += 0x9e3779b97f4a7c15ULL;
        return mix(state_);
    }
    /// Uniform in [0, 1).
    double uniform() { return unit(next()); }
    /// Uniform in [0, n) for n ≥ 1 (multiply-shift; bias below n / 2^64).
    std::uint64_t below(std::uint64_t n) {
        return static_cast<std::uint64_t>((static_cast<unsigned __int128>(next()) * n) >> 64);
    }

private:
    std::uint64_t state_;
};

} // namespace concorde
