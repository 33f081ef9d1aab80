#pragma once

#include "attribution/Attribution.h"
#include "attribution/AttributionReport.h"
#include "attribution/PlayerSet.h"
#include "attribution/ProgramAttribution.h"
#include "attribution/ProgramValue.h"
#include "attribution/ValueFunction.h"
#include "common/JobControl.h"
#include "params/CoreConfig.h"

#include <cstdint>
#include <span>
#include <vector>

namespace concorde {

/// Shapley attribution of the CPI change from a baseline to a target configuration (docs/design.md
/// §9).
///
/// A **coalition** S of players is the baseline with the players in S switched to their target
/// values; its value is CPI(that configuration). Player i's Shapley value is its marginal
/// contribution CPI(S ∪ {i}) − CPI(S) averaged over all orders in which the players can be
/// switched, i.e. φ_i = Σ_{S ∌ i} |S|! (n−|S|−1)! / n! · (CPI(S ∪ {i}) − CPI(S)).
///
/// **Null players**: a player whose parameters are equal in baseline and target changes no
/// configuration, so its value is exactly 0; such players are reported (active = false) but take
/// no part in the computation (removing null players leaves the others' Shapley values unchanged).
/// n below is the number of *active* players.
///
/// **Exact mode** (n ≤ Options::exactMaxPlayers, default 12, or Mode::Exact): every one of the 2^n
/// coalitions is evaluated once, in batches, and the formula above is applied with long-double
/// accumulation. Efficiency holds up to the rounding of the final doubles: |Σφ − (CPI(target) −
/// CPI(baseline))| is a few ulps of the CPI (tests require ≤ 1e-12 relative).
///
/// **Sampling mode** (beyond the threshold, or Mode::Sampling with n ≥ 2): Options::permutations
/// permutations, rounded up to an even number K, drawn as K/2 antithetic pairs — a random
/// permutation and its reverse. Each permutation switches the players one by one from the
/// baseline to the target (n−1 new evaluations: its two ends are the baseline and the target,
/// evaluated once per region); the marginals of the two permutations of a pair are averaged
/// per player (reversing makes an early player late, which cancels much of the order
/// dependence: for values with only pairwise interactions a pair is already exact). The
/// attribution is the mean of the pair averages and its standard error is
/// sd(pair averages) / sqrt(K/2). Efficiency: every permutation's marginals telescope to exactly
/// CPI(target) − CPI(baseline) (the ends are the same two evaluated numbers), so each pair
/// average does, and so does their mean — up to rounding, ≤ 1e-9 relative (in practice ~1e-15).
///
/// **Programs and regions**: each region is attributed on its own; the program-level attribution
/// ("all") is the instruction-weighted mean of the region attributions, which is the Shapley
/// attribution of the program's CPI because that CPI is the weighted mean of the region CPIs and
/// Shapley values are linear in the value function. In sampling mode every region sees the same
/// permutations, so the program-level estimate is the permutation estimate for the program's CPI;
/// its standard error comes from the program-level per-pair marginals (region errors are
/// correlated and must not be combined as if independent).
///
/// **Parallelism and determinism**: TBB, over regions and over chunks of coalitions or of
/// permutation pairs. Permutation i comes from (seed, i) only, chunk sizes depend only on the
/// number of players, and partial results are combined in a fixed order, so results are
/// bit-identical for a given seed whatever the thread count.
///
/// **Cancellation and progress**: through a JobControl: progress counts value-function
/// evaluations over the whole run (never decreasing; a complete run reports done == total), and a
/// cancelled run stops at its next batch and throws jobCancelled ("Shapley attribution was
/// cancelled"). Value-function exceptions propagate.
class ShapleyAttributor {
public:
    enum class Mode { Auto, Exact, Sampling };

    struct Options {
        Mode mode = Mode::Auto;
        /// Auto mode: exact when at most this many players are active.
        std::size_t exactMaxPlayers = 12;
        /// Sampling mode: number of permutations (rounded up to even; at least 4).
        std::size_t permutations = 200;
        std::uint64_t seed = 1;
        /// Worker threads; 0 uses TBB's default (all cores).
        std::size_t threads = 0;
    };

    /// Throws a usage error when sampling would be used with fewer than 4 permutations.
    ShapleyAttributor(PlayerSet players, const CoreConfig& baseline, const CoreConfig& target,
                      Options options);
    ShapleyAttributor(PlayerSet players, const CoreConfig& baseline, const CoreConfig& target)
        : ShapleyAttributor(std::move(players), baseline, target, Options{}) {}

    const PlayerSet& players() const { return players_; }
    const CoreConfig& baseline() const { return baseline_; }
    const CoreConfig& target() const { return target_; }
    const Options& options() const { return options_; }
    /// Indices (into players()) of the players whose parameters differ, in player order.
    const std::vector<std::size_t>& activePlayers() const { return active_; }
    /// The method this attributor uses (resolved from the mode and the active players).
    AttributionMethod method() const { return method_; }
    /// Permutations actually used (even), 0 in exact mode.
    std::size_t permutations() const;
    /// Evaluations a run will make per region.
    std::uint64_t evaluationsPerRegion() const;

    /// The coalition's configuration: the baseline with players[i] switched to the target for
    /// every i where members[i] is true. members.size() must equal players().size().
    CoreConfig coalition(const std::vector<bool>& members) const;

    /// Attributes every region of every program; one progress range covers the whole run.
    /// Programs are validated (ProgramValue::validate()) and their names must be distinct.
    AttributionReport attribute(std::span<const ProgramValue> programs,
                                const JobControl& job = {}) const;
    /// One program.
    ProgramAttribution attribute(const ProgramValue& program, const JobControl& job = {}) const;
    /// One CPI function (a program of one region).
    Attribution attribute(const ValueFunction& value, const JobControl& job = {}) const;

private:
    PlayerSet players_;
    CoreConfig baseline_;
    CoreConfig target_;
    Options options_;
    std::vector<std::size_t> active_;
    AttributionMethod method_ = AttributionMethod::Exact;
};

} // namespace concorde
