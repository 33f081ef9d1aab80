#include "features/FeatureAssembler.h"

#include "common/ConcordeError.h"
#include "features/SeriesSource.h"
#include "params/CoreConfig.h"

#include <algorithm>

namespace concorde {
namespace {

bool isMemoryParam(ParamId id) {
    return id == ParamId::L1dKb || id == ParamId::L1iKb || id == ParamId::L2Kb ||
           id == ParamId::PrefetchDegree;
}

/// GridBounds' series name for a block column.
std::string seriesName(const FeatureBlock& block, const std::string& column) {
    if (block.name == "pipes_upper")
        return "pipes";
    if (block.name == "aux.fences")
        return "fences_pki";
    if (block.name == "aux.branches")
        return "branches_pki." + column;
    if (block.name == "aux.mispredict")
        return "mispredicts_pki";
    if (block.name == "aux.rob_sizes")
        return column;
    constexpr std::string_view latency = "aux.latency_";
    if (block.name.starts_with(latency))
        return "rob." + block.name.substr(latency.size());
    return block.name;
}

} // namespace

SeriesKey FeatureAssembler::keyFor(const FeatureBlock& block, std::size_t column,
                                   const CoreConfig& config) {
    if (block.kind == BlockKind::Parameter)
        throw usageError("block " + block.name + " holds a parameter, not a series");
    if (column >= block.columns.size())
        throw usageError("block " + block.name + " has no column " + std::to_string(column));
    SeriesKey key;
    key.name = seriesName(block, block.columns[column]);
    for (const ParamId id : block.params) {
        if (isMemoryParam(id)) {
            key.memoryDependent = true;
            continue;
        }
        key.settings.emplace_back(id, config.value(id));
    }
    if (key.memoryDependent)
        key.memory =
            MemoryConfig{config.l1dKb(), config.l1iKb(), config.l2Kb(), config.prefetchDegree()};
    // TAGE has no miss-rate knob: its series is stored once, without bp_miss_pct.
    if (block.name == "aux.mispredict" && config.branchPredictor() == BranchPredictorKind::Tage)
        key.settings.erase(
            std::remove_if(key.settings.begin(), key.settings.end(),
                           [](const auto& s) { return s.first == ParamId::BpMissPct; }),
            key.settings.end());
    return key;
}

void FeatureAssembler::assembleBlock(const FeatureBlock& block, const CoreConfig& config,
                                     const SeriesSource& source, std::span<float> out) const {
    if (out.size() != block.width)
        throw usageError("block " + block.name + " is " + std::to_string(block.width) +
                         " floats wide, got " + std::to_string(out.size()));
    switch (block.kind) {
    case BlockKind::Parameter:
        block.encodeParameter(config, out);
        return;
    case BlockKind::Scalars:
        for (std::size_t c = 0; c < block.columns.size(); ++c) {
            const auto values = source.series(keyFor(block, c, config));
            if (values.size() != 1)
                throw badInput("series " + keyFor(block, c, config).text() +
                               " should hold one value, holds " + std::to_string(values.size()));
            out[c] = values[0];
        }
        return;
    case BlockKind::Distributions: {
        const std::size_t w = block.columnWidth(layout_.percentiles());
        for (std::size_t c = 0; c < block.columns.size(); ++c)
            layout_.encodeColumn(block, source.series(keyFor(block, c, config)),
                                 out.subspan(c * w, w));
        return;
    }
    }
}

const std::vector<std::string>& FeatureAssembler::resourceBlocks() {
    static const std::vector<std::string> names = {
        "rob",      "lq",          "sq",           "alu_issue",     "fp_issue",
        "ls_issue", "pipes_upper", "icache_fills", "fetch_buffers", "fetch_width"};
    return names;
}

double FeatureAssembler::minimumBoundCpi(const CoreConfig& config,
                                         const SeriesSource& source) const {
    std::vector<float> minimum;
    for (const auto& name : resourceBlocks()) {
        const auto values = source.series(keyFor(layout_.block(name), 0, config));
        if (minimum.empty())
            minimum.assign(values.begin(), values.end());
        else if (values.size() != minimum.size())
            throw badInput("series " + keyFor(layout_.block(name), 0, config).text() + " has " +
                           std::to_string(values.size()) + " windows, expected " +
                           std::to_string(minimum.size()));
        else
            for (std::size_t w = 0; w < values.size(); ++w)
                minimum[w] = std::min(minimum[w], values[w]);
    }
    if (minimum.empty())
        throw badInput("no windows to compute the min-of-bounds CPI from");
    double cycles = 0;
    for (const float ipc : minimum)
        cycles += 1.0 / std::max(ipc, 1e-3f); // the floor FeatureLayout::encodeColumn uses
    return cycles / static_cast<double>(minimum.size());
}

void FeatureAssembler::assemble(const CoreConfig& config, const SeriesSource& source,
                                std::span<float> out) const {
    if (out.size() != layout_.width())
        throw usageError("feature vector holds " + std::to_string(out.size()) +
                         " floats, the layout is " + std::to_string(layout_.width()) + " wide");
    for (const auto& block : layout_.blocks())
        assembleBlock(block, config, source, out.subspan(block.offset, block.width));
}

std::vector<float> FeatureAssembler::assemble(const CoreConfig& config,
                                              const SeriesSource& source) const {
    std::vector<float> out(layout_.width());
    assemble(config, source, out);
    return out;
}

} // namespace concorde
