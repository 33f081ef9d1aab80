#pragma once

#include "features/FeatureLayout.h"
#include "ml/Mlp.h"

#include <vector>

namespace concorde {

/// Which way each feature of a layout may move the predicted CPI, so that a network built with
/// these constraints (Mlp::makeMonotone) never predicts a higher CPI for a larger resource or a
/// lower branch miss rate (issue 17). The rule per block, "better" meaning a larger resource:
///
/// - resource blocks (per-window IPC bounds): the percentiles, the size-weighted percentiles and
///   the mean grow as the core gets better, so the CPI may not rise with them (NonIncreasing);
///   the reciprocal mean (the resource-alone CPI) falls, so the CPI may not fall with it
///   (NonDecreasing);
/// - aux.rob_sizes (region IPC of the ROB model at fixed sizes, moved by the memory
///   parameters): NonIncreasing;
/// - aux.mispredict (mispredictions per 1000 instructions): NonDecreasing;
/// - parameter blocks: NonIncreasing for resources, NonDecreasing for bp_miss_pct, Free for the
///   predictor choice (which is not ordered);
/// - blocks without parameters (program properties): Free;
/// - any other block that changes with the configuration (the aux.latency_* distributions,
///   whose direction is not known): Unused.
///
/// The guarantee then rests on the features themselves moving the right way as a resource grows,
/// which the analytical models do by construction except where a size-weighted percentile can
/// fall while every window's bound rises; `concorde check-monotone` verifies the result.
class MonotoneConstraints {
public:
    /// One constraint per feature of `layout`.
    static std::vector<InputConstraint> forLayout(const FeatureLayout& layout);
};

} // namespace concorde
