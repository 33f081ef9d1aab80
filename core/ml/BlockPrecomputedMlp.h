#pragma once

#include "features/FeatureLayout.h"
#include "features/ParameterGrid.h"
#include "ml/CpiModel.h"
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
/// An ensemble's first layers are stacked, so one lookup per block serves every member; each
/// member then runs its own small layers. An anchored model's bottleneck CPI (the largest
/// resource-alone CPI, CpiModel::anchorCpi) is a maximum over raw features of a few resource
/// blocks, so each of those blocks also keeps its raw value per combination and the anchor is a
/// maximum of lookups. Predictions equal CpiModel::predictBand on the assembled features.
///
/// Configurations must lie on the grid (slider positions); predict() throws a bad-input
/// ConcordeError naming the parameter otherwise.
class BlockPrecomputedMlp {
public:
    /// Fills `out` (the block's width) with the block's raw, un-normalised features for one
    /// combination of its parameters (the combination's values are set in `config`).
    using BlockFeatureSource = std::function<void(const FeatureBlock& block,
                                                  const CoreConfig& config, std::span<float> out)>;

    BlockPrecomputedMlp(const CpiModel& model, const ParameterGrid& grid,
                        const BlockFeatureSource& source);

    /// The ensemble's mean CPI.
    double predict(const CoreConfig& config) const;
    /// The mean and the calibrated band.
    CpiBand predictBand(const CoreConfig& config) const;
    /// Batched means: one column of hidden activations per configuration, dense layers as
    /// matrices.
    void predict(std::span<const CoreConfig> configs, std::span<double> out) const;
    /// Batched means and bands.
    void predictBands(std::span<const CoreConfig> configs, std::span<CpiBand> out) const;

    std::size_t members() const { return tails_.size(); }
    /// The region's normalised feature centroid: every block's features averaged over its
    /// parameters' grid values (what OutOfDistributionScore compares).
    const Eigen::VectorXf& centroid() const { return centroid_; }
    /// Floats held in the precomputed tables (memory per region = 4 × this).
    std::size_t tableFloats() const;

private:
    struct Block {
        std::vector<std::size_t> paramIndex; ///< ParamId indices, in the block's order
        std::vector<std::size_t> stride;     ///< mixed-radix weight of each parameter's grid index
        Eigen::MatrixXf table;               ///< stacked hidden × combinations
        Eigen::VectorXf anchor;              ///< raw anchor feature per combination, or empty
        std::uint16_t group = 0;             ///< a composed network's group (MlpComposition)
    };
    /// One member's layers after the first, over its rows of the stacked first layer.
    struct Tail {
        Eigen::Index row = 0;
        Eigen::Index rows = 0;
        bool monotone = false; ///< Mlp::activateHidden's mixed activation
        std::vector<Eigen::MatrixXf> weights;
        std::vector<Eigen::VectorXf> biases;
    };
    /// Grid index of every parameter of `config` (throws when off-grid).
    std::array<std::size_t, kParamCount> gridIndices(const CoreConfig& config) const;
    /// The stacked first layer after ReLU into `out`; returns the bottleneck CPI (1e-3 when
    /// the model uses none).
    float firstLayer(const CoreConfig& config, float* out) const;
    /// Every member's CPI for one configuration into `out` (members() values).
    void memberCpis(const CoreConfig& config, double* out) const;
    /// members() × configs CPIs.
    Eigen::MatrixXf memberCpis(std::span<const CoreConfig> configs) const;
    /// Merges every block into a block whose parameters include its own (see the .cpp).
    void foldBlocks();
    /// A composed network: runs each group's sub-network over its host's combinations, repairs
    /// its outputs (MonotoneEnvelope::isotonic) and projects them through the top's first layer.
    void composeGroups(const std::vector<Mlp>& members);

    ParameterGrid grid_;
    std::vector<Block> blocks_;
    Eigen::VectorXf bias_; ///< b1 − W1·(scale ⊙ mean), stacked
    std::vector<Tail> tails_;
    bool anchored_ = false;
    bool floored_ = false;         ///< CpiModel::bottleneckFloor
    float constantAnchor_ = 1e-3f; ///< anchor columns of blocks without parameters
    BandCalibration band_;
    Eigen::VectorXf centroid_;
};

} // namespace concorde
