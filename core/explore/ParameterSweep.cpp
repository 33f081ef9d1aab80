#include "explore/ParameterSweep.h"

#include "explore/ExplorerModel.h"
#include "features/ParameterGrid.h"

#include <algorithm>
#include <cmath>

namespace concorde {

double ParameterSweep::geometricMean(std::span<const double> cpis) {
    if (cpis.empty())
        return 0.0;
    double logSum = 0.0;
    for (const double cpi : cpis)
        logSum += std::log(cpi);
    return std::exp(logSum / double(cpis.size()));
}

double ParameterSweep::programOrMean(std::span<const double> cpis,
                                     std::optional<std::size_t> program) {
    return program ? cpis[*program] : geometricMean(cpis);
}

ParameterSweep ParameterSweep::compute(const ExplorerModel& model, const CoreConfig& config,
                                       ParamId parameter, const std::string& bandProgram) {
    ParameterSweep sweep;
    sweep.parameter = parameter;
    sweep.values = model.grid().values(parameter);
    sweep.programs = model.programs();
    const CoreConfig base = model.snap(config);
    const auto at = std::find(sweep.values.begin(), sweep.values.end(), base.value(parameter));
    sweep.current = static_cast<std::size_t>(at - sweep.values.begin()); // snapped: on the grid
    const std::vector<CoreConfig> configs = configurations(model.grid(), base, parameter);
    sweep.cpi = model.programCpis(configs);
    for (const auto& row : sweep.cpi)
        sweep.geometricMeanCpi.push_back(geometricMean(row));
    if (!bandProgram.empty() && model.model().band.calibrated() &&
        model.hasProgram(bandProgram)) {
        sweep.bandProgram = bandProgram;
        for (const CoreConfig& c : configs) {
            const CpiBand band = model.predictor().programBand(bandProgram, c);
            sweep.bandLow.push_back(band.low);
            sweep.bandHigh.push_back(band.high);
        }
    }
    return sweep;
}

std::vector<CoreConfig> ParameterSweep::configurations(const ParameterGrid& grid,
                                                       const CoreConfig& onGrid,
                                                       ParamId parameter) {
    const std::vector<double>& values = grid.values(parameter);
    std::vector<CoreConfig> configs(values.size(), onGrid);
    for (std::size_t v = 0; v < values.size(); ++v)
        configs[v].set(parameter, values[v]);
    return configs;
}

} // namespace concorde
