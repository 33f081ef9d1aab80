#pragma once

#include "params/CoreConfig.h"

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace concorde {

class ExplorerModel;
class ParameterGrid;

/// The predicted CPI of every program across every grid value of one parameter, the other
/// parameters held at a configuration: what the explorer's sweep view draws (issue 18), one
/// batched prediction per region.
struct ParameterSweep {
    ParamId parameter = ParamId::Rob;
    std::vector<double> values;        ///< the database grid's values of the parameter, ascending
    std::size_t current = 0;           ///< index in `values` of the configuration's (snapped) value
    std::vector<std::string> programs; ///< the model's programs, in its order
    std::vector<std::vector<double>> cpi; ///< cpi[v][p]: program p at values[v]
    std::vector<double> geometricMeanCpi; ///< per value, over the programs
    /// The band of program `bandProgram` at each value (an ensemble model's); empty when the
    /// model carries no band or no program was asked for.
    std::string bandProgram;
    std::vector<double> bandLow;
    std::vector<double> bandHigh;

    /// Sweeps `parameter` of `config` (snapped to the model's grid) over the grid; with
    /// `bandProgram`, also that program's band.
    static ParameterSweep compute(const ExplorerModel& model, const CoreConfig& config,
                                  ParamId parameter, const std::string& bandProgram = {});
    /// The configurations compute() predicts: `onGrid` (on `grid`) with `parameter` at each of
    /// its grid values, ascending. What a one-shot export precomputes for a sweep.
    static std::vector<CoreConfig> configurations(const ParameterGrid& grid,
                                                  const CoreConfig& onGrid, ParamId parameter);

    /// The geometric mean of `cpis` (0 for none). Also what the sensitivity ranking averages.
    static double geometricMean(std::span<const double> cpis);
    /// `cpis[program]`, or their geometric mean when `program` is empty: one program's view of
    /// a row of ExplorerModel::programCpis, or all programs'.
    static double programOrMean(std::span<const double> cpis, std::optional<std::size_t> program);
};

} // namespace concorde
