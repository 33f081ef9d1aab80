#pragma once

#include "params/ParameterSpec.h"

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace concorde {

class CoreConfig;

/// What a feature block holds.
enum class BlockKind {
    /// One DistributionEncoder encoding (2K + 1 floats) per entry of `columns` (series names).
    Distributions,
    /// One float per entry of `columns`.
    Scalars,
    /// One parameter's normalised value: 1 float, or a one-hot over its choices.
    Parameter,
};

/// How a Parameter block maps the parameter's value to features.
enum class ParamScale {
    None,   ///< not a Parameter block
    Linear, ///< (v − lo) / (hi − lo)
    Log2,   ///< (log2 v − log2 lo) / (log2 hi − log2 lo); requires lo > 0
    OneHot, ///< 1 in column v (a choice index), 0 elsewhere
};

std::string_view blockKindName(BlockKind kind);
std::string_view paramScaleName(ParamScale scale);

/// A named, contiguous slice [offset, offset + width) of a feature vector, and the parameters
/// its values depend on. Everything needed to compute and interpret the slice is here, so a
/// model trained with a layout keeps its meaning even if the parameter table changes later.
struct FeatureBlock {
    std::string name;
    BlockKind kind = BlockKind::Distributions;
    /// The parameters whose values determine this block's contents for a region, in the block's
    /// canonical order (which also orders BlockCombinations' mixed-radix digits). Empty for
    /// blocks that depend on the region only.
    std::vector<ParamId> params;
    /// Series names (Distributions), scalar names (Scalars) or column names (Parameter: the
    /// parameter key, or the choice names for a one-hot).
    std::vector<std::string> columns;
    /// Distributions only: samples are clamped to this before encoding.
    float cap = 0;
    /// Distributions only: each column's encoding is followed by the mean of the reciprocals of
    /// its samples. Set on per-window IPC bounds, where it is the region's CPI under that
    /// resource alone — the quantity CPI is built from, and one the percentiles only approximate.
    bool reciprocalMean = false;
    /// Parameter only: the mapping and the value range [lo, hi] mapped onto [0, 1].
    ParamScale scale = ParamScale::None;
    double lo = 0;
    double hi = 0;

    std::size_t offset = 0;
    std::size_t width = 0;

    std::size_t end() const { return offset + width; }
    bool dependsOn(ParamId id) const;
    /// True when the block does not depend on any parameter (computed once per region).
    bool isFixed() const { return params.empty(); }

    /// Width this block must have with K percentiles (derived from kind and columns).
    std::size_t expectedWidth(int percentiles) const;
    /// Floats per column: 2K + 1 (+ 1 with reciprocalMean) for distributions, else 1.
    std::size_t columnWidth(int percentiles) const;
    /// Index of `column` in `columns`; a usage error naming the block if absent.
    std::size_t columnIndex(std::string_view column) const;

    /// Parameter blocks: the normalised value of `value` written into `out` (width floats).
    /// Values outside [lo, hi] are clamped (a config is always in range; grids may be narrower).
    void encodeParameter(double value, std::span<float> out) const;
    /// Parameter blocks: encodeParameter(config.value(params[0]), out).
    void encodeParameter(const CoreConfig& config, std::span<float> out) const;

    bool operator==(const FeatureBlock&) const = default;
};

} // namespace concorde
