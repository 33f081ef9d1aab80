#pragma once

#include <nlohmann/json_fwd.hpp>
#include <span>
#include <vector>

namespace concorde {

/// A CPI prediction with its uncertainty band: `cpi` is the ensemble mean, [low, high] the band
/// (low = high = cpi for a single model without calibration).
struct CpiBand {
    double cpi = 0;
    double low = 0;
    double high = 0;
    bool contains(double value) const { return value >= low && value <= high; }
};

/// Turns the member predictions of an ensemble into a mean and a calibrated band
/// (docs/design.md §8). The members' disagreement alone underestimates the error on programs
/// they never saw, so the band's half-width in log space is scale × (spread + floor), where the
/// spread is the standard deviation of the members' log CPIs and the floor keeps a band where
/// the members happen to agree. `scale` is fitted so that a chosen fraction of a calibration set
/// (regions the members never trained on) falls inside.
///
/// The centre is the members' mean, or with `firstIsCentre` the first member's prediction: an
/// ensemble whose first member trained on every program (the others on bootstraps of them)
/// centres on that member, so that a program some bootstrap left out does not pull the
/// prediction for it, while the others' disagreement still sets the width.
class BandCalibration {
public:
    BandCalibration() = default;
    BandCalibration(double scale, double floor, double coverage, bool firstIsCentre = false);

    /// Fits the scale for `coverage` (0 < coverage < 1): memberCpis[i] holds every member's
    /// prediction of sample i, targets[i] its simulated CPI. Throws a usage error when the sizes
    /// disagree or nothing is given.
    ///
    /// With `deployedMembers` > 0, samples may have fewer members than the ensemble that will
    /// use the band (out-of-bag calibration), and each sample's spread is rescaled to what that
    /// many members would show on average: the standard deviation of n normal draws averages
    /// spreadBias(n)·σ, which grows with n, so a spread of 2 members is multiplied by
    /// spreadBias(deployedMembers) / spreadBias(2).
    static BandCalibration fit(const std::vector<std::vector<double>>& memberCpis,
                               std::span<const double> targets, double coverage,
                               double floor = kDefaultFloor, bool firstIsCentre = false,
                               std::size_t deployedMembers = 0);
    /// E[population standard deviation of n normal draws] / σ = c4(n)·√((n − 1)/n); 0 for n < 2.
    static double spreadBias(std::size_t n);

    /// Centre and band of one sample's member predictions (all positive).
    CpiBand combine(std::span<const double> memberCpis) const;
    /// Just the centre (the mean, or the first member).
    double centre(std::span<const double> memberCpis) const;
    bool firstIsCentre() const { return firstIsCentre_; }

    double scale() const { return scale_; }
    double floor() const { return floor_; }
    /// The fraction of the calibration set the band was fitted to hold (0: uncalibrated).
    double coverage() const { return coverage_; }
    bool calibrated() const { return scale_ > 0; }

    /// {"scale", "floor", "coverage", "centre": "mean" | "first"}.
    nlohmann::json toJson() const;
    /// Throws a bad-input ConcordeError naming the field on malformed JSON.
    static BandCalibration fromJson(const nlohmann::json& json, const std::string& context);

    static constexpr double kDefaultFloor = 0.01;

private:
    double scale_ = 0;
    double floor_ = 0;
    double coverage_ = 0;
    bool firstIsCentre_ = false;
};

} // namespace concorde
