#pragma once

#include "analysis/AnnotatedRegion.h"
#include "bounds/ResourceBounds.h"
#include "params/CoreConfig.h"

#include <vector>

namespace concorde {

/// Computes every analytical model of DESIGN §7 for one region (already analysed for the
/// configuration's memory parameters) and one configuration.
class BoundsCalculator {
public:
    /// ROB sizes whose overall throughput is an auxiliary scalar for every configuration.
    static const std::vector<std::uint32_t>& auxiliaryRobSizes();

    explicit BoundsCalculator(std::uint32_t windowSize = 400, std::uint32_t icacheHitCycles = 1)
        : windowSize_(windowSize), icacheHitCycles_(icacheHitCycles) {}

    /// Throws a bad-input ConcordeError when `region` was analysed for other memory parameters
    /// than `config`'s.
    ResourceBounds compute(const AnnotatedRegion& region, const CoreConfig& config) const;

    std::uint32_t windowSize() const { return windowSize_; }

private:
    std::uint32_t windowSize_;
    std::uint32_t icacheHitCycles_;
};

} // namespace concorde
