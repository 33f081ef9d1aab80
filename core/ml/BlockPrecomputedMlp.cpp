#include "ml/BlockPrecomputedMlp.h"

#include "common/ConcordeError.h"
#include "features/BlockCombinations.h"
#include "features/BlockHosts.h"
#include "ml/MonotoneEnvelope.h"

#include <algorithm>
#include <optional>

namespace concorde {

BlockPrecomputedMlp::BlockPrecomputedMlp(const CpiModel& model, const ParameterGrid& grid,
                                         const BlockFeatureSource& source)
    : grid_(grid), band_(model.band) {
    const FeatureLayout& layout = model.layout;
    const FeatureNormalizer& normalizer = model.normalizer;
    if (model.members.empty())
        throw badInput("the model has no network to precompute");
    for (const Mlp& member : model.members)
        if (member.inputs() != static_cast<int>(layout.width()) ||
            normalizer.features() != static_cast<int>(layout.width()))
            throw badInput("model, normalisation and feature layout disagree on the input width");
    // The members' first layers stacked: one table lookup per block serves them all.
    const bool composed = model.members.front().composed();
    for (const Mlp& member : model.members)
        if (member.composition() != model.members.front().composition())
            throw badInput("the ensemble's members disagree on their composition");
    if (model.output == CpiOutput::MinBoundAnchored)
        throw badInput("a model anchored on the min-of-bounds CPI cannot be predicted from "
                       "precomputed tables: they do not carry the per-window bounds it needs "
                       "(evaluate it on a dataset: concorde evaluate --dataset)");
    if (composed && model.output == CpiOutput::BottleneckAnchored)
        throw badInput("a composed model cannot be anchored on the bottleneck CPI");
    Eigen::Index stacked = 0;
    for (const Mlp& member : model.members)
        stacked += member.weights().front().rows();
    Eigen::MatrixXf w1(stacked, static_cast<Eigen::Index>(layout.width()));
    Eigen::VectorXf b1(stacked);
    Eigen::Index row = 0;
    for (const Mlp& member : model.members) {
        const Eigen::Index rows = member.weights().front().rows();
        w1.middleRows(row, rows) = member.weights().front();
        b1.segment(row, rows) = member.biases().front();
        Tail tail;
        tail.row = row;
        tail.rows = rows;
        tail.monotone = member.monotone();
        tail.weights.assign(member.weights().begin() + 1, member.weights().end());
        tail.biases.assign(member.biases().begin() + 1, member.biases().end());
        tails_.push_back(std::move(tail));
        row += rows;
    }
    // Fold the normalisation into the first layer: W1·((x − μ) ⊙ s) = (W1·diag(s))·x − W1·(μ ⊙ s).
    const Eigen::MatrixXf scaled = w1 * normalizer.scale().asDiagonal();
    bias_ = b1 - scaled * normalizer.mean();
    anchored_ = model.output == CpiOutput::BottleneckAnchored;
    floored_ = model.bottleneckFloor;
    const std::vector<std::size_t> anchors =
        model.usesBottleneckCpi() ? model.anchorColumns() : std::vector<std::size_t>{};
    Eigen::VectorXf rawCentroid = Eigen::VectorXf::Zero(static_cast<Eigen::Index>(layout.width()));
    const std::vector<InputConstraint>& constraints = model.members.front().inputConstraints();
    for (const Mlp& member : model.members)
        if (member.inputConstraints() != constraints)
            throw badInput("the ensemble's members disagree on their monotonicity constraints");
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
        // The block's anchor column, if it holds one (at most column 0's reciprocal mean).
        std::optional<std::size_t> anchorColumn;
        for (const std::size_t a : anchors)
            if (a >= block.offset && a < block.offset + block.width)
                anchorColumn = a - block.offset;
        const auto count = static_cast<Eigen::Index>(combinations.count());
        Eigen::MatrixXf features(columns, count);
        CoreConfig config;
        for (std::size_t c = 0; c < combinations.count(); ++c) {
            combinations.apply(c, config);
            source(
                block, config,
                std::span<float>(features.col(static_cast<Eigen::Index>(c)).data(), block.width));
        }
        // A monotone network needs features that move the right way (MonotoneEnvelope); a
        // composed one repairs its groups' outputs instead (composeGroups).
        if (!constraints.empty() && !composed)
            MonotoneEnvelope::apply(
                block.params, grid_,
                std::span<const InputConstraint>(constraints).subspan(block.offset, block.width),
                features);
        b.table = slice * features;
        rawCentroid.segment(static_cast<Eigen::Index>(block.offset), columns) =
            features.rowwise().mean();
        if (anchorColumn) {
            Eigen::MatrixXf anchor = features.row(static_cast<Eigen::Index>(*anchorColumn));
            // A floor must not rise as the core grows, or it would make a monotone model
            // non-monotone: the down-set minimum (a resource-alone CPI is NonDecreasing in the
            // envelope's terms), which stays below the bound it repairs.
            if (floored_) {
                const std::vector<InputConstraint> rising{InputConstraint::NonDecreasing};
                MonotoneEnvelope::apply(block.params, grid_, rising, anchor);
            }
            b.anchor = anchor.row(0).transpose();
        }
        if (composed)
            b.group = model.members.front().composition().inputGroup[block.offset];
        blocks_.push_back(std::move(b));
    }
    centroid_ = (rawCentroid - normalizer.mean()).cwiseProduct(normalizer.scale());
    foldBlocks();
    if (composed)
        composeGroups(model.members);
}

void BlockPrecomputedMlp::composeGroups(const std::vector<Mlp>& members) {
    // The tables hold each group's first-layer pre-activations per combination of its host's
    // parameters (other groups' rows are structural zeros). Run each group's sub-network on
    // them, repair its outputs over the host's lattice (they may only fall as the core grows:
    // MonotoneEnvelope::isotonic with the NonDecreasing rule), and project them
    // through the monotone top's first layer. Groups that do not vary were folded into the
    // bias and go through the same layers once.
    const MlpComposition& composition = members.front().composition();
    const Eigen::Index units = composition.unitsPerGroup;
    const Eigen::Index outputs = composition.outputsPerGroup;
    const std::vector<InputConstraint> falling(static_cast<std::size_t>(outputs),
                                               InputConstraint::NonDecreasing);
    Eigen::Index stacked = 0;
    for (const Mlp& member : members)
        stacked += member.weights()[2].rows();
    // Runs group g's sub-network of member m on first-layer pre-activations (units × n).
    const auto groupOutputs = [&](const Mlp& member, Eigen::Index firstRow, Eigen::Index g,
                                  const Eigen::MatrixXf& pre) {
        const Eigen::MatrixXf hidden = pre.middleRows(firstRow + g * units, units).cwiseMax(0.0f);
        Eigen::MatrixXf z =
            member.weights()[1].block(g * outputs, g * units, outputs, units) * hidden;
        z.colwise() += member.biases()[1].segment(g * outputs, outputs);
        return z; // the group outputs are linear (Mlp::linearLayer)
    };
    Eigen::VectorXf bias(stacked);
    {
        const Eigen::MatrixXf pre = bias_;
        Eigen::Index firstRow = 0, row = 0;
        for (const Mlp& member : members) {
            const Eigen::Index rows = member.weights()[2].rows();
            bias.segment(row, rows) = member.biases()[2];
            for (std::size_t g = 0; g < composition.groups(); ++g)
                if (!composition.groupVaries[g]) {
                    const auto gi = static_cast<Eigen::Index>(g);
                    bias.segment(row, rows) +=
                        member.weights()[2].middleCols(gi * outputs, outputs) *
                        groupOutputs(member, firstRow, gi, pre).col(0);
                }
            firstRow += member.weights()[0].rows();
            row += rows;
        }
    }
    for (Block& host : blocks_) {
        const auto g = static_cast<Eigen::Index>(host.group);
        std::vector<ParamId> params;
        for (const std::size_t p : host.paramIndex)
            params.push_back(static_cast<ParamId>(p));
        Eigen::MatrixXf pre = host.table;
        pre.colwise() += bias_;
        Eigen::MatrixXf table(stacked, host.table.cols());
        Eigen::Index firstRow = 0, row = 0;
        for (const Mlp& member : members) {
            Eigen::MatrixXf z = groupOutputs(member, firstRow, g, pre);
            MonotoneEnvelope::isotonic(params, grid_, falling, z);
            table.middleRows(row, member.weights()[2].rows()) =
                member.weights()[2].middleCols(g * outputs, outputs) * z;
            firstRow += member.weights()[0].rows();
            row += member.weights()[2].rows();
        }
        host.table = std::move(table);
    }
    bias_ = std::move(bias);
    // The tails start after the top's first layer.
    Eigen::Index row = 0;
    for (std::size_t m = 0; m < members.size(); ++m) {
        Tail& tail = tails_[m];
        tail.row = row;
        tail.rows = members[m].weights()[2].rows();
        tail.monotone = true;
        tail.weights.assign(members[m].weights().begin() + 3, members[m].weights().end());
        tail.biases.assign(members[m].biases().begin() + 3, members[m].biases().end());
        row += tail.rows;
    }
}

void BlockPrecomputedMlp::foldBlocks() {
    // A block whose parameters are a subset of another block's adds its table into that host's
    // (BlockHosts): the host's combination determines the member's, so this stays exact, and a
    // prediction then looks up one column per host (14 for the standard layout).
    // Blocks without parameters go into the bias. Anchor values fold by maximum, as the anchor
    // is one.
    std::vector<std::vector<ParamId>> params;
    for (const Block& b : blocks_) {
        params.emplace_back();
        for (const std::size_t p : b.paramIndex)
            params.back().push_back(static_cast<ParamId>(p));
    }
    const BlockHosts::Assignment assignment = BlockHosts::of(params);
    const auto digit = [&](const Block& host, std::size_t j, std::size_t combination) {
        return combination / host.stride[j] % grid_.size(static_cast<ParamId>(host.paramIndex[j]));
    };
    std::vector<std::size_t> hostOrder;
    for (const std::size_t i : assignment.order) {
        Block& member = blocks_[i];
        const int hostIndex = assignment.host[i];
        if (hostIndex < 0) {
            bias_ += member.table.col(0);
            if (member.anchor.size())
                constantAnchor_ = std::max(constantAnchor_, member.anchor(0));
            continue;
        }
        if (hostIndex == static_cast<int>(i)) {
            hostOrder.push_back(i);
            continue;
        }
        Block& host = blocks_[static_cast<std::size_t>(hostIndex)];
        std::vector<std::size_t> position; // of each member parameter among the host's
        for (const std::size_t p : member.paramIndex)
            position.push_back(static_cast<std::size_t>(
                std::find(host.paramIndex.begin(), host.paramIndex.end(), p) -
                host.paramIndex.begin()));
        if (member.anchor.size() && !host.anchor.size())
            host.anchor = Eigen::VectorXf::Constant(host.table.cols(), 1e-3f);
        for (Eigen::Index c = 0; c < host.table.cols(); ++c) {
            std::size_t combination = 0;
            for (std::size_t j = 0; j < position.size(); ++j)
                combination +=
                    digit(host, position[j], static_cast<std::size_t>(c)) * member.stride[j];
            const auto from = static_cast<Eigen::Index>(combination);
            host.table.col(c) += member.table.col(from);
            if (member.anchor.size())
                host.anchor(c) = std::max(host.anchor(c), member.anchor(from));
        }
    }
    std::vector<Block> hosts;
    for (const std::size_t i : hostOrder)
        hosts.push_back(std::move(blocks_[i]));
    blocks_ = std::move(hosts);
}

std::size_t BlockPrecomputedMlp::tableFloats() const {
    std::size_t floats = 0;
    for (const Block& b : blocks_)
        floats += static_cast<std::size_t>(b.table.size() + b.anchor.size());
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

float BlockPrecomputedMlp::firstLayer(const CoreConfig& config, float* out) const {
    const auto indices = gridIndices(config);
    Eigen::Map<Eigen::VectorXf> h(out, bias_.size());
    h = bias_;
    float anchor = constantAnchor_;
    for (const Block& b : blocks_) {
        std::size_t combination = 0;
        for (std::size_t j = 0; j < b.paramIndex.size(); ++j)
            combination += indices[b.paramIndex[j]] * b.stride[j];
        h += b.table.col(static_cast<Eigen::Index>(combination));
        if (b.anchor.size())
            anchor = std::max(anchor, b.anchor(static_cast<Eigen::Index>(combination)));
    }
    for (const Tail& tail : tails_)
        Mlp::activateHidden(h.segment(tail.row, tail.rows), tail.monotone);
    return anchor;
}

Eigen::MatrixXf BlockPrecomputedMlp::memberCpis(std::span<const CoreConfig> configs) const {
    const auto n = static_cast<Eigen::Index>(configs.size());
    Eigen::MatrixXf first(bias_.size(), n);
    Eigen::RowVectorXf anchor(n);
    for (Eigen::Index i = 0; i < n; ++i)
        anchor(i) = firstLayer(configs[static_cast<std::size_t>(i)], first.col(i).data());
    const Eigen::RowVectorXf factor = anchored_ ? anchor : Eigen::RowVectorXf::Ones(n);
    Eigen::MatrixXf out(static_cast<Eigen::Index>(tails_.size()), n);
    for (std::size_t m = 0; m < tails_.size(); ++m) {
        const Tail& tail = tails_[m];
        Eigen::MatrixXf a = first.middleRows(tail.row, tail.rows);
        for (std::size_t l = 0; l < tail.weights.size(); ++l) {
            Eigen::MatrixXf z = tail.weights[l] * a;
            z.colwise() += tail.biases[l];
            if (l + 1 < tail.weights.size()) {
                Mlp::activateHidden(z, tail.monotone);
                a = std::move(z);
            } else {
                a = z.unaryExpr([](float x) { return Mlp::softplus(x); });
            }
        }
        out.row(static_cast<Eigen::Index>(m)) = a.row(0).cwiseProduct(factor);
        if (floored_)
            out.row(static_cast<Eigen::Index>(m)) =
                out.row(static_cast<Eigen::Index>(m)).cwiseMax(anchor);
    }
    return out;
}

void BlockPrecomputedMlp::predict(std::span<const CoreConfig> configs,
                                  std::span<double> out) const {
    const Eigen::MatrixXf all = memberCpis(configs);
    std::vector<double> column(tails_.size());
    for (std::size_t i = 0; i < configs.size(); ++i) {
        for (std::size_t m = 0; m < tails_.size(); ++m)
            column[m] = all(static_cast<Eigen::Index>(m), static_cast<Eigen::Index>(i));
        out[i] = band_.centre(column);
    }
}

void BlockPrecomputedMlp::predictBands(std::span<const CoreConfig> configs,
                                       std::span<CpiBand> out) const {
    const Eigen::MatrixXf all = memberCpis(configs);
    std::vector<double> column(tails_.size());
    for (std::size_t i = 0; i < configs.size(); ++i) {
        for (std::size_t m = 0; m < tails_.size(); ++m)
            column[m] = all(static_cast<Eigen::Index>(m), static_cast<Eigen::Index>(i));
        out[i] = band_.combine(column);
    }
}

void BlockPrecomputedMlp::memberCpis(const CoreConfig& config, double* out) const {
    // Matrix-vector products on per-thread scratch vectors: a live slider must not allocate.
    // (Rounding may differ from the batched path in the last bits; callers that need
    // batch-independent bits use the batched call throughout.)
    thread_local Eigen::VectorXf first, a, z;
    first.resize(bias_.size());
    const float anchor = firstLayer(config, first.data());
    for (std::size_t m = 0; m < tails_.size(); ++m) {
        const Tail& tail = tails_[m];
        a = first.segment(tail.row, tail.rows);
        for (std::size_t l = 0; l < tail.weights.size(); ++l) {
            z.noalias() = tail.weights[l] * a;
            z += tail.biases[l];
            if (l + 1 < tail.weights.size()) {
                Mlp::activateHidden(z, tail.monotone);
                a = z;
            }
        }
        const float cpi = Mlp::softplus(z(0)) * (anchored_ ? anchor : 1.0f);
        out[m] = static_cast<double>(floored_ ? std::max(cpi, anchor) : cpi);
    }
}

double BlockPrecomputedMlp::predict(const CoreConfig& config) const {
    thread_local std::vector<double> cpis;
    cpis.resize(tails_.size());
    memberCpis(config, cpis.data());
    return band_.centre(cpis);
}

CpiBand BlockPrecomputedMlp::predictBand(const CoreConfig& config) const {
    thread_local std::vector<double> cpis;
    cpis.resize(tails_.size());
    memberCpis(config, cpis.data());
    return band_.combine(cpis);
}

} // namespace concorde
