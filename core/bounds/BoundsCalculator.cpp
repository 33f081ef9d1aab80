#include "bounds/BoundsCalculator.h"

#include "analysis/MemoryConfig.h"
#include "bounds/FrontEndModel.h"
#include "bounds/IssueModel.h"
#include "bounds/QueueModel.h"
#include "bounds/RegionIndex.h"
#include "bounds/RobModel.h"
#include "common/ConcordeError.h"

#include <algorithm>

namespace concorde {

const std::vector<std::uint32_t>& BoundsCalculator::auxiliaryRobSizes() {
    static const std::vector<std::uint32_t> sizes = {16, 32, 64, 128, 256, 512};
    return sizes;
}

BoundsCalculator::Prepared::Prepared(const AnnotatedRegion& r, std::uint32_t windowSize)
    : region(r), index(r), rob(r), counts(IssueModel::count(r, windowSize)) {
    const std::size_t windows = WindowBounds::windowCount(r.size(), windowSize);
    WindowSeries fences(windows, 0.0f);
    std::array<WindowSeries, kBranchKindCount> branches;
    for (auto& b : branches)
        b.assign(windows, 0.0f);
    for (std::size_t i = 0; i < r.size(); ++i) {
        const std::size_t k = i / windowSize;
        fences[k] += r[i].instrClass == InstrClass::Fence;
        branches[static_cast<std::size_t>(r[i].branchKind)][k] += 1;
    }
    // Counts per 1000 instructions, so a short last window is comparable.
    for (std::size_t k = 0; k < windows; ++k) {
        const float perKilo = static_cast<float>(1000.0 / counts.instructions[k]);
        fences[k] *= perKilo;
        for (std::size_t b = 1; b < kBranchKindCount; ++b)
            branches[b][k] *= perKilo;
    }
    fixedAuxiliary["fences_pki"] = std::move(fences);
    for (std::size_t b = 1; b < kBranchKindCount; ++b)
        fixedAuxiliary["branches_pki." + std::string(branchKindName(static_cast<BranchKind>(b)))] =
            std::move(branches[b]);
}

ResourceBounds BoundsCalculator::compute(const AnnotatedRegion& region, const CoreConfig& config,
                                         bool withFixedRobSizes) const {
    Prepared prepared(region, windowSize_);
    return compute(prepared, config, withFixedRobSizes);
}

ResourceBounds BoundsCalculator::compute(Prepared& prepared, const CoreConfig& config,
                                         bool withFixedRobSizes) const {
    const AnnotatedRegion& region = prepared.region;
    if (!(MemoryConfig::fromCoreConfig(config) == region.memoryConfig))
        throw badInput("bounds: the region was analysed for " + region.memoryConfig.toString() +
                       " but the configuration has " +
                       MemoryConfig::fromCoreConfig(config).toString());
    ResourceBounds bounds;
    bounds.windowSize = windowSize_;
    bounds.instructions = region.size();
    const std::size_t windows = WindowBounds::windowCount(region.size(), windowSize_);
    const auto add = [&](std::string name, WindowSeries series) {
        bounds.resources.push_back(std::move(name));
        bounds.series.push_back(std::move(series));
    };
    const RegionIndex& index = prepared.index;
    const IssueModel::Counts& counts = prepared.counts;

    const RobModel::Result rob =
        prepared.rob.run(static_cast<std::uint32_t>(config.rob()), windowSize_);
    add("rob", rob.ipc);
    const auto loadQueue = static_cast<std::uint32_t>(config.loadQueue());
    add("lq", analysis_.loadQueueThroughCommit
                  ? prepared.rob.runLoadQueue(loadQueue, windowSize_).ipc
                  : QueueModel::run(index, QueueModel::Kind::Load, loadQueue, windowSize_));
    add("sq", QueueModel::run(index, QueueModel::Kind::Store, config.storeQueue(), windowSize_));
    add("alu_issue", IssueModel::width(counts, IssueGroup::Alu, config.aluIssue()));
    add("fp_issue", IssueModel::width(counts, IssueGroup::Fp, config.fpIssue()));
    add("ls_issue", IssueModel::width(counts, IssueGroup::Memory, config.lsIssue()));
    IssueModel::PipeBounds pipes = IssueModel::pipes(counts, config.lsPipes(), config.loadPipes());
    add("pipes", std::move(pipes.upper));
    bounds.auxiliary["pipes_lower"] = std::move(pipes.lower);
    add("icache_fills",
        FrontEndModel::icacheFills(index, config.icacheFills(), windowSize_, icacheHitCycles_));
    add("fetch_buffers",
        FrontEndModel::fetchBuffers(index, config.fetchBuffers(), windowSize_, icacheHitCycles_));
    add("fetch_width", FrontEndModel::fetchWidth(index, config.fetchWidth(), windowSize_));
    // Fixed widths bound every window by the width itself.
    for (const auto& [name, width] : {std::pair{"commit_width", config.commitWidth()},
                                      std::pair{"decode_width", config.decodeWidth()},
                                      std::pair{"rename_width", config.renameWidth()}})
        add(name, WindowSeries(windows, static_cast<float>(width)));

    bounds.binding.assign(windows, 0);
    for (std::size_t k = 0; k < windows; ++k) {
        std::size_t best = 0;
        for (std::size_t r = 1; r < bounds.series.size(); ++r)
            if (bounds.series[r][k] < bounds.series[best][k])
                best = r;
        bounds.binding[k] = static_cast<std::uint16_t>(best);
    }

    // Auxiliary features.
    bounds.auxiliary["rob.issue_wait"] = rob.issueWait;
    bounds.auxiliary["rob.execution"] = rob.execution;
    bounds.auxiliary["rob.commit_wait"] = rob.commitWait;
    for (const auto& [name, series] : prepared.fixedAuxiliary)
        bounds.auxiliary[name] = series;
    const auto mispredicted = region.mispredictions(config.branchPredictor(), config.bpMissPct());
    WindowSeries mispredicts(windows, 0.0f);
    std::uint64_t totalMispredicts = 0;
    for (std::size_t i = 0; i < region.size(); ++i) {
        mispredicts[i / windowSize_] += mispredicted[i];
        totalMispredicts += mispredicted[i];
    }
    for (std::size_t k = 0; k < windows; ++k)
        mispredicts[k] *= static_cast<float>(1000.0 / counts.instructions[k]);
    bounds.auxiliary["mispredicts_pki"] = std::move(mispredicts);
    const auto predicted =
        region.stats.perBranchKind[static_cast<std::size_t>(BranchKind::DirectConditional)] +
        region.stats.perBranchKind[static_cast<std::size_t>(BranchKind::Indirect)] +
        region.stats.perBranchKind[static_cast<std::size_t>(BranchKind::Call)] +
        region.stats.perBranchKind[static_cast<std::size_t>(BranchKind::Return)];
    bounds.scalars["mispredict_rate"] =
        predicted ? double(totalMispredicts) / double(predicted) : 0.0;
    if (withFixedRobSizes)
        for (std::uint32_t size : auxiliaryRobSizes())
            bounds.scalars["rob_" + std::to_string(size)] =
                size == static_cast<std::uint32_t>(config.rob())
                    ? rob.overallIpc
                    : prepared.rob.run(size, windowSize_).overallIpc;
    return bounds;
}

} // namespace concorde
