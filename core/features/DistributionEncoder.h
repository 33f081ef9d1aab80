#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace concorde {

class Cdf;

/// Encodes one distribution (e.g. a resource's per-window IPC bounds) as a fixed-length vector of
/// 2K + 1 floats (docs/design.md §8), in this order:
///
///   [0, K)     the K percentiles of the distribution at levels (i + 0.5) / K,
///   [K, 2K)    the K percentiles of the size-weighted distribution at the same levels,
///   2K         the mean of the samples (unweighted, Σ v / n).
///
/// The percentile and weighting rules are Cdf's: a percentile is the smallest sample whose
/// empirical CDF reaches the level (no interpolation), and the size-weighted CDF is
/// F_w(x) = Σ_{v ≤ x} v / Σ v. So for {1, 1, 1, 1, 96} the median is 1 while the weighted median
/// is 96: the 96 holds 96 % of the mass.
///
/// Samples above the cap (including +∞: a resource that never binds) are clamped to it before
/// anything is computed; NaN or negative samples are a bad-input ConcordeError. An empty series
/// encodes as 2K + 1 zeros (no windows, no information; the vector stays finite for the model).
/// A constant series c encodes as 2K + 1 copies of c. Both percentile parts are non-decreasing,
/// and each weighted percentile is ≥ the unweighted one at the same level.
class DistributionEncoder {
public:
    static constexpr int kDefaultPercentiles = 10;
    /// Per-window IPC bounds are capped here by core/bounds; a useful cap for throughput series.
    static constexpr float kDefaultCap = 64.0f;
    /// Largest accepted K (keeps malformed layouts from allocating absurd vectors).
    static constexpr int kMaxPercentiles = 1000;

    /// Throws a usage ConcordeError unless 1 ≤ percentiles ≤ kMaxPercentiles and cap > 0
    /// (cap may be +∞, in which case +∞ samples are rejected).
    explicit DistributionEncoder(int percentiles = kDefaultPercentiles, float cap = kDefaultCap);

    int percentiles() const { return percentiles_; }
    float cap() const { return cap_; }
    /// 2K + 1.
    std::size_t width() const { return widthFor(percentiles_); }
    static std::size_t widthFor(int percentiles) {
        return 2 * static_cast<std::size_t>(percentiles) + 1;
    }
    /// Index of the first weighted percentile (K) and of the mean (2K) inside an encoding.
    std::size_t weightedOffset() const { return static_cast<std::size_t>(percentiles_); }
    std::size_t meanOffset() const { return 2 * static_cast<std::size_t>(percentiles_); }

    /// The K quantile levels (i + 0.5) / K.
    std::vector<double> levels() const;

    std::vector<float> encode(std::span<const float> series) const;
    /// Writes the encoding into `out`, which must hold exactly width() floats (usage error
    /// otherwise), e.g. a block's slice of a feature vector.
    void encodeInto(std::span<const float> series, std::span<float> out) const;
    /// Encodes an already-built distribution (whose own cap applies, not this encoder's).
    void encodeInto(const Cdf& cdf, std::span<float> out) const;

private:
    int percentiles_;
    float cap_;
};

} // namespace concorde
