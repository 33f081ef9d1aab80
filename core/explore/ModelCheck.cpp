#include "explore/ModelCheck.h"

#include "common/ConcordeError.h"
#include "explore/ConfigChecker.h"
#include "explore/DatabasePredictor.h"
#include "features/ParameterGrid.h"
#include "ml/ModelAccuracy.h"
#include "store/FeatureDatabase.h"
#include "store/StoredRegionSeries.h"

#include <cmath>
#include <optional>

namespace concorde {

ModelCheck::Report ModelCheck::run(const std::filesystem::path& path) {
    Report report;
    FeatureDatabase database = FeatureDatabase::openReadOnly(path);
    std::vector<ModelSummary> models;
    std::optional<std::int64_t> region;
    try {
        models = database.models();
        for (const RegionRow& row : database.regions())
            if (row.complete) {
                region = row.id;
                break;
            }
    } catch (const std::exception& e) {
        report.problems.push_back(path.string() + ": cannot list the models: " + e.what());
        return report;
    }
    for (const ModelSummary& summary : models) {
        const std::string what = path.string() + ": model '" + summary.name + "'";
        try {
            const std::optional<CpiModel> model = database.readModel(summary.name);
            if (!model)
                throw badInput("not found");
            (void)ModelAccuracy::fromMetrics(model->metrics);
            const ParameterGrid grid(database.buildSettings().grid);
            const ConfigChecker checker(grid,
                                        ConfigChecker::trainedValuesFromMetrics(model->metrics));
            if (region) {
                const StoredRegionSeries series = StoredRegionSeries::load(
                    database, *region, StoredRegionSeries::indexFor(database.catalog()));
                const double cpi = DatabasePredictor::precompute(*model, grid, series)
                                       ->predict(checker.snap(CoreConfig{}));
                if (!std::isfinite(cpi) || !(cpi > 0))
                    throw badInput("predicts a CPI of " + std::to_string(cpi) + " for " +
                                   database.describeRegion(*region));
            }
            ++report.models;
        } catch (const std::exception& e) {
            report.problems.push_back(what + " cannot be loaded and run: " + e.what());
        }
    }
    return report;
}

} // namespace concorde
