#include "pipeline/LabelEvaluator.h"

#include "common/ConcordeError.h"
#include "explore/DatabasePredictor.h"
#include "features/FeatureAssembler.h"
#include "ml/CpiModel.h"
#include "params/ParameterSpace.h"
#include "store/FeatureDatabase.h"
#include "store/StoredRegionSeries.h"

#include <cmath>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <tbb/parallel_for.h>

namespace concorde {

LabelEvaluator::Result LabelEvaluator::evaluate(FeatureDatabase& database, const CpiModel& model) {
    model.check(database.path().string());
    model.checkAnalysis(database.buildSettings().analysis, database.path().string());
    const ParameterGrid grid(database.buildSettings().grid);
    std::map<std::int64_t, std::string> programs;
    for (const auto& p : database.programs())
        programs[p.id] = p.name;
    std::map<std::int64_t, std::vector<LabelRow>> byRegion;
    for (auto& label : database.labels()) {
        // A relative error against a CPI of 0 is infinite: refuse the label rather than print it.
        if (!std::isfinite(label.cpi) || !(label.cpi > 0))
            throw badInput(database.path().string() + ": label " + std::to_string(label.id) +
                           " has CPI " + std::to_string(label.cpi) + "; run concorde validate-db");
        byRegion[label.regionId].push_back(std::move(label));
    }
    if (byRegion.empty())
        throw badInput(database.path().string() +
                       " holds no labels; add some with concorde label --db " +
                       database.path().string() + " --configs N");
    std::vector<std::int64_t> regionIds;
    for (const auto& [id, labels] : byRegion)
        regionIds.push_back(id);

    const auto index = StoredRegionSeries::indexFor(database.catalog());
    const FeatureAssembler assembler(model.layout);
    std::mutex mutex;
    Result result;
    std::exception_ptr failure;
    tbb::parallel_for(std::size_t(0), regionIds.size(), std::size_t(1), [&](std::size_t k) {
        try {
            const std::int64_t regionId = regionIds[k];
            std::unique_ptr<StoredRegionSeries> series;
            std::string program;
            {
                std::lock_guard lock(mutex);
                if (failure)
                    return;
                series = std::make_unique<StoredRegionSeries>(
                    StoredRegionSeries::load(database, regionId, index));
                program = programs.at(database.region(regionId)->programId);
            }
            const auto predictor = DatabasePredictor::precompute(model, grid, *series);
            std::vector<std::pair<std::string, AccuracyReport::Entry>> entries;
            std::size_t offGrid = 0;
            for (const auto& label : byRegion.at(regionId)) {
                const CoreConfig config =
                    CoreConfig::fromJson(nlohmann::json::parse(label.configJson), true,
                                         "label " + std::to_string(label.id));
                bool onGrid = true;
                for (const auto& spec : ParameterSpace::all())
                    onGrid = onGrid && grid.find(spec.id, config.value(spec.id)).has_value();
                if (!onGrid) {
                    ++offGrid;
                    continue;
                }
                const std::vector<float> raw = assembler.assemble(config, *series);
                const Eigen::Map<const Eigen::VectorXf> x(raw.data(),
                                                          static_cast<Eigen::Index>(raw.size()));
                const Eigen::MatrixXf normalised = model.normalizer.apply(Eigen::MatrixXf(x));
                const double linear =
                    model.linear.empty() ? 0.0 : double(model.linear.predict(normalised)(0));
                const CpiBand band = predictor->predictBand(config);
                entries.emplace_back(
                    label.source, AccuracyReport::Entry{program, config, label.cpi, band.cpi,
                                                        assembler.minimumBoundCpi(config, *series),
                                                        linear, band.low, band.high});
            }
            std::lock_guard lock(mutex);
            result.offGrid += offGrid;
            for (auto& [source, entry] : entries) {
                result.bySource[source].add(entry);
                result.all.add(std::move(entry));
            }
        } catch (...) {
            std::lock_guard lock(mutex);
            if (!failure)
                failure = std::current_exception();
        }
    });
    if (failure)
        std::rethrow_exception(failure);
    return result;
}

} // namespace concorde
