#include "explore/ModelValidation.h"

#include "explore/ExplorerModel.h"
#include "explore/LoadInParallel.h"
#include "params/ParameterSpace.h"
#include "store/FeatureDatabase.h"
#include "store/StoredRegionSeries.h"

#include <array>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

namespace concorde {

ModelValidation::Summary ModelValidation::summary(Subset subset) const {
    Summary s;
    double sum = 0;
    std::size_t over = 0;
    for (const Point& p : points) {
        if ((subset == Subset::HeldOut && !p.heldOut) || (subset == Subset::Trained && p.heldOut))
            continue;
        const double error = std::abs(p.error());
        sum += error;
        over += error > 0.10;
        ++s.count;
    }
    if (s.count > 0) {
        s.meanAbsError = sum / double(s.count);
        s.over10Percent = double(over) / double(s.count);
    }
    return s;
}

namespace {

/// Whether every parameter of `config` is on `grid`.
bool onGrid(const ParameterGrid& grid, const CoreConfig& config) {
    for (const ParameterSpec& spec : ParameterSpace::all())
        if (!grid.find(spec.id, config.value(spec.id)))
            return false;
    return true;
}

/// `config` as the only point of a grid.
ParameterGrid gridOf(const CoreConfig& config) {
    std::array<std::vector<double>, kParamCount> values;
    for (const ParameterSpec& spec : ParameterSpace::all())
        values[index(spec.id)] = {config.value(spec.id)};
    return ParameterGrid(values);
}

} // namespace

ModelValidation ModelValidation::compute(const ExplorerModel& model) {
    const DatabasePredictor& predictor = model.predictor();
    std::map<std::int64_t, std::size_t> regionOf; // database region id -> predictor region
    for (std::size_t r = 0; r < predictor.regions().size(); ++r)
        regionOf[predictor.regions()[r].regionId] = r;
    const std::vector<LabelRow> labels =
        model.withDatabase([](FeatureDatabase& database) { return database.labels(); });
    const auto& heldOut = model.accuracy().heldOutPrograms;
    ModelValidation validation;
    // Labels the live predictor has not precomputed (it was opened for a few configurations,
    // e.g. by a one-shot export): per predictor region, the points and their configurations.
    std::map<std::size_t, std::vector<std::pair<std::size_t, CoreConfig>>> elsewhere;
    for (const LabelRow& label : labels) {
        const auto region = regionOf.find(label.regionId);
        if (region == regionOf.end() || !(label.cpi > 0))
            continue; // a region the predictor does not hold (incomplete), or an empty label
        const CoreConfig config = CoreConfig::fromJson(nlohmann::json::parse(label.configJson),
                                                       true, "label " + std::to_string(label.id));
        if (!onGrid(model.grid(), config)) {
            ++validation.offGrid;
            continue;
        }
        const auto& entry = predictor.regions()[region->second];
        validation.points.push_back({entry.program, entry.regionIndex, label.source, label.cpi, 0.0,
                                     heldOut.count(entry.program) > 0});
        if (onGrid(predictor.grid(), config))
            validation.points.back().predictedCpi = predictor.regionCpi(region->second, config);
        else
            elsewhere[region->second].emplace_back(validation.points.size() - 1, config);
    }
    if (elsewhere.empty())
        return validation;
    // Those regions' series once each, and the same block-precomputed prediction on a grid of
    // just the label's configuration: a few feature blocks per label instead of every grid
    // combination of the region.
    const std::vector<std::pair<std::size_t, std::vector<std::pair<std::size_t, CoreConfig>>>> work(
        elsewhere.begin(), elsewhere.end());
    const auto keys = model.withDatabase(
        [](FeatureDatabase& database) { return StoredRegionSeries::indexFor(database.catalog()); });
    loadInParallel(model.path(), work.size(), {}, "predicting the labels",
                   [&](std::size_t k, FeatureDatabase& connection) {
                       const StoredRegionSeries series = StoredRegionSeries::load(
                           connection, predictor.regions()[work[k].first].regionId, keys);
                       for (const auto& [point, config] : work[k].second)
                           validation.points[point].predictedCpi =
                               DatabasePredictor::precompute(model.model(), gridOf(config), series)
                                   ->predict(config);
                   });
    return validation;
}

} // namespace concorde
