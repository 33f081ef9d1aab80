#pragma once

#include <cstddef>
#include <limits>
#include <span>
#include <vector>

namespace concorde {

/// Which empirical distribution of a sample a Cdf query refers to.
enum class CdfWeighting {
    /// Every sample counts once: F(x) = #{v ≤ x} / n.
    Count,
    /// Every sample is weighted by its own value ("size-weighted"): F_w(x) = Σ_{v ≤ x} v / Σ v.
    /// It puts the mass where the large values are, which exposes the upper tail. When Σ v = 0
    /// (every sample is 0) it is the point mass at 0, i.e. the same as Count.
    Value,
};

/// One point of a CDF curve: F(x) = p.
struct CdfPoint {
    double x = 0;
    double p = 0;
    bool operator==(const CdfPoint&) const = default;
};

/// The empirical distribution of a sample of non-negative values (e.g. per-window IPC bounds),
/// both unweighted and size-weighted. The feature encoding (DistributionEncoder) and the GUI's
/// CDF charts use this one class, so a plotted curve passes exactly through the encoded
/// percentiles.
///
/// Definitions, for sorted samples v_1 ≤ … ≤ v_n with weights w_k (1 for Count, v_k for Value)
/// and cumulative weights S_k = w_1 + … + w_k:
/// - evaluate(x) = S_k / S_n for the largest k with v_k ≤ x (0 below v_1, 1 from v_n on);
/// - quantile(p) = the smallest sample v_k with S_k / S_n ≥ p: the generalised inverse of the
///   step CDF, without interpolation (Hyndman–Fan type 1), so it is always one of the samples;
///   p is clamped to [0, 1], and quantile(0) = v_1;
/// - percentiles(K) = the quantiles at the K equally spaced levels p_i = (i + 0.5) / K,
///   i = 0 … K−1 (midpoints of K equal slices of probability; for K = 10: 5 %, 15 %, …, 95 %),
///   compared in exact integer arithmetic for Count so that ties such as k/n = p_i are exact.
///
/// Input handling: values above `cap` (including +∞) are clamped to `cap`; NaN and negative
/// values are rejected with a bad-input ConcordeError naming the sample index. An empty Cdf
/// evaluates to 0 everywhere, and its quantiles, percentiles and mean are 0.
class Cdf {
public:
    /// An empty distribution.
    Cdf() = default;

    /// Copies, clamps, validates and sorts `values`.
    static Cdf fromValues(std::span<const float> values,
                          float cap = std::numeric_limits<float>::infinity());
    /// Takes values that are already sorted ascending (checked: a usage error otherwise).
    static Cdf fromSorted(std::vector<float> sorted,
                          float cap = std::numeric_limits<float>::infinity());

    std::size_t size() const { return values_.size(); }
    bool empty() const { return values_.empty(); }
    /// The clamped samples, sorted ascending.
    const std::vector<float>& sortedValues() const { return values_; }

    /// F(x): the fraction of the (weighted) mass at values ≤ x.
    double evaluate(double x, CdfWeighting weighting = CdfWeighting::Count) const;
    /// The smallest sample whose F reaches p (see the class comment).
    float quantile(double p, CdfWeighting weighting = CdfWeighting::Count) const;
    /// The K quantiles at levels (i + 0.5) / K, ascending. Requires K ≥ 1.
    std::vector<float> percentiles(int count, CdfWeighting weighting = CdfWeighting::Count) const;
    /// Writes percentiles(out.size(), weighting) into `out` without allocating.
    void percentilesInto(std::span<float> out, CdfWeighting weighting = CdfWeighting::Count) const;
    /// Mean of the distribution: Σ v / n for Count, Σ v² / Σ v for Value (0 when empty, and 0
    /// for Value when every sample is 0).
    double mean(CdfWeighting weighting = CdfWeighting::Count) const;

    /// One point per distinct value: (v, F(v)), ascending in both coordinates, ending at p = 1.
    /// Draw with a "step left" line style, or use staircase().
    std::vector<CdfPoint> steps(CdfWeighting weighting = CdfWeighting::Count) const;
    /// The same curve as a polyline with explicit vertical jumps, ready for a plain line plot:
    /// (v_1, 0), (v_1, F(v_1)), (v_2, F(v_1)), (v_2, F(v_2)), …, ending at (v_max, 1).
    std::vector<CdfPoint> staircase(CdfWeighting weighting = CdfWeighting::Count) const;

    /// The level (i + 0.5) / count of percentile i.
    static double level(int i, int count) { return (i + 0.5) / count; }

private:
    explicit Cdf(std::vector<float> sorted);

    /// S_k for weighting (k = 0 … n, S_0 = 0).
    double cumulative(std::size_t k, CdfWeighting weighting) const;
    /// Value weighting falls back to Count when every sample is 0 (see CdfWeighting::Value).
    CdfWeighting effective(CdfWeighting weighting) const;

    std::vector<float> values_;
    /// valuePrefix_[k] = v_1 + … + v_k in double (size n + 1).
    std::vector<double> valuePrefix_;
};

} // namespace concorde
