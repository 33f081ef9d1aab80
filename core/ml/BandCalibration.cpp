#include "ml/BandCalibration.h"

#include "common/ConcordeError.h"
#include "common/JsonFields.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace concorde {
namespace {

/// Mean of the members and standard deviation of their logs (0 for one member).
std::pair<double, double> meanAndLogSpread(std::span<const double> cpis) {
    double sum = 0, logSum = 0;
    for (const double c : cpis) {
        sum += c;
        logSum += std::log(std::max(c, 1e-9));
    }
    const auto n = static_cast<double>(cpis.size());
    const double logMean = logSum / n;
    double squares = 0;
    for (const double c : cpis) {
        const double d = std::log(std::max(c, 1e-9)) - logMean;
        squares += d * d;
    }
    return {sum / n, std::sqrt(squares / n)};
}

} // namespace

BandCalibration::BandCalibration(double scale, double floor, double coverage)
    : scale_(scale), floor_(floor), coverage_(coverage) {
    if (!(scale >= 0) || !(floor >= 0) || !(coverage >= 0 && coverage < 1) ||
        !std::isfinite(scale) || !std::isfinite(floor))
        throw badInput("band calibration: scale and floor must be finite and non-negative, the "
                       "coverage in [0, 1)");
}

BandCalibration BandCalibration::fit(const std::vector<std::vector<double>>& memberCpis,
                                     std::span<const double> targets, double coverage,
                                     double floor) {
    if (memberCpis.size() != targets.size() || targets.empty())
        throw usageError("band calibration needs one set of member predictions per target");
    if (!(coverage > 0 && coverage < 1))
        throw usageError("band calibration: the coverage must lie strictly between 0 and 1");
    // The band holds sample i when |ln(y / mean)| <= scale × (spread + floor), so the scale that
    // holds a fraction `coverage` is that quantile of the ratio.
    std::vector<double> ratios;
    ratios.reserve(targets.size());
    for (std::size_t i = 0; i < targets.size(); ++i) {
        if (memberCpis[i].empty())
            throw usageError("band calibration: a sample without member predictions");
        const auto [mean, spread] = meanAndLogSpread(memberCpis[i]);
        ratios.push_back(std::abs(std::log(targets[i] / mean)) / (spread + floor));
    }
    const auto k = static_cast<std::size_t>(
        std::min<double>(std::ceil(coverage * double(ratios.size())), double(ratios.size())) - 1);
    std::nth_element(ratios.begin(), ratios.begin() + static_cast<long>(k), ratios.end());
    // A hair wider, so that the sample at the quantile itself is inside despite rounding.
    return BandCalibration(ratios[k] * (1 + 1e-9), floor, coverage);
}

CpiBand BandCalibration::combine(std::span<const double> memberCpis) const {
    if (memberCpis.empty())
        throw usageError("an ensemble prediction needs at least one member");
    const auto [mean, spread] = meanAndLogSpread(memberCpis);
    const double half = scale_ * (spread + floor_);
    return {mean, mean * std::exp(-half), mean * std::exp(half)};
}

nlohmann::json BandCalibration::toJson() const {
    return {{"scale", scale_}, {"floor", floor_}, {"coverage", coverage_}};
}

BandCalibration BandCalibration::fromJson(const nlohmann::json& json, const std::string& context) {
    const JsonFields fields(json, context + ": band");
    return BandCalibration(fields.number("scale"), fields.number("floor"),
                           fields.number("coverage"));
}

} // namespace concorde
