#include "explore/SensitivityRanking.h"

#include "common/ConcordeError.h"
#include "explore/ExplorerModel.h"
#include "explore/ParameterSweep.h"
#include "features/ParameterGrid.h"
#include "params/ParameterSpace.h"

#include <algorithm>
#include <cmath>

namespace concorde {

double ParameterSensitivity::magnitude() const {
    return std::max(std::abs(lowerChange()), std::abs(upperChange()));
}

namespace {

/// A ranking's configurations: the configuration first, then every step (one batch), with
/// where each parameter's steps are among them.
struct Steps {
    struct Slots {
        std::optional<std::size_t> lower, upper;
    };
    std::vector<CoreConfig> configs;
    std::vector<ParameterSensitivity> ranking; ///< values and steps set, CPIs not yet
    std::vector<Slots> slots;                  ///< per ranking entry
};

Steps stepsAround(const ParameterGrid& grid, const CoreConfig& base) {
    Steps steps;
    steps.configs.push_back(base);
    for (const ParameterSpec& spec : ParameterSpace::all()) {
        const std::vector<double>& values = grid.values(spec.id);
        if (values.size() < 2)
            continue;
        ParameterSensitivity s;
        s.parameter = spec.id;
        s.value = base.value(spec.id);
        const auto at = static_cast<std::size_t>(std::find(values.begin(), values.end(), s.value) -
                                                 values.begin());
        Steps::Slots slot;
        const auto step = [&](std::size_t index) {
            CoreConfig stepped = base;
            stepped.set(spec.id, values[index]);
            steps.configs.push_back(stepped);
            return steps.configs.size() - 1;
        };
        if (at > 0) {
            s.lowerValue = values[at - 1];
            slot.lower = step(at - 1);
        }
        if (at + 1 < values.size()) {
            s.upperValue = values[at + 1];
            slot.upper = step(at + 1);
        }
        steps.ranking.push_back(s);
        steps.slots.push_back(slot);
    }
    return steps;
}

} // namespace

std::vector<CoreConfig> SensitivityRanking::configurations(const ParameterGrid& grid,
                                                           const CoreConfig& onGrid) {
    return stepsAround(grid, onGrid).configs;
}

std::vector<ParameterSensitivity> SensitivityRanking::rank(const ExplorerModel& model,
                                                           const CoreConfig& config,
                                                           const std::string& program) {
    std::optional<std::size_t> programIndex;
    if (!program.empty()) {
        const auto& programs = model.programs();
        const auto it = std::find(programs.begin(), programs.end(), program);
        if (it == programs.end())
            throw usageError("no program '" + program + "' in the database");
        programIndex = static_cast<std::size_t>(it - programs.begin());
    }
    const CoreConfig base = model.snap(config);
    Steps steps = stepsAround(model.grid(), base);
    const std::vector<CoreConfig>& configs = steps.configs;
    std::vector<ParameterSensitivity> ranking = std::move(steps.ranking);
    // One program: only its regions are predicted (a tenth of the work on the shipped database,
    // which keeps the tornado within its 30 ms redraw budget); else every program's mean.
    std::vector<double> cpi;
    if (programIndex) {
        cpi = model.programCpiAt(*programIndex, configs);
    } else {
        for (const std::vector<double>& programs : model.programCpis(configs))
            cpi.push_back(ParameterSweep::programOrMean(programs, std::nullopt));
    }
    for (std::size_t k = 0; k < ranking.size(); ++k) {
        ParameterSensitivity& s = ranking[k];
        s.cpi = cpi[0];
        if (steps.slots[k].lower)
            s.lowerCpi = cpi[*steps.slots[k].lower];
        if (steps.slots[k].upper)
            s.upperCpi = cpi[*steps.slots[k].upper];
    }
    std::stable_sort(ranking.begin(), ranking.end(),
                     [](const ParameterSensitivity& a, const ParameterSensitivity& b) {
                         return a.magnitude() > b.magnitude();
                     });
    return ranking;
}

} // namespace concorde
