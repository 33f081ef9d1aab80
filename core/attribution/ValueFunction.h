#pragma once

#include "params/CoreConfig.h"

#include <span>

namespace concorde {

/// The value of a coalition in a Shapley attribution: CPI as a function of the configuration.
///
/// Batched because the real implementation (the ML model with its block-precomputed first layer,
/// docs/design.md §8) evaluates about a million configurations per second only when it is handed
/// many at once; attribution code always builds batches of a few hundred configurations.
///
/// Contract for implementations:
/// - evaluate() is called concurrently from several threads on the same object, so it must be
///   safe for concurrent const calls;
/// - it must be deterministic and batch-independent: a configuration gives the same bits wherever
///   it sits in whichever batch. Attribution relies on this: a parameter the function ignores
///   gets exactly 0, and per-permutation marginals telescope to CPI(target) − CPI(baseline);
/// - it may throw (e.g. a ConcordeError for a configuration outside the model's grid); the
///   exception propagates out of the attribution.
class ValueFunction {
public:
    virtual ~ValueFunction() = default;

    /// Writes CPI(configs[i]) to out[i]; both spans have the same size (may be 0).
    virtual void evaluate(std::span<const CoreConfig> configs, std::span<double> out) const = 0;

    /// One configuration, through evaluate().
    double operator()(const CoreConfig& config) const;
};

} // namespace concorde
