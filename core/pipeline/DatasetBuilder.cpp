#include "pipeline/DatasetBuilder.h"

#include "analysis/WarmState.h"
#include "common/ConcordeError.h"
#include "common/SplitMix64.h"
#include "features/FeatureAssembler.h"
#include "features/GridSeriesSource.h"
#include "params/NearestValue.h"
#include "params/ParameterSpace.h"
#include "pipeline/DatabaseBuilder.h"
#include "pipeline/RegionLabeler.h"
#include "refsim/ReferenceSimulator.h"
#include "store/DatasetFile.h"
#include "store/FeatureDatabase.h"
#include "store/GridDescription.h"
#include "store/StoredRegionSeries.h"
#include "trace/TraceReader.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

namespace concorde {
namespace {

/// One region an input offers: how to get its records and its series (both thread-safe: each
/// input serialises access to its own file).
struct RegionInput {
    std::string program;
    std::uint32_t regionIndex = 0;
    std::uint64_t warmup = 0;
    std::uint64_t length = 0;
    std::function<std::vector<TraceRecord>()> records;
    /// The region's functional warm-up state, null for a cold region.
    std::function<std::shared_ptr<const WarmState>()> warm;
    std::function<std::unique_ptr<SeriesSource>(std::span<const TraceRecord>,
                                                std::shared_ptr<const WarmState>)>
        series;
};

/// Records an analysis other than the loads-only LQ in the file's sources (absent otherwise, as
/// in files drawn before there was a choice, so that they resume unchanged).
void addAnalysis(nlohmann::json& sources, const AnalysisRevision& analysis) {
    if (analysis.loadQueueThroughCommit)
        sources["load_queue_model"] = "through_commit";
}

/// Records the kinds of draws in the file's sources, each absent when unused (as in files drawn
/// before the option), so that resuming with other fractions or anchors is refused.
void addDrawKinds(nlohmann::json& sources, const DatasetBuilder::Options& options) {
    if (options.balancedFraction > 0)
        sources["balanced"] = options.balancedFraction;
    if (options.nearAnchorFraction > 0) {
        sources["near_anchors"] = options.nearAnchorFraction;
        nlohmann::json anchors = nlohmann::json::object();
        for (const auto& [name, config] : options.anchors)
            anchors[name] = config.toAssignments();
        sources["anchors"] = anchors;
    }
}

/// The samples of one region still to draw.
struct RegionWork {
    const RegionInput* region = nullptr;
    std::vector<std::pair<std::int64_t, CoreConfig>> draws;
};

DatasetBuilder::Summary run(const std::vector<RegionInput>& regions, const BoundsGrid& grid,
                            const std::string& sources, const std::filesystem::path& output,
                            const DatasetBuilder::Options& requested, const JobControl& job) {
    const auto started = std::chrono::steady_clock::now();
    DatasetBuilder::Options options = requested;
    std::sort(options.holdOut.begin(), options.holdOut.end());
    options.holdOut.erase(std::unique(options.holdOut.begin(), options.holdOut.end()),
                          options.holdOut.end());
    if (options.balancedFraction + options.nearAnchorFraction > 1.0 + 1e-12)
        throw usageError("dataset: balanced and near-anchor fractions add up to more than 1");
    if (options.nearAnchorFraction > 0 && options.anchors.empty())
        throw usageError("dataset: near-anchor draws need at least one anchor configuration");
    if (options.samples == 0)
        throw usageError("dataset: --samples must be at least 1");
    if (regions.empty())
        throw badInput("dataset: the inputs hold no regions");
    std::set<std::string> programs;
    for (const auto& r : regions)
        programs.insert(r.program);
    for (const auto& p : options.holdOut)
        if (!programs.contains(p))
            throw usageError("dataset: --hold-out " + p + " is not a program of the inputs");
    if (programs.size() == options.holdOut.size())
        throw usageError("dataset: every program is held out; nothing is left to train on");

    const FeatureAssembler assembler(FeatureLayout::standard(options.percentiles));
    DatasetSettings settings;
    settings.seed = options.seed;
    settings.holdOut = options.holdOut;
    settings.sources = sources;
    settings.gridText = GridDescription::canonicalText(grid);
    settings.layoutJson = assembler.layout().toJson().dump();
    DatasetFile file = DatasetFile::openForWriting(output, settings);
    // Resume only onto rows that read back: damaged ones are removed and drawn again.
    const std::vector<DatasetFile::RemovedSample> removed = file.removeDamagedSamples();
    const std::set<std::int64_t> existing = file.sampleIds();
    std::map<std::int64_t, DatasetFile::StoredLabel> reusable;
    if (!options.labelsFrom.empty()) {
        if (std::filesystem::equivalent(options.labelsFrom, output))
            throw usageError("dataset: --labels-from must be another file than --out");
        reusable = DatasetFile::storedLabels(options.labelsFrom);
    }

    // The seeded plan: region by cumulative measured length, configuration by draw index.
    std::vector<double> cumulative;
    double total = 0;
    for (const auto& r : regions)
        cumulative.push_back(total += static_cast<double>(r.length));
    std::map<std::size_t, RegionWork> work;
    DatasetBuilder::Summary summary;
    summary.removed = removed.size();
    if (!removed.empty())
        summary.firstRemovedProblem = removed.front().problem;
    for (std::size_t i = 0; i < options.samples; ++i) {
        const auto id = static_cast<std::int64_t>(i);
        // The region first: it decides the shard, and depends only on the seed and the draw.
        const double u = SplitMix64::unit(SplitMix64::hash(options.seed, i, 0x5a3d1e)) * total;
        const std::size_t r = std::min(
            static_cast<std::size_t>(std::upper_bound(cumulative.begin(), cumulative.end(), u) -
                                     cumulative.begin()),
            regions.size() - 1);
        if (!options.shard.contains(r))
            continue;
        ++summary.drawsInShard;
        if (existing.contains(id)) {
            ++summary.existing;
            continue;
        }
        const RegionInput& region = regions[r];
        auto& w = work[r];
        w.region = &region;
        // One uniform number picks the kind of draw, so that a file drawn without near-anchor
        // draws keeps every draw it had (balanced draws come first, as before the option).
        const double kind = SplitMix64::unit(SplitMix64::hash(options.seed, i, 0xba1a));
        if (kind < options.balancedFraction)
            w.draws.emplace_back(id, DatasetBuilder::balancedConfig(grid, options.seed, i));
        else if (kind < options.balancedFraction + options.nearAnchorFraction)
            w.draws.emplace_back(
                id, DatasetBuilder::nearAnchorConfig(grid, options.anchors, options.seed, i));
        else
            w.draws.emplace_back(id, RegionLabeler::randomConfig(grid, options.seed, region.program,
                                                                 region.regionIndex, i));
    }
    summary.regions = work.size();
    std::vector<RegionWork*> todo;
    std::size_t toDo = 0;
    for (auto& [r, w] : work) {
        todo.push_back(&w);
        toDo += w.draws.size();
    }

    std::mutex outputMutex;
    std::size_t done = 0;
    std::exception_ptr failure;
    const auto cancelled = [&] { return job.cancelled(); };
    tbb::task_arena arena(options.jobs ? static_cast<int>(options.jobs)
                                       : tbb::task_arena::automatic);
    arena.execute([&] {
        tbb::parallel_for(std::size_t(0), todo.size(), std::size_t(1), [&](std::size_t k) {
            if (cancelled())
                return;
            RegionWork& w = *todo[k];
            const RegionInput& region = *w.region;
            try {
                std::vector<TraceRecord> records;
                std::unique_ptr<SeriesSource> source;
                records = region.records();
                const std::shared_ptr<const WarmState> warm = region.warm();
                source = region.series(records, warm);
                const std::string split =
                    DatasetBuilder::splitOf(region.program, region.regionIndex, options.holdOut);
                // The dependencies do not depend on the configuration: once per region.
                const DependencyGraph graph(records, static_cast<std::size_t>(region.warmup));
                std::vector<DatasetSample> samples(w.draws.size());
                tbb::parallel_for(std::size_t(0), w.draws.size(), [&](std::size_t j) {
                    if (cancelled())
                        return;
                    DatasetSample& s = samples[j];
                    s.id = w.draws[j].first;
                    s.config = w.draws[j].second;
                    s.program = region.program;
                    s.regionIndex = region.regionIndex;
                    s.split = split;
                    s.features = assembler.assemble(s.config, *source);
                    s.minBoundCpi = assembler.minimumBoundCpi(s.config, *source);
                    // The same draw labelled before (same plan, other features): reuse it.
                    const auto old = reusable.find(s.id);
                    if (old != reusable.end() && old->second.program == s.program &&
                        old->second.regionIndex == s.regionIndex &&
                        old->second.config == s.config) {
                        s.cpi = old->second.cpi;
                        s.instructions = old->second.instructions;
                        return;
                    }
                    const SimulationResult result = ReferenceSimulator::simulate(
                        records, static_cast<std::size_t>(region.warmup), s.config,
                        ReferenceSimulator::kDefaultWindow, warm.get(), &graph);
                    s.cpi = result.cpi();
                    s.instructions = result.instructions;
                });
                if (cancelled())
                    return;
                std::lock_guard lock(outputMutex);
                file.write(samples);
                done += samples.size();
                summary.written += samples.size();
                JobProgress progress;
                progress.done = done;
                progress.total = toDo;
                progress.item = std::to_string(done) + "/" + std::to_string(toDo) + " samples";
                progress.log = "[" + std::to_string(done) + "/" + std::to_string(toDo) + "] " +
                               region.program + " region " + std::to_string(region.regionIndex) +
                               " done";
                job.report(progress);
            } catch (...) {
                std::lock_guard lock(outputMutex);
                if (!failure)
                    failure = std::current_exception();
            }
        });
    });
    if (failure)
        std::rethrow_exception(failure);
    summary.total = file.sampleCount();
    summary.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (cancelled())
        throw jobCancelled("dataset: interrupted after " + std::to_string(summary.written) +
                           " new samples; run the same command again to resume");
    return summary;
}

} // namespace

CoreConfig DatasetBuilder::balancedConfig(const BoundsGrid& grid, std::uint64_t seed,
                                          std::uint64_t draw) {
    SplitMix64 random(SplitMix64::hash(seed, draw, 0xba1a));
    const double level = random.uniform(); // 0: the smallest core of the grid, 1: the largest
    CoreConfig config;
    for (const auto& spec : ParameterSpace::all()) {
        const auto& values = grid[index(spec.id)];
        const auto n = static_cast<double>(values.size());
        std::size_t pick = 0;
        if (spec.kind == ParamKind::Choice) {
            pick = random.below(values.size());
        } else {
            // A miss rate falls as the core grows; everything else grows with it. The spread
            // keeps neighbouring grid points in play so that balanced cores are not all alike.
            const double position = spec.id == ParamId::BpMissPct ? 1.0 - level : level;
            const double spread = (random.uniform() - 0.5) * 0.3;
            pick = static_cast<std::size_t>(
                std::clamp(std::floor((position + spread) * n), 0.0, n - 1));
        }
        config.set(spec.id, values[pick]);
    }
    return config;
}

CoreConfig
DatasetBuilder::nearAnchorConfig(const BoundsGrid& grid,
                                 std::span<const std::pair<std::string, CoreConfig>> anchors,
                                 std::uint64_t seed, std::uint64_t draw) {
    if (anchors.empty())
        throw usageError("dataset: near-anchor draws need at least one anchor configuration");
    SplitMix64 random(SplitMix64::hash(seed, draw, 0x9ea7));
    const CoreConfig& anchor = anchors[random.below(anchors.size())].second;
    const auto& specs = ParameterSpace::all();
    CoreConfig config;
    for (const auto& spec : specs) {
        // Presets need not lie on the grid (the explorer snaps them the same way).
        const auto& values = grid[index(spec.id)];
        config.set(spec.id, values[nearestValueIndex(values, anchor.value(spec.id))]);
    }
    // One to three distinct parameters move: a slider step, or two or three at once.
    const std::size_t moves = 1 + random.below(3);
    std::vector<std::size_t> order(specs.size());
    for (std::size_t k = 0; k < order.size(); ++k)
        order[k] = k;
    for (std::size_t k = 0; k < moves; ++k) {
        std::swap(order[k], order[k + random.below(order.size() - k)]);
        const auto& spec = specs[order[k]];
        const auto& values = grid[index(spec.id)];
        config.set(spec.id, values[random.below(values.size())]);
    }
    return config;
}

std::string DatasetBuilder::splitOf(const std::string& program, std::uint32_t regionIndex,
                                    const std::vector<std::string>& holdOut) {
    if (std::find(holdOut.begin(), holdOut.end(), program) != holdOut.end())
        return "held_out";
    return regionIndex % 8 == 3 ? "test" : "train";
}

DatasetBuilder::Summary DatasetBuilder::fromDatabase(const std::filesystem::path& database,
                                                     const std::filesystem::path& output,
                                                     const Options& options,
                                                     const JobControl& job) {
    auto db = std::make_shared<FeatureDatabase>(FeatureDatabase::openReadOnly(database));
    auto lock = std::make_shared<std::mutex>(); // one SQLite connection
    const BuildSettings settings = db->buildSettings();
    const auto index = StoredRegionSeries::indexFor(db->catalog());
    std::map<std::int64_t, std::string> programNames;
    for (const auto& p : db->programs())
        programNames[p.id] = p.name;
    std::vector<RegionInput> regions;
    for (const auto& row : db->regions()) {
        if (!row.complete)
            continue;
        RegionInput r;
        r.program = programNames.at(row.programId);
        r.regionIndex = row.regionIndex;
        r.warmup = row.warmup;
        r.length = row.length;
        const std::int64_t id = row.id;
        r.records = [db, lock, id] {
            std::lock_guard guard(*lock);
            return db->regionRecords(id);
        };
        r.warm = [db, lock, id, what = r.program + " region " + std::to_string(r.regionIndex)] {
            std::lock_guard guard(*lock);
            return WarmState::fromBytes(db->regionWarmState(id), what + ", warm state");
        };
        r.series = [db, lock, id,
                    index](std::span<const TraceRecord>,
                           std::shared_ptr<const WarmState>) -> std::unique_ptr<SeriesSource> {
            std::lock_guard guard(*lock);
            return std::make_unique<StoredRegionSeries>(StoredRegionSeries::load(*db, id, index));
        };
        regions.push_back(std::move(r));
    }
    nlohmann::json sources = {{"database", std::filesystem::absolute(database).lexically_normal()},
                              {"window", settings.windowSize}};
    addAnalysis(sources, settings.analysis);
    addDrawKinds(sources, options);
    if (!options.shard.all()) // absent without a shard: the one-machine file's sources
        sources["shard"] = options.shard.toString();
    return run(regions, settings.grid, sources.dump(), output, options, job);
}

DatasetBuilder::Summary DatasetBuilder::fromTraces(const std::vector<std::filesystem::path>& traces,
                                                   const BoundsGrid& grid,
                                                   const std::filesystem::path& output,
                                                   const Options& options, const JobControl& job) {
    if (traces.empty())
        throw usageError("dataset: no traces given");
    std::vector<RegionInput> regions;
    nlohmann::json list = nlohmann::json::array();
    std::set<std::string> names;
    for (const auto& path : traces) {
        auto reader = std::make_shared<TraceReader>(path);
        auto lock = std::make_shared<std::mutex>();
        const std::string program = DatabaseBuilder::programName(path);
        if (!names.insert(program).second)
            throw usageError("dataset: two traces are named '" + program + "'");
        list.push_back(std::filesystem::absolute(path).lexically_normal());
        const auto& info = reader->info();
        for (std::size_t i = 0; i < info.regions.size(); ++i) {
            RegionInput r;
            r.program = program;
            r.regionIndex = static_cast<std::uint32_t>(i);
            r.warmup = info.regions[i].warmup;
            r.length = info.regions[i].length;
            r.records = [reader, lock, i] {
                std::lock_guard guard(*lock);
                std::vector<TraceRecord> records;
                reader->readRegion(i, records);
                return records;
            };
            r.warm = [reader, i, what = path.string() + " region " + std::to_string(i)] {
                return WarmState::ofRegion(reader->info().regions[i], what);
            };
            const std::uint64_t warmup = r.warmup;
            const std::uint32_t window = options.windowSize;
            const AnalysisRevision analysis = options.analysis;
            r.series = [warmup, window, analysis, &grid](
                           std::span<const TraceRecord> records,
                           std::shared_ptr<const WarmState> warm) -> std::unique_ptr<SeriesSource> {
                return std::make_unique<GridSeriesSource>(GridBounds::build(
                    records, warmup, grid, window, {}, std::move(warm), analysis));
            };
            regions.push_back(std::move(r));
        }
    }
    nlohmann::json sources = {{"traces", list}, {"window", options.windowSize}};
    addAnalysis(sources, options.analysis);
    addDrawKinds(sources, options);
    if (!options.shard.all())
        sources["shard"] = options.shard.toString();
    return run(regions, grid, sources.dump(), output, options, job);
}

} // namespace concorde
