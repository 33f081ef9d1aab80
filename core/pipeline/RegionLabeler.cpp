#include "pipeline/RegionLabeler.h"

#include "analysis/WarmState.h"
#include "bounds/WindowBounds.h"
#include "common/ConcordeError.h"
#include "common/SplitMix64.h"
#include "params/ParameterSpace.h"
#include "pipeline/OrderedPipeline.h"
#include "refsim/ReferenceSimulator.h"
#include "store/FeatureDatabase.h"
#include "store/SeriesGroupCodec.h"

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <tbb/parallel_for.h>

namespace concorde {
namespace {

std::uint64_t splitmix(std::uint64_t x) {
    return SplitMix64::mix(x + 0x9E3779B97F4A7C15ull);
}

/// FNV-1a: a portable string hash (std::hash differs between standard libraries).
std::uint64_t fnv1a(const std::string& text) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : text) {
        h ^= c;
        h *= 0x100000001b3ull;
    }
    return h;
}

struct Job {
    std::string source;
    CoreConfig config;
};

struct RegionLabelWork {
    RegionRow region;
    std::string label;
    std::vector<Job> jobs;
    std::vector<TraceRecord> records;
    std::shared_ptr<const WarmState> warm; ///< null: a cold region
    std::vector<LabelRow> rows;
};

} // namespace

CoreConfig RegionLabeler::randomConfig(const BoundsGrid& grid, std::uint64_t seed,
                                       const std::string& program, std::uint32_t regionIndex,
                                       std::uint64_t draw) {
    std::uint64_t state = splitmix(splitmix(splitmix(seed) ^ fnv1a(program)) ^ regionIndex);
    state = splitmix(state ^ draw);
    CoreConfig config;
    for (const auto& spec : ParameterSpace::all()) {
        const auto& values = grid[index(spec.id)];
        state = splitmix(state);
        // Multiply-shift maps 64 random bits onto [0, n) without modulo's bias.
        const auto pick =
            static_cast<std::size_t>((static_cast<unsigned __int128>(state) * values.size()) >> 64);
        config.set(spec.id, values[pick]);
    }
    return config;
}

std::vector<CoreConfig> RegionLabeler::randomConfigs(const BoundsGrid& grid, std::uint64_t seed,
                                                     const std::string& program,
                                                     std::uint32_t regionIndex, std::size_t count) {
    std::vector<CoreConfig> configs;
    std::set<std::string> seen;
    for (std::uint64_t draw = 0; configs.size() < count && draw < 64 * count + 64; ++draw) {
        CoreConfig config = randomConfig(grid, seed, program, regionIndex, draw);
        if (seen.insert(config.toAssignments()).second)
            configs.push_back(config);
    }
    return configs;
}

RegionLabeler::Summary RegionLabeler::label(FeatureDatabase& db, const Options& options,
                                            const JobControl& job) {
    const auto started = std::chrono::steady_clock::now();
    const BuildSettings settings = db.buildSettings();
    std::map<std::int64_t, std::string> programNames;
    for (const ProgramRow& program : db.programs())
        programNames[program.id] = program.name;

    Summary summary;
    std::vector<std::unique_ptr<RegionLabelWork>> todo;
    std::size_t global = 0;
    for (const RegionRow& region : db.regions()) {
        if (!region.complete || !options.shard.contains(global++))
            continue;
        ++summary.regions;
        const std::string& program = programNames[region.programId];
        auto work = std::make_unique<RegionLabelWork>();
        work->region = region;
        work->label = program + " region " + std::to_string(region.regionIndex);
        const std::set<std::string> existing = db.labelKeys(region.id);
        std::set<std::string> queued;
        const auto add = [&](const std::string& source, const CoreConfig& config) {
            const std::string key = config.toAssignments();
            if (existing.count(key)) {
                ++summary.labelsExisting;
                return;
            }
            if (queued.insert(key).second)
                work->jobs.push_back({source, config});
        };
        for (const CoreConfig& config : randomConfigs(settings.grid, options.seed, program,
                                                      region.regionIndex, options.randomConfigs))
            add("random", config);
        for (const Preset& preset : options.presets)
            add("preset:" + preset.name, preset.config);
        if (!work->jobs.empty())
            todo.push_back(std::move(work));
    }

    // The first and last pipeline stages may run at the same time on different threads; they
    // share the one connection, so they take turns (SQLite would serialise the calls, but not
    // keep one stage's statements out of the other's transaction).
    std::mutex databaseMutex;
    std::size_t regionsDone = 0;
    job.report(0, todo.size());
    std::size_t next = 0;
    runOrderedPipeline<RegionLabelWork>(
        options.jobs,
        [&]() -> std::shared_ptr<RegionLabelWork> {
            if (next >= todo.size() || job.cancelled())
                return nullptr;
            // The pipeline shares the unit; `todo` keeps owning it.
            std::shared_ptr<RegionLabelWork> work(todo[next++].get(), [](RegionLabelWork*) {});
            std::lock_guard lock(databaseMutex);
            work->records = db.regionRecords(work->region.id);
            work->warm = WarmState::fromBytes(db.regionWarmState(work->region.id),
                                              work->label + ", warm state");
            return work;
        },
        [&](RegionLabelWork& work) {
            work.rows.resize(work.jobs.size());
            // The dependencies do not depend on the configuration: once per region.
            const DependencyGraph graph(work.records, static_cast<std::size_t>(work.region.warmup));
            tbb::parallel_for(std::size_t(0), work.jobs.size(), [&](std::size_t j) {
                if (job.cancelled())
                    return;
                const Job& simulation = work.jobs[j];
                const SimulationResult result = ReferenceSimulator::simulate(
                    work.records, static_cast<std::size_t>(work.region.warmup), simulation.config,
                    settings.windowSize, work.warm.get(), &graph);
                LabelRow& row = work.rows[j];
                row.regionId = work.region.id;
                row.configJson = simulation.config.toJson().dump();
                row.configKey = simulation.config.toAssignments();
                row.source = simulation.source;
                row.instructions = result.instructions;
                row.cycles = result.cycles;
                row.cpi = result.cpi();
                SeriesMatrix ipc;
                ipc.count = 1;
                ipc.windows = static_cast<std::uint32_t>(result.windowIpc.size());
                ipc.values.assign(result.windowIpc.begin(), result.windowIpc.end());
                row.windowIpc = SeriesGroupCodec::encode(ipc, {});
            });
            work.records = {};
            work.warm = nullptr;
        },
        [&](RegionLabelWork& work) {
            // A region whose simulations were cut short by cancellation is not written at
            // all: its labels are redone in full next time.
            if (job.cancelled())
                return;
            std::size_t written = 0;
            {
                std::lock_guard lock(databaseMutex);
                written = db.writeLabels(work.region.id, work.rows);
            }
            summary.labelsWritten += written;
            ++regionsDone;
            JobProgress progress;
            progress.done = regionsDone;
            progress.total = todo.size();
            progress.item =
                std::to_string(regionsDone) + "/" + std::to_string(todo.size()) + " regions";
            progress.log = "[" + progress.item.substr(0, progress.item.find(' ')) + "] " +
                           work.label + ": " + std::to_string(summary.labelsWritten) +
                           " labels written so far";
            job.report(progress);
        });
    summary.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (job.cancelled() && regionsDone < todo.size())
        throw jobCancelled("interrupted: labels of " + std::to_string(regionsDone) + " of " +
                           std::to_string(todo.size()) +
                           " regions were written; run the same command again to resume");
    return summary;
}

} // namespace concorde
