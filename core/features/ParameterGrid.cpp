#include "features/ParameterGrid.h"

#include "common/ConcordeError.h"
#include "params/CoreConfig.h"
#include "params/ParameterSpace.h"

#include <algorithm>

namespace concorde {

ParameterGrid::ParameterGrid() {
    for (const auto& spec : ParameterSpace::all())
        grids_[index(spec.id)] = spec.grid;
}

ParameterGrid::ParameterGrid(const std::map<ParamId, std::vector<double>>& overrides)
    : ParameterGrid() {
    for (const auto& [id, values] : overrides)
        set(id, values);
}

ParameterGrid::ParameterGrid(const std::array<std::vector<double>, kParamCount>& grids) {
    for (const auto& spec : ParameterSpace::all())
        set(spec.id, grids[index(spec.id)]);
}

void ParameterGrid::set(ParamId id, std::vector<double> values) {
    const auto& spec = ParameterSpace::spec(id);
    if (values.empty())
        throw badInput("grid of parameter '" + spec.key + "' is empty");
    for (std::size_t i = 0; i < values.size(); ++i) {
        try {
            CoreConfig::validate(id, values[i]);
        } catch (const ConcordeError& e) {
            throw badInput("grid of parameter '" + spec.key + "': " + e.what());
        }
        if (i > 0 && !(values[i] > values[i - 1]))
            throw badInput("grid of parameter '" + spec.key +
                           "' must be strictly ascending; value " + spec.formatValue(values[i]) +
                           " follows " + spec.formatValue(values[i - 1]));
    }
    grids_[index(id)] = std::move(values);
}

std::optional<std::size_t> ParameterGrid::find(ParamId id, double value) const {
    const auto& grid = values(id);
    const auto it = std::lower_bound(grid.begin(), grid.end(), value);
    if (it == grid.end() || *it != value)
        return std::nullopt;
    return static_cast<std::size_t>(it - grid.begin());
}

std::size_t ParameterGrid::require(ParamId id, double value) const {
    if (auto i = find(id, value))
        return *i;
    const auto& spec = ParameterSpace::spec(id);
    std::string list;
    for (const double v : values(id))
        list += (list.empty() ? "" : " ") + spec.formatValue(v);
    throw badInput("parameter '" + spec.key + "' = " + spec.formatValue(value) +
                   " is not on the grid (" + list + ")");
}

} // namespace concorde
