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

BandCalibration::BandCalibration(double scale, double floor, double coverage, bool firstIsCentre)
    : scale_(scale), floor_(floor), coverage_(coverage), firstIsCentre_(firstIsCentre) {
    if (!(scale >= 0) || !(floor >= 0) || !(coverage >= 0 && coverage < 1) ||
        !std::isfinite(scale) || !std::isfinite(floor))
        throw badInput("band calibration: scale and floor must be finite and non-negative, the "
                       "coverage in [0, 1)");
}

BandCalibration BandCalibration::fit(const std::vector<std::vector<double>>& memberCpis,
                                     std::span<const double> targets, double coverage, double floor,
                                     bool firstIsCentre, std::size_t deployedMembers) {
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
        auto [mean, spread] = meanAndLogSpread(memberCpis[i]);
        const std::size_t n = memberCpis[i].size();
        if (deployedMembers > 0 && n >= 2 && n != deployedMembers)
            spread *= spreadBias(deployedMembers) / spreadBias(n);
        const double centre = firstIsCentre ? memberCpis[i].front() : mean;
        ratios.push_back(std::abs(std::log(targets[i] / centre)) / (spread + floor));
    }
    const auto k = static_cast<std::size_t>(
        std::min<double>(std::ceil(coverage * double(ratios.size())), double(ratios.size())) - 1);
    std::nth_element(ratios.begin(), ratios.begin() + static_cast<long>(k), ratios.end());
    // A hair wider, so that the sample at the quantile itself is inside despite rounding.
    return BandCalibration(ratios[k] * (1 + 1e-9), floor, coverage, firstIsCentre);
}

double BandCalibration::spreadBias(std::size_t n) {
    if (n < 2)
        return 0;
    const auto m = static_cast<double>(n);
    // c4(n) = √(2/(n−1)) Γ(n/2) / Γ((n−1)/2), the mean of the sample standard deviation.
    const double c4 =
        std::sqrt(2.0 / (m - 1)) * std::exp(std::lgamma(m / 2) - std::lgamma((m - 1) / 2));
    return c4 * std::sqrt((m - 1) / m);
}

CpiBand BandCalibration::combine(std::span<const double> memberCpis) const {
    if (memberCpis.empty())
        throw usageError("an ensemble prediction needs at least one member");
    const auto [mean, spread] = meanAndLogSpread(memberCpis);
    const double centre = firstIsCentre_ ? memberCpis.front() : mean;
    const double half = scale_ * (spread + floor_);
    return {centre, centre * std::exp(-half), centre * std::exp(half)};
}

double BandCalibration::centre(std::span<const double> memberCpis) const {
    if (memberCpis.empty())
        throw usageError("an ensemble prediction needs at least one member");
    if (firstIsCentre_)
        return memberCpis.front();
    double sum = 0;
    for (const double c : memberCpis)
        sum += c;
    return sum / static_cast<double>(memberCpis.size());
}

nlohmann::json BandCalibration::toJson() const {
    return {{"scale", scale_},
            {"floor", floor_},
            {"coverage", coverage_},
            {"centre", firstIsCentre_ ? "first" : "mean"}};
}

BandCalibration BandCalibration::fromJson(const nlohmann::json& json, const std::string& context) {
    const JsonFields fields(json, context + ": band");
    const std::string centre = fields.string("centre", "mean");
    if (centre != "mean" && centre != "first")
        throw badInput(fields.where("centre") + " must be \"mean\" or \"first\", not \"" + centre +
                       "\"");
    return BandCalibration(fields.number("scale"), fields.number("floor"),
                           fields.number("coverage"), centre == "first");
}

} // namespace concorde
