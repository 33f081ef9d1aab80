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

} // namespace

ReferenceIpc ReferenceIpc::select(const std::vector<LabelRow>& labels, const CoreConfig& config,
                                  const ParameterGrid& grid, const std::string& what) {
    ReferenceIpc result;
    const LabelRow* best = nullptr;
    CoreConfig bestConfig;
    double bestDistance = std::numeric_limits<double>::infinity();
    for (const LabelRow& label : labels) {
        CoreConfig labelled;
        try {
            labelled = CoreConfig::fromJson(nlohmann::json::parse(label.configJson), true,
                                            what + ", label " + std::to_string(label.id));
        } catch (const nlohmann::json::exception& e) {
            throw badInput(what + ", label " + std::to_string(label.id) +
                           ": configuration is not valid JSON: " + e.what());
        }
        const double distance = labelled == config ? 0.0 : distanceBetween(labelled, config, grid);
        if (distance < bestDistance) {
            best = &label;
            bestConfig = labelled;
            bestDistance = distance;
            if (labelled == config)
                break;
        }
    }
    if (!best)
        return result;
    result.match_ = bestConfig == config ? Match::Exact : Match::Nearest;
    result.config_ = bestConfig;
    result.source_ = best->source;
    result.cpi_ = best->cpi;
    result.distance_ = result.match_ == Match::Exact ? 0.0 : bestDistance;
    const SeriesMatrix ipc = SeriesGroupCodec::decode(
        best->windowIpc, what + ", label " + std::to_string(best->id) + " per-window IPC", 1);
    result.windowIpc_.assign(ipc.values.begin(), ipc.values.end());
    if (result.match_ == Match::Nearest)
        for (const ParameterSpec& spec : ParameterSpace::all()) {
            const double labelled = bestConfig.value(spec.id);
            const double shown = config.value(spec.id);
            if (labelled != shown)
                result.differences_.push_back(spec.key + " " + spec.formatValue(labelled) +
                                              " (shown " + spec.formatValue(shown) + ")");
        }
    return result;
}

ReferenceIpc ReferenceIpc::forRegion(FeatureDatabase& database, std::int64_t regionId,
                                     const CoreConfig& config) {
    const ParameterGrid grid(database.buildSettings().grid);
    return select(database.labels(regionId), config, grid,
                  database.path().string() + ": " + database.describeRegion(regionId));
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
