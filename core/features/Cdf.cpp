#include "features/Cdf.h"

#include "common/ConcordeError.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

namespace concorde {
namespace {

void checkCap(float cap) {
    if (std::isnan(cap) || cap <= 0)
        throw usageError("CDF cap must be a positive number, got " + std::to_string(cap));
}

/// Clamps one sample to the cap and rejects what no distribution of bounds can hold.
float cleanSample(float v, float cap, std::size_t i) {
    if (std::isnan(v))
        throw badInput("distribution sample #" + std::to_string(i) + " is NaN");
    if (v < 0)
        throw badInput("distribution sample #" + std::to_string(i) + " is negative (" +
                       std::to_string(v) + "); distributions hold non-negative values");
    v = std::min(v, cap);
    if (std::isinf(v))
        throw badInput("distribution sample #" + std::to_string(i) +
                       " is infinite and no finite cap was given");
    return v;
}

} // namespace

Cdf::Cdf(std::vector<float> sorted) : values_(std::move(sorted)) {
    valuePrefix_.resize(values_.size() + 1);
    valuePrefix_[0] = 0;
    // Summed in sorted order in double: deterministic and exact for the small integers of tests.
    for (std::size_t k = 0; k < values_.size(); ++k)
        valuePrefix_[k + 1] = valuePrefix_[k] + values_[k];
}

Cdf Cdf::fromValues(std::span<const float> values, float cap) {
    checkCap(cap);
    std::vector<float> clean(values.size());
    for (std::size_t i = 0; i < values.size(); ++i)
        clean[i] = cleanSample(values[i], cap, i);
    std::sort(clean.begin(), clean.end());
    return Cdf(std::move(clean));
}

Cdf Cdf::fromSorted(std::vector<float> sorted, float cap) {
    checkCap(cap);
    for (std::size_t i = 0; i < sorted.size(); ++i) {
        sorted[i] = cleanSample(sorted[i], cap, i);
        if (i > 0 && sorted[i] < sorted[i - 1])
            throw usageError("Cdf::fromSorted: sample #" + std::to_string(i) +
                             " is smaller than the one before it");
    }
    return Cdf(std::move(sorted));
}

CdfWeighting Cdf::effective(CdfWeighting weighting) const {
    if (weighting == CdfWeighting::Value && valuePrefix_.back() <= 0)
        return CdfWeighting::Count;
    return weighting;
}

double Cdf::cumulative(std::size_t k, CdfWeighting weighting) const {
    return weighting == CdfWeighting::Count ? static_cast<double>(k) : valuePrefix_[k];
}

double Cdf::evaluate(double x, CdfWeighting weighting) const {
    if (values_.empty())
        return 0;
    const auto w = effective(weighting);
    const auto k = static_cast<std::size_t>(std::upper_bound(values_.begin(), values_.end(), x) -
                                            values_.begin());
    if (k == values_.size())
        return 1; // avoid S_n / S_n rounding away from exactly 1
    return cumulative(k, w) / cumulative(values_.size(), w);
}

float Cdf::quantile(double p, CdfWeighting weighting) const {
    if (values_.empty())
        return 0;
    const auto w = effective(weighting);
    const std::size_t n = values_.size();
    const double target = std::clamp(p, 0.0, 1.0) * cumulative(n, w);
    // Smallest k in [1, n] with S_k >= target; S is non-decreasing in k.
    std::size_t lo = 1;
    std::size_t hi = n;
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (cumulative(mid, w) >= target)
            hi = mid;
        else
            lo = mid + 1;
    }
    return values_[lo - 1];
}

std::vector<float> Cdf::percentiles(int count, CdfWeighting weighting) const {
    if (count < 1)
        throw usageError("percentile count must be at least 1, got " + std::to_string(count));
    std::vector<float> out(static_cast<std::size_t>(count));
    percentilesInto(out, weighting);
    return out;
}

void Cdf::percentilesInto(std::span<float> out, CdfWeighting weighting) const {
    const std::size_t count = out.size();
    if (values_.empty()) {
        std::fill(out.begin(), out.end(), 0.0f);
        return;
    }
    const auto w = effective(weighting);
    const std::size_t n = values_.size();
    // Level i is (2i+1)/(2K); the sample for it is the smallest k with S_k * 2K >= (2i+1) * S_n.
    // Levels ascend, so one forward sweep over k serves all of them.
    std::size_t k = 1;
    for (std::size_t i = 0; i < count; ++i) {
        const std::uint64_t numerator = 2 * i + 1;
        const std::uint64_t denominator = 2 * count;
        if (w == CdfWeighting::Count) {
            while (k < n && static_cast<std::uint64_t>(k) * denominator < numerator * n)
                ++k;
        } else {
            const double total = valuePrefix_[n];
            while (k < n && valuePrefix_[k] * static_cast<double>(denominator) <
                                static_cast<double>(numerator) * total)
                ++k;
        }
        out[i] = values_[k - 1];
    }
}

double Cdf::mean(CdfWeighting weighting) const {
    if (values_.empty())
        return 0;
    const double sum = valuePrefix_.back();
    if (weighting == CdfWeighting::Count)
        return sum / static_cast<double>(values_.size());
    if (sum <= 0)
        return 0;
    double squares = 0;
    for (const float v : values_)
        squares += static_cast<double>(v) * v;
    return squares / sum;
}

std::vector<CdfPoint> Cdf::steps(CdfWeighting weighting) const {
    std::vector<CdfPoint> points;
    if (values_.empty())
        return points;
    const auto w = effective(weighting);
    const std::size_t n = values_.size();
    const double total = cumulative(n, w);
    for (std::size_t k = 1; k <= n; ++k) {
        if (k < n && values_[k] == values_[k - 1])
            continue; // only the last sample of a run of equal values closes its step
        points.push_back({values_[k - 1], k == n ? 1.0 : cumulative(k, w) / total});
    }
    return points;
}

std::vector<CdfPoint> Cdf::staircase(CdfWeighting weighting) const {
    const auto stepPoints = steps(weighting);
    std::vector<CdfPoint> line;
    line.reserve(stepPoints.size() * 2);
    double previous = 0;
    for (const auto& point : stepPoints) {
        line.push_back({point.x, previous});
        line.push_back(point);
        previous = point.p;
    }
    return line;
}

} // namespace concorde
