#include "explore/ReferenceIpc.h"

#include "common/ConcordeError.h"
#include "features/ParameterGrid.h"
#include "store/DatabaseRows.h"
#include "store/FeatureDatabase.h"
#include "store/SeriesGroupCodec.h"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

namespace concorde {
namespace {

/// Position of `value` on `values`: exact when on the grid, else the nearest value's.
double gridPosition(const std::vector<double>& values, double value) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < values.size(); ++i)
        if (std::abs(values[i] - value) < std::abs(values[best] - value))
            best = i;
    return static_cast<double>(best);
}

double distanceBetween(const CoreConfig& a, const CoreConfig& b, const ParameterGrid& grid) {
    double total = 0;
    for (const ParameterSpec& spec : ParameterSpace::all()) {
        const double va = a.value(spec.id);
        const double vb = b.value(spec.id);
        if (va == vb)
            continue;
        const auto& values = grid.values(spec.id);
        if (values.size() < 2) {
            total += 1;
            continue;
        }
        total += std::abs(gridPosition(values, va) - gridPosition(values, vb)) /
                 static_cast<double>(values.size() - 1);
    }
    return total;
}

/// The label's configuration and the rest of the row, without its per-window IPC.
ReferenceIpc::Label decodeConfig(const LabelRow& row, const std::string& what) {
    const std::string label = what + ", label " + std::to_string(row.id);
    ReferenceIpc::Label decoded;
    decoded.id = row.id;
    try {
        decoded.config = CoreConfig::fromJson(nlohmann::json::parse(row.configJson), true, label);
    } catch (const nlohmann::json::exception& e) {
        throw badInput(label + ": configuration is not valid JSON: " + e.what());
    }
    decoded.source = row.source;
    decoded.cpi = row.cpi;
    return decoded;
}

std::vector<float> decodeWindowIpc(const LabelRow& row, const std::string& what) {
    const SeriesMatrix ipc = SeriesGroupCodec::decode(
        row.windowIpc, what + ", label " + std::to_string(row.id) + " per-window IPC", 1);
    return std::vector<float>(ipc.values.begin(), ipc.values.end());
}

} // namespace

ReferenceIpc::Label ReferenceIpc::decode(const LabelRow& row, const std::string& what) {
    Label decoded = decodeConfig(row, what);
    decoded.windowIpc = decodeWindowIpc(row, what);
    return decoded;
}

ReferenceIpc ReferenceIpc::select(std::span<const Label> labels, const CoreConfig& config,
                                  const ParameterGrid& grid) {
    ReferenceIpc result;
    const Label* best = nullptr;
    double bestDistance = std::numeric_limits<double>::infinity();
    for (const Label& label : labels) {
        if (label.config == config) {
            best = &label;
            bestDistance = 0;
            break;
        }
        const double distance = distanceBetween(label.config, config, grid);
        if (distance < bestDistance) {
            best = &label;
            bestDistance = distance;
        }
    }
    if (!best)
        return result;
    result.match_ = best->config == config ? Match::Exact : Match::Nearest;
    result.labelId_ = best->id;
    result.config_ = best->config;
    result.source_ = best->source;
    result.cpi_ = best->cpi;
    result.distance_ = result.match_ == Match::Exact ? 0.0 : bestDistance;
    result.windowIpc_ = best->windowIpc;
    if (result.match_ == Match::Nearest)
        for (const ParameterSpec& spec : ParameterSpace::all()) {
            const double labelled = best->config.value(spec.id);
            const double shown = config.value(spec.id);
            if (labelled != shown)
                result.differences_.push_back(spec.key + " " + spec.formatValue(labelled) +
                                              " (shown " + spec.formatValue(shown) + ")");
        }
    return result;
}

ReferenceIpc ReferenceIpc::select(const std::vector<LabelRow>& labels, const CoreConfig& config,
                                  const ParameterGrid& grid, const std::string& what) {
    // Only the chosen label's per-window IPC is decoded: one answer needs no more.
    std::vector<Label> decoded;
    decoded.reserve(labels.size());
    for (const LabelRow& row : labels)
        decoded.push_back(decodeConfig(row, what));
    ReferenceIpc result = select(decoded, config, grid);
    for (const LabelRow& row : labels)
        if (result.available() && row.id == result.labelId_)
            result.windowIpc_ = decodeWindowIpc(row, what);
    return result;
}

ReferenceIpc ReferenceIpc::forRegion(FeatureDatabase& database, std::int64_t regionId,
                                     const CoreConfig& config) {
    const ParameterGrid grid(database.buildSettings().grid);
    return select(database.labels(regionId), config, grid, describeRegion(database, regionId));
}

std::string ReferenceIpc::describeRegion(FeatureDatabase& database, std::int64_t regionId) {
    return database.path().string() + ": " + database.describeRegion(regionId);
}

std::string ReferenceIpc::describe() const {
    switch (match_) {
    case Match::Exact:
        return "exact configuration, " + source_;
    case Match::Nearest: {
        std::string text = "nearest labelled configuration:";
        for (std::size_t i = 0; i < differences_.size(); ++i)
            text += (i == 0 ? " " : ", ") + differences_[i];
        return text;
    }
    case Match::None:
        break;
    }
    return "no reference simulation for this region";
}

} // namespace concorde
