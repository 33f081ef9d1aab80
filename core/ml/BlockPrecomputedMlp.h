#pragma once

#include "features/FeatureLayout.h"
#include "features/ParameterGrid.h"
#include "ml/FeatureNormalizer.h"
#include "ml/Mlp.h"
#include "params/CoreConfig.h"

#include <functional>
#include <span>
#include <vector>

namespace concorde {

/// Exact fast inference for one region (docs/design.md §8's speed trick). The first layer is a sum
/// over the layout's blocks, W1·x = Σ_b W1[:, b]·x_b, and each block's features depend only on the
/// few parameters the block names. So, per region, W1[:, b]·x_b is computed once for every
/// combination of block b's parameter grid values (with the z-score normalisation folded into
/// the weights and bias), and a prediction is: look up one precomputed vector per block, add
/// them, then run the remaining small layers.
///
/// Configurations must lie on the grid (slider positions); predict() throws a bad-input
/// ConcordeError naming the parameter otherwise.
class BlockPrecomputedMlp {
public:
    /// Fills `out` (the block's width) with the block's raw, un-normalised features for one
    /// combination of its parameters (the combination's values are set in `config`).
    using BlockFeatureSource = std::function<void(const FeatureBlock& block,
                                                  const CoreConfig& config, std::span<float> out)>;

    BlockPrecomputedMlp(const Mlp& model, const FeatureNormalizer& normalizer,
                        const FeatureLayout& layout, const ParameterGrid& grid,
                        const BlockFeatureSource& source);

    double predict(const CoreConfig& config) const;
    /// Batched: one column of hidden activations per configuration, dense layers as matrices.
    void predict(std::span<const CoreConfig> configs, std::span<double> out) const;

    /// Floats held in the precomputed tables (memory per region = 4 × this).
    std::size_t tableFloats() const;

private:
    struct Block {
        std::vector<std::size_t> paramIndex; ///< ParamId indices, in the block's order
        std::vector<std::size_t> stride;     ///< mixed-radix weight of each parameter's grid index
        Eigen::MatrixXf table;               ///< hidden × combinations
    };
    /// Grid index of every parameter of `config` (throws when off-grid).
    std::array<std::size_t, kParamCount> gridIndices(const CoreConfig& config) const;
    void firstLayer(const CoreConfig& config, float* out) const;
    /// Merges every block into a block whose parameters include its own (see the .cpp).
    void foldBlocks();

    ParameterGrid grid_;
    std::vector<Block> blocks_;
    Eigen::VectorXf bias_;                 ///< b1 − W1·(scale ⊙ mean)
    std::vector<Eigen::MatrixXf> weights_; ///< layers after the first
    std::vector<Eigen::VectorXf> biases_;
};

} // namespace concorde
