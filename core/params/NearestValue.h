#pragma once

#include <cstddef>
#include <span>

namespace concorde {

/// Index of the value in `values` closest to `value`; ties go to the earlier one (the lower value
/// of a grid sorted ascending). 0 for an empty span. Snapping a preset or a typed value onto a
/// parameter grid is this everywhere: sliders, the explorer's ConfigChecker, near-preset draws.
std::size_t nearestValueIndex(std::span<const double> values, double value);

} // namespace concorde
