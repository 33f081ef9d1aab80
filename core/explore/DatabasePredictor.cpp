#include "explore/DatabasePredictor.h"

#include "common/ConcordeError.h"
#include "explore/LoadInParallel.h"
#include "features/FeatureAssembler.h"
#include "store/FeatureDatabase.h"
#include "store/StoredRegionSeries.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

namespace concorde {

std::unique_ptr<BlockPrecomputedMlp> DatabasePredictor::precompute(const CpiModel& model,
                                                                   const ParameterGrid& grid,
                                                                   const SeriesSource& source) {
    const FeatureAssembler assembler(model.layout);
    return std::make_unique<BlockPrecomputedMlp>(
        model, grid,
        [&](const FeatureBlock& block, const CoreConfig& config, std::span<float> out) {
            assembler.assembleBlock(block, config, source, out);
        });
}

DatabasePredictor::DatabasePredictor(FeatureDatabase& database, CpiModel model,
                                     const std::vector<std::string>& programs,
                                     const JobControl& job)
    : DatabasePredictor(database, std::move(model), RegionCatalog::read(database).only(programs),
                        job) {}

DatabasePredictor::DatabasePredictor(FeatureDatabase& database, CpiModel model,
                                     const RegionCatalog& catalog, const JobControl& job,
                                     const ParameterGrid* grid)
    : model_(std::move(model)), grid_(grid ? *grid : ParameterGrid(database.buildSettings().grid)) {
    model_.check(database.path().string());
    const std::string file = database.path().string();
    model_.checkAnalysis(database.buildSettings().analysis, file);
    if (catalog.regions().empty())
        throw badInput(file + " has no complete region to predict" +
                       (catalog.damaged().empty() ? "" : " (" + catalog.damageSummary() + ")"));

    // A region whose series do not decode is left out and reported, not fatal: the others
    // still predict (docs/design.md §10, damaged data).
    const auto index = StoredRegionSeries::indexFor(database.catalog());
    std::vector<std::unique_ptr<BlockPrecomputedMlp>> loaded(catalog.regions().size());
    std::vector<std::optional<RegionCatalog::Damage>> damage(catalog.regions().size());
    loadInParallel(
        database.path(), loaded.size(), job, "loading the predictions",
        [&](std::size_t r, FeatureDatabase& connection) {
            const RegionCatalog::Region& region = catalog.regions()[r];
            std::string reading;
            std::optional<StoredRegionSeries> series;
            try {
                series = StoredRegionSeries::load(connection, region.id, index, &reading);
            } catch (const ConcordeError& error) {
                if (error.kind() != ErrorKind::BadInput)
                    throw;
                std::string problem = error.what();
                const std::string prefix =
                    file + ": " + connection.describeRegion(region.id) + ", " + reading + ": ";
                if (problem.rfind(prefix, 0) == 0)
                    problem.erase(0, prefix.size());
                damage[r] =
                    RegionCatalog::Damage{region.id,          region.programId, region.program,
                                          region.regionIndex, reading,          problem};
                return;
            }
            loaded[r] = precompute(model_, grid_, *series);
        });
    std::vector<RegionCatalog::Damage> found;
    for (auto& d : damage)
        if (d)
            found.push_back(std::move(*d));
    catalog_ = catalog.without(found);
    if (catalog_.regions().empty())
        throw badInput(file + ": nothing left to predict, " + catalog_.damageSummary() +
                       ". concorde validate-db lists all damage");

    for (const RegionCatalog::Program& program : catalog_.programs()) {
        programs_.push_back(program.name);
        programRegions_.push_back(program.regions);
    }
    for (const RegionCatalog::Region& region : catalog_.regions())
        regions_.push_back({region.id, region.program, region.regionIndex, region.length});
    for (std::size_t r = 0; r < loaded.size(); ++r)
        if (!damage[r])
            predictors_.push_back(std::move(loaded[r]));
}

const std::vector<std::size_t>& DatabasePredictor::regionsOf(const std::string& program) const {
    const auto it = std::find(programs_.begin(), programs_.end(), program);
    if (it == programs_.end()) {
        std::string list;
        for (const auto& p : programs_)
            list += (list.empty() ? "" : ", ") + p;
        throw usageError("no program '" + program + "' (loaded: " + list + ")");
    }
    return programRegions_[static_cast<std::size_t>(it - programs_.begin())];
}

double DatabasePredictor::regionCpi(std::size_t region, const CoreConfig& config) const {
    return predictors_.at(region)->predict(config);
}

void DatabasePredictor::regionCpi(std::size_t region, std::span<const CoreConfig> configs,
                                  std::span<double> out) const {
    predictors_.at(region)->predict(configs, out);
}

CpiBand DatabasePredictor::regionBand(std::size_t region, const CoreConfig& config) const {
    return predictors_.at(region)->predictBand(config);
}

void DatabasePredictor::regionBands(std::size_t region, std::span<const CoreConfig> configs,
                                    std::span<CpiBand> out) const {
    predictors_.at(region)->predictBands(configs, out);
}

CpiBand DatabasePredictor::programBand(const std::string& program, const CoreConfig& config) const {
    std::vector<CpiBand> bands;
    for (const std::size_t r : regionsOf(program))
        bands.push_back(regionBand(r, config));
    return programBand(program, bands);
}

CpiBand DatabasePredictor::programBand(const std::string& program,
                                       std::span<const CpiBand> regionBands) const {
    // The band's ends weigh like the CPI: a program's regions err together more often than
    // they cancel, so the ends are not narrowed as independent errors would be.
    const std::vector<std::size_t>& regions = regionsOf(program);
    if (regionBands.size() != regions.size())
        throw runtimeFailure("internal error: " + std::to_string(regionBands.size()) +
                             " region bands for the " + std::to_string(regions.size()) +
                             " regions of " + program);
    CpiBand sum;
    double total = 0;
    for (std::size_t k = 0; k < regions.size(); ++k) {
        const auto w = static_cast<double>(regions_[regions[k]].length);
        sum.cpi += w * regionBands[k].cpi;
        sum.low += w * regionBands[k].low;
        sum.high += w * regionBands[k].high;
        total += w;
    }
    return {sum.cpi / total, sum.low / total, sum.high / total};
}

double DatabasePredictor::regionOodScore(std::size_t region) const {
    return model_.ood.score(predictors_.at(region)->centroid());
}

double DatabasePredictor::programOodScore(const std::string& program) const {
    double weighted = 0, total = 0;
    for (const std::size_t r : regionsOf(program)) {
        const auto w = static_cast<double>(regions_[r].length);
        weighted += w * regionOodScore(r);
        total += w;
    }
    return weighted / total;
}

double DatabasePredictor::programCpi(const std::string& program, const CoreConfig& config) const {
    double weighted = 0, total = 0;
    for (const std::size_t r : regionsOf(program)) {
        const auto w = static_cast<double>(regions_[r].length);
        weighted += w * regionCpi(r, config);
        total += w;
    }
    return weighted / total;
}

void DatabasePredictor::programCpi(const std::string& program, std::span<const CoreConfig> configs,
                                   std::span<double> out) const {
    if (out.size() != configs.size())
        throw usageError("programCpi: one output per configuration");
    std::fill(out.begin(), out.end(), 0.0);
    std::vector<double> part(configs.size());
    double total = 0;
    for (const std::size_t r : regionsOf(program)) {
        const auto w = static_cast<double>(regions_[r].length);
        regionCpi(r, configs, part);
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i] += w * part[i];
        total += w;
    }
    for (double& v : out)
        v /= total;
}

} // namespace concorde
