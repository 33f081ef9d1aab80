#include "explore/ModelValidation.h"

#include "explore/ExplorerModel.h"
#include "params/ParameterSpace.h"
#include "store/FeatureDatabase.h"

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

ModelValidation ModelValidation::compute(const ExplorerModel& model) {
    const DatabasePredictor& predictor = model.predictor();
    std::map<std::int64_t, std::size_t> regionOf; // database region id -> predictor region
    for (std::size_t r = 0; r < predictor.regions().size(); ++r)
        regionOf[predictor.regions()[r].regionId] = r;
    const std::vector<LabelRow> labels =
        model.withDatabase([](FeatureDatabase& database) { return database.labels(); });
    const auto& heldOut = model.accuracy().heldOutPrograms;
    ModelValidation validation;
    for (const LabelRow& label : labels) {
        const auto region = regionOf.find(label.regionId);
        if (region == regionOf.end() || !(label.cpi > 0))
            continue; // a region the predictor does not hold (incomplete), or an empty label
        const CoreConfig config =
            CoreConfig::fromJson(nlohmann::json::parse(label.configJson), true,
                                 "label " + std::to_string(label.id));
        bool onGrid = true;
        for (const ParameterSpec& spec : ParameterSpace::all())
            onGrid = onGrid && model.grid().find(spec.id, config.value(spec.id)).has_value();
        if (!onGrid) {
            ++validation.offGrid;
            continue;
        }
        const auto& entry = predictor.regions()[region->second];
        validation.points.push_back({entry.program, entry.regionIndex, label.source, label.cpi,
                                     predictor.regionCpi(region->second, config),
                                     heldOut.count(entry.program) > 0});
    }
    return validation;
}

} // namespace concorde
