#pragma once

#include "features/ParameterGrid.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace concorde {

class CoreConfig;
struct FeatureBlock;

/// The distinct combinations of a feature block's parameters over a grid, each with a stable
/// index: the cartesian product of the parameters' grids, numbered in mixed radix over the grid
/// indices, with the block's first parameter as the most significant digit (row-major, like a
/// C array): for parameters p_0 … p_{m−1} with grid sizes n_j and grid indices g_j,
///
///   index = (…((g_0 · n_1 + g_1) · n_2 + g_2) …) · n_{m−1} + g_{m−1}.
///
/// A block without parameters has exactly one combination (index 0). A later stage precomputes
/// W1_block · x_block per combination; this class maps a configuration to its row.
class BlockCombinations {
public:
    /// Combinations of `params` (in that order) over `grid`.
    BlockCombinations(std::vector<ParamId> params, const ParameterGrid& grid);
    /// Combinations of the block's parameters.
    BlockCombinations(const FeatureBlock& block, const ParameterGrid& grid);

    const std::vector<ParamId>& params() const { return params_; }
    /// Π n_j (1 for no parameters).
    std::size_t count() const { return count_; }

    /// The grid index g_j of each parameter for combination `index` (usage error if ≥ count()).
    std::vector<std::size_t> gridIndices(std::size_t index) const;
    /// The parameter values of combination `index`, in params() order.
    std::vector<double> values(std::size_t index) const;
    /// Sets the block's parameters of `config` to combination `index`.
    void apply(std::size_t index, CoreConfig& config) const;
    /// The index of the combination `config` is at, or nullopt if one of the block's parameters
    /// is not on the grid.
    std::optional<std::size_t> tryIndexOf(const CoreConfig& config) const;
    /// Like tryIndexOf() but throws a bad-input error naming the off-grid parameter and value.
    std::size_t indexOf(const CoreConfig& config) const;
    /// Index from grid indices (one per parameter, each below its grid size).
    std::size_t indexOfGridIndices(const std::vector<std::size_t>& gridIndices) const;

private:
    std::size_t radix(std::size_t j) const { return grid_.size(params_[j]); }

    std::vector<ParamId> params_;
    ParameterGrid grid_;
    std::size_t count_ = 1;
};

} // namespace concorde
