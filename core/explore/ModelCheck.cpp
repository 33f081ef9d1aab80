#include "explore/ModelCheck.h"

#include "common/ConcordeError.h"
#include "common/JsonFields.h"
#include "explore/ConfigChecker.h"
#include "explore/DatabasePredictor.h"
#include "features/ParameterGrid.h"
#include "ml/ModelAccuracy.h"
#include "store/FeatureDatabase.h"
#include "store/RegionCatalog.h"
#include "store/StoredRegionSeries.h"

#include <cmath>
#include <optional>

namespace concorde {
namespace {

/// ModelAccuracy reads what it can and ignores the rest (old models lack records). A record
/// that is there but unreadable is a problem: the explorer would silently show no accuracy.
void checkAccuracy(const nlohmann::json& metrics, const ModelAccuracy& accuracy) {
    const JsonFields fields(metrics, "metrics_json");
    const auto records = fields.optionalObject("accuracy");
    if (!records)
        return;
    const std::pair<const char*, const std::optional<ModelAccuracy::Figure>*> figures[] = {
        {"test", &accuracy.unseenRegions},
        {"held_out", &accuracy.unseenPrograms},
        {"labels", &accuracy.labels},
        {"never_seen", &accuracy.neverSeen}};
    for (const auto& [key, figure] : figures)
        if (records->has(key) &&
            (!*figure || !std::isfinite((*figure)->meanRelError) || (*figure)->meanRelError < 0))
            throw badInput(records->where(key) + " has no valid \"mean_rel_error\"");
}

} // namespace

ModelCheck::Report ModelCheck::run(const std::filesystem::path& path) {
    Report report;
    FeatureDatabase database = FeatureDatabase::openReadOnly(path);
    std::vector<ModelSummary> models;
    std::optional<std::int64_t> region;
    std::optional<StoredRegionSeries> series;
    try {
        models = database.models();
        // The first intact region: damaged ones are validate-db's other problems, not the model's.
        const auto index = StoredRegionSeries::indexFor(database.catalog());
        // Named: a range-for over read(...).regions() would use the catalog after it is destroyed.
        const RegionCatalog catalog = RegionCatalog::read(database);
        for (const RegionCatalog::Region& candidate : catalog.regions()) {
            try {
                series = StoredRegionSeries::load(database, candidate.id, index);
                region = candidate.id;
                break;
            } catch (const ConcordeError& e) {
                if (e.kind() != ErrorKind::BadInput)
                    throw;
            }
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
            checkAccuracy(model->metrics, ModelAccuracy::fromMetrics(model->metrics));
            model->checkAnalysis(database.buildSettings().analysis, path.string());
            const ParameterGrid grid(database.buildSettings().grid);
            const ConfigChecker checker(grid,
                                        ConfigChecker::trainedValuesFromMetrics(model->metrics));
            if (region) {
                const double cpi = DatabasePredictor::precompute(*model, grid, *series)
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
