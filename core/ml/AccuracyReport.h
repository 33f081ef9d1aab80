#pragma once

#include "params/CoreConfig.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace concorde {

/// Accuracy of the CPI model against reference-simulator labels, with the same numbers for the
/// two baselines of docs/design.md §8 (min of bounds without ML; the linear model): mean relative
/// error, fraction of samples over 10 % error, and the error per program and per parameter value.
class AccuracyReport {
public:
    struct Entry {
        std::string program;
        CoreConfig config;
        double truth = 0;    ///< reference CPI
        double model = 0;    ///< the MLP's CPI
        double minBound = 0; ///< min-of-bounds CPI
        double linear = 0;   ///< linear baseline CPI (0: not available)
        double low = 0;      ///< the model's band (an ensemble's; 0: no band)
        double high = 0;
    };

    void add(Entry entry) { entries_.push_back(std::move(entry)); }
    std::size_t size() const { return entries_.size(); }
    bool empty() const { return entries_.empty(); }

    static double relativeError(double predicted, double truth) {
        return std::abs(predicted - truth) / truth;
    }
    double meanRelativeError() const;
    double fractionOver10Percent() const;
    /// Fraction of the entries with a band (high > low) whose reference CPI lies inside it; 0
    /// when none has one.
    double bandCoverage() const;
    bool banded() const;

    /// {"samples", "mean_rel_error", "frac_over_10pct", "p90_rel_error", "max_rel_error",
    ///  "per_program": {P: {...}}, "per_parameter": {key: {value: {"samples",
    ///  "mean_rel_error"}}}, "baselines": {"min_of_bounds": {...}, "linear": {...}}}, and
    ///  "band_coverage" when the entries carry a band.
    nlohmann::json toJson() const;
    /// A table for people: overall, baselines, per program.
    std::string toText(const std::string& title) const;

private:
    std::vector<Entry> entries_;
};

} // namespace concorde
