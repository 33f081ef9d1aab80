#include "analysis/AnnotatedRegion.h"

#include <algorithm>

namespace concorde {

std::span<const AnnotatedRegion::Prefetch>
AnnotatedRegion::prefetchesOf(std::uint32_t trigger) const {
    const auto first =
        std::lower_bound(prefetches.begin(), prefetches.end(), trigger,
                         [](const Prefetch& p, std::uint32_t t) { return p.trigger < t; });
    auto last = first;
    while (last != prefetches.end() && last->trigger == trigger)
        ++last;
    return {first, last};
}

std::vector<std::uint8_t> AnnotatedRegion::simpleMispredictions(double missPct,
                                                                std::uint64_t seed) const {
    const SimplePredictor predictor(missPct, seed);
    std::vector<std::uint8_t> result(instructions.size(), 0);
    std::uint64_t ordinal = 0;
    for (std::size_t i = 0; i < instructions.size(); ++i)
        if (instructions[i].isConditionalBranch())
            result[i] = predictor.mispredicts(ordinal++) ? 1 : 0;
    return result;
}

std::vector<std::uint8_t> AnnotatedRegion::mispredictions(BranchPredictorKind kind, double missPct,
                                                          std::uint64_t seed) const {
    std::vector<std::uint8_t> result = kind == BranchPredictorKind::Simple
                                           ? simpleMispredictions(missPct, seed)
                                           : std::vector<std::uint8_t>(instructions.size(), 0);
    const bool tage = kind == BranchPredictorKind::Tage;
    for (std::size_t i = 0; i < instructions.size(); ++i) {
        const AnnotatedInstruction& a = instructions[i];
        if (a.targetMispredicted() || (tage && a.tageMispredicted()))
            result[i] = 1;
    }
    return result;
}

std::uint64_t AnnotatedRegion::mispredictionCount(BranchPredictorKind kind, double missPct,
                                                  std::uint64_t seed) const {
    if (kind == BranchPredictorKind::Tage)
        return stats.tageMispredictions;
    const SimplePredictor predictor(missPct, seed);
    std::uint64_t count = 0;
    const std::uint64_t branches =
        stats.perBranchKind[static_cast<std::size_t>(BranchKind::DirectConditional)];
    for (std::uint64_t k = 0; k < branches; ++k)
        count += predictor.mispredicts(k) ? 1 : 0;
    // Conditional branches never have a target misprediction, so the two counts are disjoint.
    return count + stats.targetMispredictions;
}

} // namespace concorde
