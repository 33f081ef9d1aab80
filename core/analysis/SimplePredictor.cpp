#include "analysis/SimplePredictor.h"

#include "common/ConcordeError.h"

#include <cmath>
#include <string>

namespace concorde {

SimplePredictor::SimplePredictor(double missPct, std::uint64_t seed)
    : missPct_(missPct), seed_(seed), threshold_(thresholdFor(missPct)), always_(missPct >= 100) {}

std::uint64_t SimplePredictor::thresholdFor(double missPct) {
    if (!(missPct >= 0 && missPct <= 100))
        throw badInput("simple predictor miss rate must be in 0–100 %, not " +
                       std::to_string(missPct));
    if (missPct >= 100)
        return ~std::uint64_t{0};
    // 2^64 · p, computed in long double to keep the low bits of small rates.
    return static_cast<std::uint64_t>(std::ldexp(static_cast<long double>(missPct) / 100.0L, 64));
}

std::uint64_t SimplePredictor::hash(std::uint64_t seed, std::uint64_t ordinal) {
    // splitmix64 over a Weyl sequence keyed by the seed: every (seed, ordinal) pair gets an
    // independent-looking 64-bit value.
    std::uint64_t x = seed ^ ((ordinal + 1) * 0x9E3779B97F4A7C15ull);
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    x ^= x >> 31;
    // A second round: the first alone leaves seed/ordinal correlations visible in low bits.
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

bool SimplePredictor::mispredicts(std::uint64_t seed, std::uint64_t ordinal, double missPct) {
    if (missPct >= 100)
        return true;
    return hash(seed, ordinal) < thresholdFor(missPct);
}

bool SimplePredictor::predictAndUpdate(const TraceRecord& record) {
    if (record.branchKind != BranchKind::DirectConditional)
        return false;
    const std::uint64_t ordinal = ordinal_++;
    return mispredicts(ordinal);
}

} // namespace concorde
