#include "pipeline/DatabasePhases.h"

#include "common/ConcordeError.h"
#include "features/FeatureAssembler.h"
#include "features/FeatureLayout.h"
#include "params/ParameterSpace.h"
#include "store/FeatureDatabase.h"
#include "store/StoredRegionSeries.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

namespace concorde {

namespace {

/// The compact summary of one region (see the class comment).
std::vector<float> summary(const FeatureAssembler& assembler, const CoreConfig& config,
                           const SeriesSource& source) {
    const FeatureLayout& layout = assembler.layout();
    const int k = layout.percentiles();
    std::vector<float> result;
    std::vector<float> block;
    for (const FeatureBlock& b : layout.blocks()) {
        if (b.kind == BlockKind::Parameter)
            continue;
        block.assign(b.width, 0.0f);
        assembler.assembleBlock(b, config, source, block);
        if (b.kind != BlockKind::Distributions) {
            result.insert(result.end(), block.begin(), block.end());
            continue;
        }
        const std::size_t columnWidth = b.columnWidth(k);
        const auto meanOffset = 2 * static_cast<std::size_t>(k);
        for (std::size_t c = 0; c < b.columns.size(); ++c)
            result.push_back(
                block[c * columnWidth + (b.reciprocalMean ? meanOffset + 1 : meanOffset)]);
    }
    return result;
}

} // namespace

CoreConfig DatabasePhases::referenceConfig(FeatureDatabase& database) {
    const BuildSettings settings = database.buildSettings();
    CoreConfig config;
    for (const ParameterSpec& spec : ParameterSpace::all()) {
        const std::vector<double>& grid = settings.grid[static_cast<std::size_t>(spec.id)];
        if (grid.empty())
            throw badInput(database.path().string() + ": the grid of " + spec.key + " is empty");
        if (std::find(grid.begin(), grid.end(), spec.defaultValue) == grid.end())
            config.set(spec.id, grid[(grid.size() - 1) / 2]);
    }
    return config;
}

DatabasePhases::Program DatabasePhases::compute(FeatureDatabase& database,
                                                const std::string& program,
                                                const Options& options) {
    Program result;
    std::string known;
    for (const ProgramRow& row : database.programs()) {
        known += (known.empty() ? "" : ", ") + row.name;
        if (row.name == program)
            result.programId = row.id;
    }
    if (result.programId == 0)
        throw usageError("the database has no program '" + program +
                         "' (it has: " + (known.empty() ? "none" : known) + ")");
    result.program = program;

    std::vector<RegionRow> regions;
    for (RegionRow& row : database.regions())
        if (row.programId == result.programId)
            regions.push_back(std::move(row));
    std::sort(regions.begin(), regions.end(),
              [](const RegionRow& a, const RegionRow& b) { return a.regionIndex < b.regionIndex; });
    if (regions.empty())
        throw badInput(database.path().string() + ": program '" + program + "' has no regions");

    const bool allBbvs = std::all_of(regions.begin(), regions.end(), [](const RegionRow& r) {
        return !r.basicBlockVector.empty();
    });
    if (allBbvs) {
        std::vector<BasicBlockVector> bbvs;
        for (const RegionRow& r : regions) {
            result.regionIds.push_back(r.id);
            result.regionIndices.push_back(r.regionIndex);
            bbvs.push_back(r.basicBlockVector);
        }
        result.clusters = PhaseClustering::fromBasicBlockVectors(bbvs, options.clustering);
        return result;
    }

    const CoreConfig config = referenceConfig(database);
    const FeatureAssembler assembler(FeatureLayout::standard(1));
    const auto index = StoredRegionSeries::indexFor(database.catalog());
    std::vector<std::vector<float>> features;
    for (const RegionRow& r : regions) {
        if (!r.complete) {
            result.skipped.push_back(r.regionIndex);
            continue;
        }
        const StoredRegionSeries series = StoredRegionSeries::load(database, r.id, index);
        features.push_back(summary(assembler, config, series));
        result.regionIds.push_back(r.id);
        result.regionIndices.push_back(r.regionIndex);
    }
    if (features.empty())
        throw badInput(database.path().string() + ": program '" + program +
                       "' has no basic-block vectors and no complete region to take feature "
                       "vectors from (finish concorde build-db first)");
    result.clusters = PhaseClustering::fromFeatures(features, options.clustering);
    return result;
}

void DatabasePhases::store(FeatureDatabase& database, const Program& result) {
    std::map<std::int64_t, std::int64_t> phases;
    for (std::size_t i = 0; i < result.regionIds.size(); ++i)
        phases[result.regionIds[i]] = result.clusters.phaseOf.at(i);
    database.setPhases(result.programId, phases);
}

nlohmann::json DatabasePhases::Program::toJson() const {
    nlohmann::json regions = nlohmann::json::array();
    for (std::size_t i = 0; i < regionIndices.size(); ++i)
        regions.push_back({{"region", regionIndices[i]}, {"phase", clusters.phaseOf.at(i)}});
    nlohmann::json phases = nlohmann::json::array();
    for (std::size_t p = 0; p < clusters.k; ++p) {
        nlohmann::json members = nlohmann::json::array();
        for (std::size_t i = 0; i < regionIndices.size(); ++i)
            if (clusters.phaseOf[i] == p)
                members.push_back(regionIndices[i]);
        phases.push_back({{"phase", p},
                          {"size", clusters.sizes.at(p)},
                          {"weight", clusters.weight(p)},
                          {"representative", regionIndices.at(clusters.representatives.at(p))},
                          {"regions", members}});
    }
    nlohmann::json scores = nlohmann::json::array();
    for (const auto& s : clusters.scores)
        scores.push_back({{"k", s.k}, {"bic", s.bic}, {"distortion", s.distortion}});
    return {{"program", program}, {"space", clusters.space}, {"dimensions", clusters.dimensions},
            {"k", clusters.k},    {"regions", regions},      {"skipped", skipped},
            {"phases", phases},   {"scores", scores}};
}

} // namespace concorde
