#include "explore/ExplorerModel.h"

#include "common/ConcordeError.h"

#include <algorithm>
#include <map>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

namespace concorde {
namespace {

/// Regions per TBB task: a region's batched prediction takes a few microseconds, so smaller
/// tasks would cost more to schedule than to run.
constexpr std::size_t kRegionGrain = 16;

} // namespace

std::unique_ptr<ExplorerModel> ExplorerModel::open(const std::filesystem::path& path,
                                                   const std::string& modelName,
                                                   const JobControl& job,
                                                   std::span<const CoreConfig> only) {
    FeatureDatabase database = FeatureDatabase::openReadOnly(path);
    std::optional<CpiModel> model = database.readModel(modelName);
    if (!model) {
        if (!modelName.empty())
            throw badInput(path.string() + " has no CPI model called '" + modelName + "'");
        throw badInput(path.string() +
                       " has no trained CPI model, so nothing can be predicted from it. Train "
                       "one with: concorde dataset, then concorde train --db " +
                       path.filename().string());
    }
    return std::make_unique<ExplorerModel>(std::move(database), std::move(*model), job, only);
}

namespace {

/// The database's grid cut down to the values of `only`, each snapped to its nearest grid
/// value; the whole grid when `only` is empty.
ParameterGrid gridOf(const ParameterGrid& grid, std::span<const CoreConfig> only) {
    if (only.empty())
        return grid;
    const ConfigChecker checker(grid, {});
    ParameterGrid cut = grid;
    for (const ParameterSpec& spec : ParameterSpace::all()) {
        std::vector<double> values;
        for (const CoreConfig& config : only)
            values.push_back(checker.snap(config).value(spec.id));
        std::sort(values.begin(), values.end());
        values.erase(std::unique(values.begin(), values.end()), values.end());
        cut.set(spec.id, std::move(values));
    }
    return cut;
}

} // namespace

ExplorerModel::ExplorerModel(FeatureDatabase database, CpiModel model, const JobControl& job,
                             std::span<const CoreConfig> only)
    : path_(database.path()), database_(std::move(database)), predictor_([&] {
          const ParameterGrid grid = gridOf(ParameterGrid(database_.buildSettings().grid), only);
          return std::make_unique<DatabasePredictor>(database_, std::move(model),
                                                     RegionCatalog::read(database_), job, &grid);
      }()),
      checker_(ParameterGrid(database_.buildSettings().grid),
               ConfigChecker::trainedValuesFromMetrics(predictor_->model().metrics)),
      accuracy_(ModelAccuracy::fromMetrics(predictor_->model().metrics)) {
    phases_.reserve(regionCatalog().regions().size());
    for (const RegionCatalog::Region& region : regionCatalog().regions())
        phases_.push_back(region.phase);
    for (const std::string& program : programs())
        oodScores_.push_back(predictor_->programOodScore(program));
    // What the views say about damaged regions, once: it does not change with the sliders.
    const RegionCatalog& catalog = regionCatalog();
    const auto listOf = [](const std::vector<RegionCatalog::Damage>& damage) {
        std::string list;
        for (const RegionCatalog::Damage& d : damage)
            list += (list.empty() ? "" : "; ") +
                    ("region " + std::to_string(d.regionIndex) + ", " + d.part + ": " + d.problem);
        return list;
    };
    for (const std::string& program : programs()) {
        const auto damage = catalog.damageOf(program);
        const std::size_t total = regionCount(program) + damage.size();
        programDamage_.push_back(
            damage.empty() ? std::string()
                           : std::to_string(damage.size()) + " of " + std::to_string(total) +
                                 " regions damaged and skipped: " + listOf(damage));
    }
    for (const std::string& program : catalog.damagedPrograms())
        if (!hasProgram(program))
            lostPrograms_.emplace_back(program, "every region damaged: " +
                                                    listOf(catalog.damageOf(program)));
}

bool ExplorerModel::hasProgram(const std::string& program) const {
    const auto& names = programs();
    return std::find(names.begin(), names.end(), program) != names.end();
}

std::size_t ExplorerModel::regionCount(const std::string& program) const {
    return predictor_->regionsOf(program).size();
}

template <typename Value, typename RegionValues>
void ExplorerModel::evaluateEachRegion(std::span<const CoreConfig> configs, std::vector<Value>& out,
                                       std::span<const std::size_t> only,
                                       RegionValues regionValues) const {
    const std::size_t regions = only.empty() ? predictor_->regions().size() : only.size();
    const std::size_t n = configs.size();
    out.assign(regions * n, Value{});
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, regions, kRegionGrain),
                      [&](const tbb::blocked_range<std::size_t>& range) {
                          for (std::size_t k = range.begin(); k != range.end(); ++k)
                              regionValues(only.empty() ? k : only[k], configs,
                                           std::span<Value>(out).subspan(k * n, n));
                      });
}

void ExplorerModel::evaluateRegions(std::span<const CoreConfig> configs, std::vector<double>& out,
                                    std::span<const std::size_t> only) const {
    evaluateEachRegion(configs, out, only, [this](std::size_t r, auto c, std::span<double> o) {
        predictor_->regionCpi(r, c, o);
    });
}

void ExplorerModel::evaluateRegions(std::span<const CoreConfig> configs, std::vector<CpiBand>& out,
                                    std::span<const std::size_t> only) const {
    evaluateEachRegion(configs, out, only, [this](std::size_t r, auto c, std::span<CpiBand> o) {
        predictor_->regionBands(r, c, o);
    });
}

std::vector<CoreConfig> ExplorerModel::snapAll(std::span<const CoreConfig> configs) const {
    std::vector<CoreConfig> snapped;
    snapped.reserve(configs.size());
    for (const CoreConfig& config : configs)
        snapped.push_back(snap(config));
    return snapped;
}

namespace {

/// Per configuration, the instruction-weighted mean of the CPIs of one program's regions
/// (`regions`, in database order): cpiOf(k, c) is region regions[k]'s at configuration c. The
/// one summation order every program CPI uses, so that they agree to the last bit.
template <typename CpiOf>
std::vector<double> weightedProgramCpi(const std::vector<DatabasePredictor::RegionEntry>& table,
                                       std::span<const std::size_t> regions, std::size_t n,
                                       CpiOf cpiOf) {
    std::vector<double> result(n, 0.0);
    double total = 0;
    for (std::size_t k = 0; k < regions.size(); ++k) {
        const auto weight = static_cast<double>(table[regions[k]].length);
        total += weight;
        for (std::size_t c = 0; c < n; ++c)
            result[c] += weight * cpiOf(k, c);
    }
    for (double& cpi : result)
        cpi /= total;
    return result;
}

} // namespace

std::vector<std::vector<double>>
ExplorerModel::programCpis(std::span<const CoreConfig> configs) const {
    std::vector<double> regionCpi;
    evaluateRegions(snapAll(configs), regionCpi);
    const std::size_t n = configs.size();
    std::vector<std::vector<double>> result(n, std::vector<double>(programs().size(), 0.0));
    for (std::size_t p = 0; p < programs().size(); ++p) {
        const auto& own = predictor_->regionsOf(programs()[p]);
        const std::vector<double> cpi =
            weightedProgramCpi(predictor_->regions(), own, n, [&](std::size_t k, std::size_t c) {
                return regionCpi[own[k] * n + c];
            });
        for (std::size_t c = 0; c < n; ++c)
            result[c][p] = cpi[c];
    }
    return result;
}

std::vector<double> ExplorerModel::programCpiAt(std::size_t program,
                                                std::span<const CoreConfig> configs) const {
    const std::vector<std::size_t>& own = predictor_->regionsOf(programs().at(program));
    std::vector<double> regionCpi;
    evaluateRegions(snapAll(configs), regionCpi, own);
    const std::size_t n = configs.size();
    return weightedProgramCpi(predictor_->regions(), own, n,
                              [&](std::size_t k, std::size_t c) { return regionCpi[k * n + c]; });
}

std::vector<double> ExplorerModel::programCpis(const CoreConfig& config) const {
    return programCpis(std::span<const CoreConfig>(&config, 1)).front();
}

std::vector<ExplorerPrediction::Region> ExplorerModel::regionCpis(const std::string& program,
                                                                  const CoreConfig& config) const {
    const CoreConfig snapped = snap(config);
    std::vector<ExplorerPrediction::Region> result;
    for (const std::size_t r : predictor_->regionsOf(program)) {
        const auto& region = predictor_->regions()[r];
        result.push_back(
            {region.regionIndex, region.length, phases_[r], predictor_->regionCpi(r, snapped), 0});
    }
    std::sort(result.begin(), result.end(),
              [](const auto& a, const auto& b) { return a.index < b.index; });
    return result;
}

ExplorerPrediction ExplorerModel::predict(const CoreConfig& target, const CoreConfig& baseline,
                                          const std::string& program,
                                          const ExplorerPrediction* previous) const {
    ExplorerPrediction p;
    p.target = target;
    p.baseline = baseline;
    p.targetOnGrid = snap(target);
    p.baselineOnGrid = snap(baseline);
    p.warnings = checker_.check(target);
    p.baselineWarnings = checker_.check(baseline);
    p.accuracy = accuracy_;
    p.modelName = model().name;
    p.programs = programs();
    p.programDamage = programDamage_;
    p.lostPrograms = lostPrograms_;
    p.damageSummary = regionCatalog().damageSummary();

    // Evaluate the baseline only when it is new: a target drag evaluates one configuration per
    // region; otherwise both go through each region in one batch.
    const auto& regions = predictor_->regions();
    const std::size_t count = regions.size();
    std::vector<CpiBand> targetBands;
    std::shared_ptr<const std::vector<CpiBand>> base;
    if (previous && previous->baselineRegionBands && previous->baselineOnGrid == p.baselineOnGrid &&
        previous->baselineRegionBands->size() == count)
        base = previous->baselineRegionBands;
    if (base || p.targetOnGrid == p.baselineOnGrid) {
        evaluateRegions(std::span<const CoreConfig>(&p.targetOnGrid, 1), targetBands);
        if (!base)
            base = std::make_shared<const std::vector<CpiBand>>(targetBands);
    } else {
        const CoreConfig configs[2] = {p.targetOnGrid, p.baselineOnGrid};
        std::vector<CpiBand> both;
        evaluateRegions(configs, both);
        targetBands.resize(count);
        auto fresh = std::make_shared<std::vector<CpiBand>>(count);
        for (std::size_t r = 0; r < count; ++r) {
            targetBands[r] = both[2 * r];
            (*fresh)[r] = both[2 * r + 1];
        }
        base = std::move(fresh);
    }
    p.baselineRegionBands = base;

    const std::size_t programCount = p.programs.size();
    for (auto* v : {&p.targetCpi, &p.baselineCpi, &p.targetCpiLow, &p.targetCpiHigh,
                    &p.baselineCpiLow, &p.baselineCpiHigh})
        v->assign(programCount, 0.0);
    for (std::size_t i = 0; i < programCount; ++i) {
        const auto& members = predictor_->regionsOf(p.programs[i]);
        double total = 0;
        for (const std::size_t r : members) {
            const auto weight = static_cast<double>(regions[r].length);
            total += weight;
            p.targetCpi[i] += weight * targetBands[r].cpi;
            p.baselineCpi[i] += weight * (*base)[r].cpi;
            p.targetCpiLow[i] += weight * targetBands[r].low;
            p.targetCpiHigh[i] += weight * targetBands[r].high;
            p.baselineCpiLow[i] += weight * (*base)[r].low;
            p.baselineCpiHigh[i] += weight * (*base)[r].high;
        }
        for (auto* v : {&p.targetCpi, &p.baselineCpi, &p.targetCpiLow, &p.targetCpiHigh,
                        &p.baselineCpiLow, &p.baselineCpiHigh})
            (*v)[i] /= total;
        if (p.programs[i] == program) {
            p.program = program;
            p.programIndex = i;
            for (const std::size_t r : members)
                p.regions.push_back({regions[r].regionIndex, regions[r].length, phases_[r],
                                     targetBands[r].cpi, (*base)[r].cpi});
            std::sort(p.regions.begin(), p.regions.end(),
                      [](const auto& a, const auto& b) { return a.index < b.index; });
            p.selectedCpiLow = p.targetCpiLow[i];
            p.selectedCpiHigh = p.targetCpiHigh[i];
            p.banded = model().band.calibrated();
            p.selectedOodScore = oodScores_[i];
        }
    }
    return p;
}

} // namespace concorde
