#include "features/FeatureBlock.h"

#include "common/ConcordeError.h"
#include "features/DistributionEncoder.h"
#include "params/CoreConfig.h"

#include <algorithm>
#include <cmath>

namespace concorde {

std::string_view blockKindName(BlockKind kind) {
    switch (kind) {
    case BlockKind::Distributions:
        return "distributions";
    case BlockKind::Scalars:
        return "scalars";
    case BlockKind::Parameter:
        return "parameter";
    }
    return "?";
}

std::string_view paramScaleName(ParamScale scale) {
    switch (scale) {
    case ParamScale::None:
        return "none";
    case ParamScale::Linear:
        return "linear";
    case ParamScale::Log2:
        return "log2";
    case ParamScale::OneHot:
        return "one-hot";
    }
    return "?";
}

bool FeatureBlock::dependsOn(ParamId id) const {
    return std::find(params.begin(), params.end(), id) != params.end();
}

std::size_t FeatureBlock::columnWidth(int percentiles) const {
    if (kind == BlockKind::Distributions)
        return DistributionEncoder::widthFor(percentiles) + (reciprocalMean ? 1 : 0);
    return 1;
}

std::size_t FeatureBlock::expectedWidth(int percentiles) const {
    return columns.size() * columnWidth(percentiles);
}

std::size_t FeatureBlock::columnIndex(std::string_view column) const {
    for (std::size_t i = 0; i < columns.size(); ++i)
        if (columns[i] == column)
            return i;
    throw usageError("feature block '" + name + "' has no column '" + std::string(column) + "'");
}

void FeatureBlock::encodeParameter(double value, std::span<float> out) const {
    if (kind != BlockKind::Parameter)
        throw usageError("feature block '" + name + "' is not a parameter block");
    if (out.size() != width)
        throw usageError("feature block '" + name + "': output holds " +
                         std::to_string(out.size()) + " floats, the block is " +
                         std::to_string(width) + " wide");
    if (scale == ParamScale::OneHot) {
        std::fill(out.begin(), out.end(), 0.0f);
        const double choice = std::round(value);
        if (choice < 0 || choice >= static_cast<double>(width))
            throw badInput("feature block '" + name + "': choice index " + std::to_string(value) +
                           " is out of range");
        out[static_cast<std::size_t>(choice)] = 1.0f;
        return;
    }
    const double v = std::clamp(value, lo, hi);
    double normalised = 0;
    if (scale == ParamScale::Log2)
        normalised = (std::log2(v) - std::log2(lo)) / (std::log2(hi) - std::log2(lo));
    else
        normalised = (v - lo) / (hi - lo);
    // Exact ends even if log2 rounds (the tests and the model rely on 0 and 1 being reached).
    if (v == lo)
        normalised = 0;
    else if (v == hi)
        normalised = 1;
    out[0] = static_cast<float>(normalised);
}

void FeatureBlock::encodeParameter(const CoreConfig& config, std::span<float> out) const {
    if (params.size() != 1)
        throw usageError("feature block '" + name + "' is not a single-parameter block");
    encodeParameter(config.value(params[0]), out);
}

} // namespace concorde
