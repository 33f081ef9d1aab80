#include "ml/CpiModel.h"

#include "common/ConcordeError.h"
#include "features/FeatureAssembler.h"

#include <algorithm>

namespace concorde {

std::vector<std::size_t> CpiModel::anchorColumns() const {
    std::vector<std::size_t> columns;
    for (const std::string& name : FeatureAssembler::resourceBlocks()) {
        const FeatureBlock* block = layout.find(name);
        if (block && block->kind == BlockKind::Distributions && block->reciprocalMean)
            columns.push_back(block->offset + block->columnWidth(layout.percentiles()) - 1);
    }
    return columns;
}

double CpiModel::anchorCpi(std::span<const float> rawFeatures,
                           std::span<const std::size_t> columns) {
    float anchor = 1e-3f;
    for (const std::size_t c : columns)
        anchor = std::max(anchor, rawFeatures[c]);
    return anchor;
}

Eigen::MatrixXf CpiModel::memberPredictions(const Eigen::MatrixXf& rawFeatures,
                                            std::span<const double> minBoundCpis) const {
    if (needsMinBoundCpi() && minBoundCpis.size() != static_cast<std::size_t>(rawFeatures.cols()))
        throw usageError("a model anchored on the min-of-bounds CPI needs one such CPI per "
                         "sample: " +
                         std::to_string(minBoundCpis.size()) + " given for " +
                         std::to_string(rawFeatures.cols()) + " samples");
    const Eigen::MatrixXf normalised = normalizer.apply(rawFeatures);
    Eigen::MatrixXf out(static_cast<Eigen::Index>(members.size()), rawFeatures.cols());
    for (std::size_t m = 0; m < members.size(); ++m)
        out.row(static_cast<Eigen::Index>(m)) = members[m].predict(normalised).transpose();
    if (output == CpiOutput::MinBoundAnchored)
        for (Eigen::Index j = 0; j < rawFeatures.cols(); ++j)
            out.col(j) *= static_cast<float>(minBoundCpis[static_cast<std::size_t>(j)]);
    if (usesBottleneckCpi()) {
        const std::vector<std::size_t> columns = anchorColumns();
        for (Eigen::Index j = 0; j < rawFeatures.cols(); ++j) {
            const auto anchor = static_cast<float>(
                anchorCpi(std::span<const float>(rawFeatures.col(j).data(),
                                                 static_cast<std::size_t>(rawFeatures.rows())),
                          columns));
            if (output == CpiOutput::BottleneckAnchored)
                out.col(j) *= anchor;
            if (bottleneckFloor)
                out.col(j) = out.col(j).cwiseMax(anchor);
        }
    }
    return out;
}

std::vector<CpiBand> CpiModel::predictBands(const Eigen::MatrixXf& rawFeatures,
                                            std::span<const double> minBoundCpis) const {
    const Eigen::MatrixXf all = memberPredictions(rawFeatures, minBoundCpis);
    std::vector<CpiBand> bands(static_cast<std::size_t>(all.cols()));
    std::vector<double> column(static_cast<std::size_t>(all.rows()));
    for (Eigen::Index j = 0; j < all.cols(); ++j) {
        for (Eigen::Index m = 0; m < all.rows(); ++m)
            column[static_cast<std::size_t>(m)] = all(m, j);
        bands[static_cast<std::size_t>(j)] = band.combine(column);
    }
    return bands;
}

Eigen::VectorXf CpiModel::predict(const Eigen::MatrixXf& rawFeatures) const {
    const std::vector<CpiBand> bands = predictBands(rawFeatures);
    Eigen::VectorXf out(static_cast<Eigen::Index>(bands.size()));
    for (std::size_t j = 0; j < bands.size(); ++j)
        out(static_cast<Eigen::Index>(j)) = static_cast<float>(bands[j].cpi);
    return out;
}

CpiBand CpiModel::predictBand(std::span<const float> rawFeatures) const {
    if (rawFeatures.size() != layout.width())
        throw usageError("feature vector holds " + std::to_string(rawFeatures.size()) +
                         " floats, the model's layout is " + std::to_string(layout.width()));
    const Eigen::Map<const Eigen::VectorXf> raw(rawFeatures.data(),
                                                static_cast<Eigen::Index>(rawFeatures.size()));
    return predictBands(Eigen::MatrixXf(raw)).front();
}

double CpiModel::predict(std::span<const float> rawFeatures) const {
    return predictBand(rawFeatures).cpi;
}

void CpiModel::check(const std::string& context) const {
    const auto width = static_cast<int>(layout.width());
    if (members.empty())
        throw badInput(context + ": the model has no network");
    for (const Mlp& member : members) {
        if (member.inputs() != width || normalizer.features() != width)
            throw badInput(context + ": model parts disagree: layout " + std::to_string(width) +
                           " features, normalisation " + std::to_string(normalizer.features()) +
                           ", network " + std::to_string(member.inputs()));
        if (member.layerSizes() != members.front().layerSizes())
            throw badInput(context + ": the ensemble's members have different shapes");
    }
    if (!linear.empty() && linear.features() != width)
        throw badInput(context + ": the linear baseline has " + std::to_string(linear.features()) +
                       " weights, the layout " + std::to_string(width) + " features");
    if (usesBottleneckCpi() && anchorColumns().empty())
        throw badInput(context + ": a model anchored or floored on the bottleneck CPI needs "
                                 "resource blocks in its layout");
}

void CpiModel::checkAnalysis(const AnalysisRevision& features, const std::string& context) const {
    if (features.loadQueueThroughCommit == loadQueueThroughCommit)
        return;
    const auto kind = [](bool throughCommit) {
        return std::string(throughCommit ? "the load queue through commit"
                                         : "the loads-only load queue");
    };
    throw badInput(context + " holds bounds with " + kind(features.loadQueueThroughCommit) +
                   ", but model '" + name + "' was trained on bounds with " +
                   kind(loadQueueThroughCommit) +
                   ", so it cannot predict from them; build the database with "
                   "--load-queue-model " +
                   (loadQueueThroughCommit ? "through-commit" : "loads-only") +
                   ", or train a model on features like these");
}

std::string CpiModel::outputName(CpiOutput output) {
    switch (output) {
    case CpiOutput::Direct:
        return "direct";
    case CpiOutput::BottleneckAnchored:
        return "bottleneck_anchored";
    case CpiOutput::MinBoundAnchored:
        return "min_bound_anchored";
    }
    return "direct";
}

CpiOutput CpiModel::parseOutput(const std::string& name, const std::string& context) {
    if (name == "direct")
        return CpiOutput::Direct;
    if (name == "bottleneck_anchored")
        return CpiOutput::BottleneckAnchored;
    if (name == "min_bound_anchored")
        return CpiOutput::MinBoundAnchored;
    throw badInput(context + ": unknown model output '" + name +
                   "' (known: direct, bottleneck_anchored, min_bound_anchored)");
}

} // namespace concorde
