#include "features/DistributionEncoder.h"

#include "common/ConcordeError.h"
#include "features/Cdf.h"

#include <cmath>
#include <string>

namespace concorde {

DistributionEncoder::DistributionEncoder(int percentiles, float cap)
    : percentiles_(percentiles), cap_(cap) {
    if (percentiles < 1 || percentiles > kMaxPercentiles)
        throw usageError("distribution encoder: percentile count must be in 1–" +
                         std::to_string(kMaxPercentiles) + ", got " + std::to_string(percentiles));
    if (std::isnan(cap) || cap <= 0)
        throw usageError("distribution encoder: cap must be positive, got " + std::to_string(cap));
}

std::vector<double> DistributionEncoder::levels() const {
    std::vector<double> result(static_cast<std::size_t>(percentiles_));
    for (int i = 0; i < percentiles_; ++i)
        result[static_cast<std::size_t>(i)] = Cdf::level(i, percentiles_);
    return result;
}

std::vector<float> DistributionEncoder::encode(std::span<const float> series) const {
    std::vector<float> out(width());
    encodeInto(series, out);
    return out;
}

void DistributionEncoder::encodeInto(std::span<const float> series, std::span<float> out) const {
    encodeInto(Cdf::fromValues(series, cap_), out);
}

void DistributionEncoder::encodeInto(const Cdf& cdf, std::span<float> out) const {
    if (out.size() != width())
        throw usageError("distribution encoder: output holds " + std::to_string(out.size()) +
                         " floats, the encoding needs " + std::to_string(width()));
    const auto k = static_cast<std::size_t>(percentiles_);
    cdf.percentilesInto(out.subspan(0, k), CdfWeighting::Count);
    cdf.percentilesInto(out.subspan(k, k), CdfWeighting::Value);
    out[2 * k] = static_cast<float>(cdf.mean(CdfWeighting::Count));
}

} // namespace concorde
