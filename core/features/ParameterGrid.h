#pragma once

#include "params/ParameterSpec.h"

#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <vector>

namespace concorde {

/// The values each parameter may take in a database or dataset: by default the grids of
/// ParameterSpace (docs/design.md §3), optionally overridden per parameter. Every grid is
/// non-empty, strictly ascending and inside the parameter's accepted range (checked on
/// construction).
class ParameterGrid {
public:
    /// Every parameter on its ParameterSpace grid.
    ParameterGrid();
    /// ParameterSpace grids, with the given parameters replaced. Throws a bad-input
    /// ConcordeError naming the parameter for an empty, unsorted or out-of-range grid.
    explicit ParameterGrid(const std::map<ParamId, std::vector<double>>& overrides);

    const std::vector<double>& values(ParamId id) const {
        return grids_[static_cast<std::size_t>(id)];
    }
    std::size_t size(ParamId id) const { return values(id).size(); }
    /// Every parameter's grid given, indexed by ParamId (e.g. a database's BoundsGrid).
    explicit ParameterGrid(const std::array<std::vector<double>, kParamCount>& grids);
    /// Replaces one parameter's grid (validated as above).
    void set(ParamId id, std::vector<double> values);

    /// Position of `value` on the grid of `id` (exact match), or nullopt.
    std::optional<std::size_t> find(ParamId id, double value) const;
    /// Like find() but throws a bad-input error naming the parameter, the value and the grid.
    std::size_t require(ParamId id, double value) const;

    bool operator==(const ParameterGrid&) const = default;

private:
    std::array<std::vector<double>, kParamCount> grids_;
};

} // namespace concorde
