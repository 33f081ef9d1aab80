#include "features/BlockCombinations.h"

#include "common/ConcordeError.h"
#include "features/FeatureBlock.h"
#include "params/CoreConfig.h"
#include "params/ParameterSpace.h"

#include <string>

namespace concorde {

BlockCombinations::BlockCombinations(std::vector<ParamId> params, const ParameterGrid& grid)
    : params_(std::move(params)), grid_(grid) {
    for (std::size_t j = 0; j < params_.size(); ++j) {
        for (std::size_t i = 0; i < j; ++i)
            if (params_[i] == params_[j])
                throw usageError("parameter '" + ParameterSpace::spec(params_[j]).key +
                                 "' appears twice in a block's parameters");
        count_ *= radix(j);
    }
}

BlockCombinations::BlockCombinations(const FeatureBlock& block, const ParameterGrid& grid)
    : BlockCombinations(block.params, grid) {}

std::vector<std::size_t> BlockCombinations::gridIndices(std::size_t index) const {
    if (index >= count_)
        throw usageError("combination index " + std::to_string(index) + " is out of range (" +
                         std::to_string(count_) + " combinations)");
    std::vector<std::size_t> digits(params_.size());
    // Peel digits from the least significant (last parameter) up.
    for (std::size_t j = params_.size(); j-- > 0;) {
        digits[j] = index % radix(j);
        index /= radix(j);
    }
    return digits;
}

std::vector<double> BlockCombinations::values(std::size_t index) const {
    const auto digits = gridIndices(index);
    std::vector<double> result(params_.size());
    for (std::size_t j = 0; j < params_.size(); ++j)
        result[j] = grid_.values(params_[j])[digits[j]];
    return result;
}

void BlockCombinations::apply(std::size_t index, CoreConfig& config) const {
    const auto v = values(index);
    for (std::size_t j = 0; j < params_.size(); ++j)
        config.set(params_[j], v[j]);
}

std::size_t BlockCombinations::indexOfGridIndices(const std::vector<std::size_t>& digits) const {
    if (digits.size() != params_.size())
        throw usageError("combination needs " + std::to_string(params_.size()) +
                         " grid indices, got " + std::to_string(digits.size()));
    std::size_t index = 0;
    for (std::size_t j = 0; j < params_.size(); ++j) {
        if (digits[j] >= radix(j))
            throw usageError("grid index " + std::to_string(digits[j]) + " of parameter '" +
                             ParameterSpace::spec(params_[j]).key + "' is out of range");
        index = index * radix(j) + digits[j];
    }
    return index;
}

std::optional<std::size_t> BlockCombinations::tryIndexOf(const CoreConfig& config) const {
    std::size_t index = 0;
    for (std::size_t j = 0; j < params_.size(); ++j) {
        const auto g = grid_.find(params_[j], config.value(params_[j]));
        if (!g)
            return std::nullopt;
        index = index * radix(j) + *g;
    }
    return index;
}

std::size_t BlockCombinations::indexOf(const CoreConfig& config) const {
    std::size_t index = 0;
    for (std::size_t j = 0; j < params_.size(); ++j)
        index = index * radix(j) + grid_.require(params_[j], config.value(params_[j]));
    return index;
}

} // namespace concorde
