#pragma once

#include "analysis/BranchPredictor.h"

#include <cstdint>

namespace concorde {

/// The "simple" predictor of the parameter space: each dynamic conditional branch is
/// mispredicted with probability missPct / 100, independently of the program. Other branches
/// are predicted correctly.
///
/// Deterministic: whether the k-th conditional branch (k counted from 0 since construction or
/// reset()) is mispredicted is a pure function of (seed, k, missPct): a 64-bit hash of (seed, k)
/// compared against missPct/100 · 2^64. So the same trace and seed always give the same
/// mispredictions, and for one seed the mispredictions at a lower rate are a subset of those at
/// a higher rate (CPI is monotone in bp_miss_pct, which Shapley attribution relies on).
class SimplePredictor final : public BranchPredictor {
public:
    /// The seed used everywhere unless a caller chooses another.
    static constexpr std::uint64_t kDefaultSeed = 0xC0C0'5EED'2025'0001ull;

    /// `missPct` in 0–100 (bad-input ConcordeError otherwise).
    explicit SimplePredictor(double missPct, std::uint64_t seed = kDefaultSeed);

    bool predictAndUpdate(const TraceRecord& record) override;
    void reset() override { ordinal_ = 0; }

    /// Whether conditional branch number `ordinal` is mispredicted (no state change).
    bool mispredicts(std::uint64_t ordinal) const {
        return always_ || hash(seed_, ordinal) < threshold_;
    }
    /// The decision as a free function of its inputs.
    static bool mispredicts(std::uint64_t seed, std::uint64_t ordinal, double missPct);

    double missPct() const { return missPct_; }
    std::uint64_t seed() const { return seed_; }
    /// Conditional branches seen since construction or reset().
    std::uint64_t conditionalBranches() const { return ordinal_; }

private:
    static std::uint64_t hash(std::uint64_t seed, std::uint64_t ordinal);
    static std::uint64_t thresholdFor(double missPct);

    double missPct_;
    std::uint64_t seed_;
    std::uint64_t threshold_; ///< mispredict when hash < threshold
    bool always_ = false;     ///< missPct = 100: threshold would be 2^64
    std::uint64_t ordinal_ = 0;
};

} // namespace concorde
