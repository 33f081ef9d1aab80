#include "ml/BlockPrecomputedMlp.h"

#include "common/ConcordeError.h"
#include "features/BlockCombinations.h"

#include <algorithm>

namespace concorde {

BlockPrecomputedMlp::BlockPrecomputedMlp(const Mlp& model, const FeatureNormalizer& normalizer,
                                         const FeatureLayout& layout, const ParameterGrid& grid,
                                         const BlockFeatureSource& source)
    : grid_(grid) {
    if (model.inputs() != static_cast<int>(layout.width()) ||
        normalizer.features() != static_cast<int>(layout.width()))
        throw badInput("model, normalisation and feature layout disagree on the input width");
    const Eigen::MatrixXf& w1 = model.weights().front();
    // Fold the normalisation into the first layer: W1·((x − μ) ⊙ s) = (W1·diag(s))·x − W1·(μ ⊙ s).
    const Eigen::MatrixXf scaled = w1 * normalizer.scale().asDiagonal();
    bias_ = model.biases().front() - scaled * normalizer.mean();
    for (const FeatureBlock& block : layout.blocks()) {
        const BlockCombinations combinations(block, grid_);
        Block b;
        std::size_t stride = 1;
        b.paramIndex.resize(block.params.size());
        b.stride.resize(block.params.size());
        // The first parameter is the most significant digit (BlockCombinations' order).
        for (std::size_t j = block.params.size(); j-- > 0;) {
            b.paramIndex[j] = index(block.params[j]);
            b.stride[j] = stride;
            stride *= grid_.size(block.params[j]);
        }
        const auto columns = static_cast<Eigen::Index>(block.width);
        const Eigen::MatrixXf slice =
            scaled.middleCols(static_cast<Eigen::Index>(block.offset), columns);
        b.table.resize(w1.rows(), static_cast<Eigen::Index>(combinations.count()));
        Eigen::VectorXf features(columns);
        CoreConfig config;
        for (std::size_t c = 0; c < combinations.count(); ++c) {
            combinations.apply(c, config);
            source(block, config, std::span<float>(features.data(), block.width));
            b.table.col(static_cast<Eigen::Index>(c)) = slice * features;
        }
        blocks_.push_back(std::move(b));
    }
    foldBlocks();
    weights_.assign(model.weights().begin() + 1, model.weights().end());
    biases_.assign(model.biases().begin() + 1, model.biases().end());
}

void BlockPrecomputedMlp::foldBlocks() {
    // A block whose parameters are a subset of another block's adds its table into that host's:
    // the host's combination determines the member's, so this stays exact, and a prediction
    // then looks up one column per host (15 for the standard layout instead of 41). Blocks
    // without parameters go into the bias.
    std::vector<std::size_t> order(blocks_.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return blocks_[a].paramIndex.size() > blocks_[b].paramIndex.size();
    });
    const auto digit = [&](const Block& host, std::size_t j, std::size_t combination) {
        return combination / host.stride[j] % grid_.size(static_cast<ParamId>(host.paramIndex[j]));
    };
    std::vector<Block> hosts;
    for (const std::size_t i : order) {
        Block& member = blocks_[i];
        if (member.paramIndex.empty()) {
            bias_ += member.table.col(0);
            continue;
        }
        Block* host = nullptr;
        std::vector<std::size_t> position; // of each member parameter among the host's
        for (Block& candidate : hosts) {
            position.clear();
            for (const std::size_t p : member.paramIndex) {
                const auto it =
                    std::find(candidate.paramIndex.begin(), candidate.paramIndex.end(), p);
                if (it == candidate.paramIndex.end())
                    break;
                position.push_back(static_cast<std::size_t>(it - candidate.paramIndex.begin()));
            }
            if (position.size() == member.paramIndex.size()) {
                host = &candidate;
                break;
            }
        }
        if (!host) {
            hosts.push_back(std::move(member));
            continue;
        }
        for (Eigen::Index c = 0; c < host->table.cols(); ++c) {
            std::size_t combination = 0;
            for (std::size_t j = 0; j < position.size(); ++j)
                combination +=
                    digit(*host, position[j], static_cast<std::size_t>(c)) * member.stride[j];
            host->table.col(c) += member.table.col(static_cast<Eigen::Index>(combination));
        }
    }
    blocks_ = std::move(hosts);
}

std::size_t BlockPrecomputedMlp::tableFloats() const {
    std::size_t floats = 0;
    for (const Block& b : blocks_)
        floats += static_cast<std::size_t>(b.table.size());
    return floats;
}

std::array<std::size_t, kParamCount>
BlockPrecomputedMlp::gridIndices(const CoreConfig& config) const {
    std::array<std::size_t, kParamCount> indices{};
    for (std::size_t p = 0; p < kParamCount; ++p) {
        // Grids hold at most a few dozen values: a linear scan beats a binary search here.
        const auto id = static_cast<ParamId>(p);
        const std::vector<double>& values = grid_.values(id);
        const double value = config.value(id);
        std::size_t i = 0;
        while (i < values.size() && values[i] != value)
            ++i;
        indices[p] = i < values.size() ? i : grid_.require(id, value); // require() throws
    }
    return indices;
}

void BlockPrecomputedMlp::firstLayer(const CoreConfig& config, float* out) const {
    const auto indices = gridIndices(config);
    Eigen::Map<Eigen::VectorXf> h(out, bias_.size());
    h = bias_;
    for (const Block& b : blocks_) {
        std::size_t combination = 0;
        for (std::size_t j = 0; j < b.paramIndex.size(); ++j)
            combination += indices[b.paramIndex[j]] * b.stride[j];
        h += b.table.col(static_cast<Eigen::Index>(combination));
    }
    h = h.cwiseMax(0.0f);
}

void BlockPrecomputedMlp::predict(std::span<const CoreConfig> configs,
                                  std::span<double> out) const {
    Eigen::MatrixXf a(bias_.size(), static_cast<Eigen::Index>(configs.size()));
    for (std::size_t i = 0; i < configs.size(); ++i)
        firstLayer(configs[i], a.col(static_cast<Eigen::Index>(i)).data());
    for (std::size_t l = 0; l < weights_.size(); ++l) {
        Eigen::MatrixXf z = weights_[l] * a;
        z.colwise() += biases_[l];
        a = l + 1 < weights_.size()
                ? Eigen::MatrixXf(z.cwiseMax(0.0f))
                : Eigen::MatrixXf(z.unaryExpr([](float x) { return Mlp::softplus(x); }));
    }
    for (std::size_t i = 0; i < configs.size(); ++i)
        out[i] = a(0, static_cast<Eigen::Index>(i));
}

double BlockPrecomputedMlp::predict(const CoreConfig& config) const {
    // Matrix-vector products on per-thread scratch vectors: a live slider must not allocate.
    // (Rounding may differ from the batched path in the last bits; callers that need
    // batch-independent bits use the batched call throughout.)
    thread_local Eigen::VectorXf a, z;
    a.resize(bias_.size());
    firstLayer(config, a.data());
    for (std::size_t l = 0; l < weights_.size(); ++l) {
        z.noalias() = weights_[l] * a;
        z += biases_[l];
        if (l + 1 < weights_.size())
            a = z.cwiseMax(0.0f);
        else
            return Mlp::softplus(z(0));
    }
    return a(0);
}

} // namespace concorde
