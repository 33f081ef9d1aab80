#pragma once

#include "features/ParameterGrid.h"
#include "ml/Mlp.h"

#include <Eigen/Dense>
#include <span>
#include <vector>

namespace concorde {

/// The verified repair of issue 17, item 5, on the feature side. A monotone network
/// (Mlp::makeMonotone) moves the CPI the right way only if its constrained features do, and the
/// analytical per-window series do not always: more I-cache fills deliver every line earlier,
/// yet a window's own duration (its end minus the previous window's end) can grow, so a
/// percentile of the per-window IPC can fall. The envelope replaces each constrained feature of a
/// block, at every combination of the block's parameters, with the best value it takes at any
/// combination that is no bigger a core in every parameter:
///
///   x̂(c) = max over c' ≤ c of x(c')   for NonIncreasing features (they grow with the core),
///   x̂(c) = min over c' ≤ c of x(c')   for NonDecreasing ones (resource-alone CPIs, MPKI),
///
/// where c' ≤ c compares every ordered parameter in its better direction
/// (ParameterSpace::betterDirection) and requires equality on choices. x̂ is then monotone in
/// every parameter by construction, equals x wherever x already was, and with the network's
/// sign constraints makes the predicted CPI monotone. Free and Unused features are left alone.
class MonotoneEnvelope {
public:
    /// `features` holds one column per combination of `params` over `grid`, numbered as
    /// BlockCombinations numbers them (the first parameter the most significant digit), and one
    /// row per feature of the block, whose constraints are `constraints`. Replaced in place.
    /// A down-set maximum over a product lattice is a running maximum along each axis in turn,
    /// so this costs one pass per parameter.
    static void apply(const std::vector<ParamId>& params, const ParameterGrid& grid,
                      std::span<const InputConstraint> constraints, Eigen::MatrixXf& features);

    /// The same guarantee with smaller moves, for a composed network's group outputs. apply()
    /// replaces a value by the best over its whole down-set, so a value that is out of order
    /// anywhere in a lattice drags the largest core's value all the way to it. Here each row is
    /// first brought close to monotone by `sweeps` rounds of isotonic regression along every
    /// ordered axis in turn (pool-adjacent-violators on each line of the lattice: every value
    /// moves only as far as its line's order needs, to the mean of the values it is out of
    /// order with), and apply() then removes what is left, so the result is exactly monotone.
    static void isotonic(const std::vector<ParamId>& params, const ParameterGrid& grid,
                         std::span<const InputConstraint> constraints, Eigen::MatrixXf& features,
                         int sweeps = 8);
};

} // namespace concorde
