#pragma once

#include "params/CoreConfig.h"

#include <optional>
#include <string>
#include <vector>

namespace concorde {

class ExplorerModel;
class ParameterGrid;

/// One parameter's effect on the predicted CPI one grid step below and above a configuration.
struct ParameterSensitivity {
    ParamId parameter = ParamId::Rob;
    double value = 0;                 ///< the configuration's (snapped) value
    std::optional<double> lowerValue; ///< one grid step down; none at the grid's start
    std::optional<double> upperValue; ///< one grid step up; none at the grid's end
    double cpi = 0;                   ///< at the configuration
    double lowerCpi = 0;              ///< at lowerValue (0 when none)
    double upperCpi = 0;              ///< at upperValue (0 when none)

    /// Relative CPI change one step down / up (0.05: 5 % slower); 0 where there is no step.
    double lowerChange() const { return lowerValue ? lowerCpi / cpi - 1.0 : 0.0; }
    double upperChange() const { return upperValue ? upperCpi / cpi - 1.0 : 0.0; }
    /// The larger of the two changes' sizes: what the ranking sorts by.
    double magnitude() const;
};

/// The explorer's sensitivity ranking (the tornado chart, issue 18): for a configuration and
/// one program or the geometric mean over every program, the predicted CPI change of every
/// parameter one grid step down and one step up, largest first. One batched prediction per
/// region for all the steps.
class SensitivityRanking {
public:
    /// Every parameter with at least two grid values, for `program` (empty: the geometric mean
    /// over the model's programs), sorted by magnitude(), largest first (ties in parameter
    /// order). `config` is snapped to the model's grid first. A usage ConcordeError for an
    /// unknown program.
    static std::vector<ParameterSensitivity>
    rank(const ExplorerModel& model, const CoreConfig& config, const std::string& program = {});
    /// The configurations rank() predicts: `onGrid` (on `grid`), then every parameter one grid
    /// step down and up. What a one-shot export precomputes for a ranking.
    static std::vector<CoreConfig> configurations(const ParameterGrid& grid,
                                                  const CoreConfig& onGrid);
};

} // namespace concorde
