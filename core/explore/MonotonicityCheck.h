#pragma once

#include "common/JobControl.h"
#include "params/CoreConfig.h"

#include <cstddef>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

namespace concorde {

class DatabasePredictor;
class ParameterGrid;

/// `concorde check-monotone` (issue 17): does the CPI model ever predict a slower core for a
/// bigger one? Growing a resource — every numeric parameter but bp_miss_pct — must not raise a
/// region's predicted CPI by more than a tolerance, and neither must lowering bp_miss_pct. The
/// branch-predictor choice is not checked (neither predictor is the bigger resource).
///
/// For every region and every one of `bases` random base configurations on the predictor's
/// grid, each checked parameter is swept over its whole grid with the others held at the base
/// (one batched prediction per region per group of bases). A violation is one grid step in the
/// growing direction that raises the CPI by more than the tolerance, relative to the step's
/// starting CPI; each sweep's largest rise over any distance (the CPI at a value against the
/// lowest CPI at any smaller resource) is recorded too. Programs' CPIs (the instruction-weighted
/// mean of their regions', from the same predictions) are checked the same way.
///
/// Deterministic for a seed, whatever the thread count. Parallel over regions with TBB.
class MonotonicityCheck {
public:
    /// A parameter the check sweeps, and which way it grows the core.
    struct CheckedParameter {
        ParamId id = ParamId::Rob;
        bool shrinksToGrow = false; ///< true for bp_miss_pct: lower is the better core
    };

    struct Options {
        std::size_t bases = 200; ///< random base configurations (at least 1)
        std::uint64_t seed = 1;
        double tolerance = 0.005;          ///< relative CPI rise allowed per step (0.005: 0.5 %)
        std::vector<std::string> programs; ///< empty: every program of the predictor
        std::size_t worst = 10;            ///< violations kept in Result::worst(Programs)
    };

    /// One step over the tolerance.
    struct Violation {
        std::string program;
        std::optional<std::uint32_t> region; ///< the region's index; none for the program's CPI
        ParamId parameter = ParamId::Rob;
        std::size_t base = 0; ///< which base configuration (the draw number)
        CoreConfig config;    ///< the base configuration
        double from = 0;      ///< parameter value before the step
        double to = 0;        ///< the next grid value in the growing direction
        double fromCpi = 0;
        double toCpi = 0;

        double rise() const { return toCpi / fromCpi - 1.0; }
    };

    /// What one parameter's sweeps found.
    struct ParameterTally {
        CheckedParameter parameter;
        std::size_t sweeps = 0;              ///< region sweeps (regions × bases)
        std::size_t violations = 0;          ///< region steps over the tolerance
        std::size_t sweepsOverTolerance = 0; ///< region sweeps whose largest rise exceeds it
        double maxRise = 0;                  ///< largest region rise over any distance
        std::size_t programViolations = 0;   ///< the same for programs' CPIs
        double maxProgramRise = 0;
    };

    struct Result {
        Options options;
        std::size_t regions = 0;
        std::size_t programs = 0;
        std::size_t evaluations = 0; ///< region CPI predictions made
        std::size_t sweeps = 0;      ///< region sweeps, over every parameter
        std::size_t violations = 0;  ///< region steps over the tolerance, over every parameter
        std::size_t programViolations = 0;
        std::vector<ParameterTally> parameters; ///< in checkedParameters() order
        /// The largest region violations (at most options.worst), largest rise first.
        std::vector<Violation> worst;
        /// The largest violations of programs' CPIs, likewise.
        std::vector<Violation> worstPrograms;
        double seconds = 0;

        bool monotone() const { return violations == 0 && programViolations == 0; }
        /// Every count, each parameter's tally keyed by parameter, the worst violations with
        /// their base configurations.
        nlohmann::json toJson() const;
    };

    /// The parameters checked, in ParamId order.
    static std::vector<CheckedParameter> checkedParameters();

    /// The first `count` base configurations of `seed`: every parameter drawn uniformly and
    /// independently from `grid`, draw b a pure function of (seed, b), so more bases only add
    /// configurations.
    static std::vector<CoreConfig> baseConfigs(const ParameterGrid& grid, std::uint64_t seed,
                                               std::size_t count);

    /// Runs the check on the predictor's grid. A usage ConcordeError for no bases, a negative
    /// tolerance or an unknown program. `job` counts base configurations done; a cancel throws
    /// jobCancelled.
    static Result run(const DatabasePredictor& predictor, const Options& options,
                      const JobControl& job = {});
};

} // namespace concorde
