#pragma once

#include "attribution/ProgramValue.h"
#include "attribution/ValueFunction.h"

#include <cstddef>
#include <memory>
#include <string>

namespace concorde {

class DatabasePredictor;

/// One region of a DatabasePredictor as the value function of a Shapley attribution (docs/design.md
/// §9): CPI(configuration) from the region's block-precomputed model.
///
/// The ValueFunction contract asks for results that do not depend on the batch a configuration
/// sits in. The model's batched inference multiplies matrices whose width is the batch size, and
/// the matrix-product kernels may round differently for different widths (a batch of one takes a
/// matrix-vector path). So this adapter always hands the predictor blocks of exactly kBlockWidth
/// configurations, padding the last block with copies of its last configuration: every
/// configuration then goes through the same kernels with the same shapes, and the same
/// configuration gives the same bits in any batch, at any position, on any thread (checked by
/// the integration test through exact zero attributions and telescoping sums). Padding costs at
/// most kBlockWidth − 1 extra evaluations per call; the attributor calls with batches of ~256.
///
/// Thread-safe (the predictor is immutable) and cheap to copy (it shares the predictor).
class RegionValueFunction : public ValueFunction {
public:
    static constexpr std::size_t kBlockWidth = 32;

    /// `region` indexes predictor->regions(); a usage error if it is out of range or the
    /// predictor is null.
    RegionValueFunction(std::shared_ptr<const DatabasePredictor> predictor, std::size_t region);

    void evaluate(std::span<const CoreConfig> configs, std::span<double> out) const override;

    std::size_t region() const { return region_; }

    /// The program's regions as an attribution input: one RegionValue per loaded region, in
    /// database order, labelled by its region index ("0", "1", ...) and weighted by its
    /// measured instructions. A usage error for a program the predictor has not loaded.
    static ProgramValue programValue(const std::shared_ptr<const DatabasePredictor>& predictor,
                                     const std::string& program);

private:
    std::shared_ptr<const DatabasePredictor> predictor_;
    std::size_t region_;
};

} // namespace concorde
