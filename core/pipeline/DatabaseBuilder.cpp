#include "pipeline/DatabaseBuilder.h"

#include "analysis/WarmState.h"
#include "common/ConcordeError.h"
#include "pipeline/OrderedPipeline.h"
#include "store/FeatureDatabase.h"
#include "store/RecordBlobCodec.h"
#include "store/SqliteTransaction.h"
#include "trace/TraceReader.h"

#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <tbb/parallel_for.h>

namespace concorde {
namespace {

using Clock = std::chrono::steady_clock;

struct Pending {
    std::int64_t regionId = 0;
    std::size_t trace = 0;
    std::size_t regionIndex = 0;
    std::uint64_t warmup = 0;
    std::string label;
};

std::string kilobytes(std::uint64_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f kB", static_cast<double>(bytes) / 1024.0);
    return text;
}

std::string secondsText(double seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f s", seconds);
    return text;
}

struct Work {
    Pending pending;
    Clock::time_point start;
    std::vector<TraceRecord> records;
    std::vector<std::uint8_t> warmState; ///< the trace region's, stored with its records
    RegionData data;
};

} // namespace

std::string DatabaseBuilder::programName(const std::filesystem::path& trace) {
    return trace.stem().string();
}

RegionData DatabaseBuilder::encodeRegion(const SeriesCatalog& catalog,
                                         const GridBounds::Result& result,
                                         std::span<const TraceRecord> records, int level) {
    const auto& groups = catalog.groups();
    std::vector<std::size_t> offsets(groups.size());
    std::size_t offset = 0;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        offsets[g] = offset;
        offset += groups[g].series.size();
    }
    if (offset != result.series.size())
        throw runtimeFailure("internal error: " + std::to_string(result.series.size()) +
                             " series computed, the catalog has " + std::to_string(offset));
    RegionData data;
    data.groups.resize(groups.size());
    tbb::parallel_for(std::size_t(0), groups.size(), [&](std::size_t g) {
        const auto& group = groups[g];
        SeriesMatrix matrix;
        matrix.count = static_cast<std::uint32_t>(group.series.size());
        matrix.windows = SeriesCatalog::windowsFor(group, result.instructions, result.windowSize);
        matrix.values.reserve(std::size_t(matrix.count) * matrix.windows);
        for (std::size_t i = 0; i < group.series.size(); ++i) {
            const auto& values = result.series[offsets[g] + i].values;
            matrix.values.insert(matrix.values.end(), values.begin(), values.end());
        }
        SeriesGroupBlob& blob = data.groups[g];
        blob.name = group.name;
        blob.seriesCount = matrix.count;
        blob.windows = matrix.windows;
        blob.encoding = 1;
        blob.data = SeriesGroupCodec::encode(matrix, group.referenceCandidates, level);
    });
    data.records.recordCount = records.size();
    data.records.encoding = 1;
    data.records.data = RecordBlobCodec::encode(records);
    return data;
}

DatabaseBuilder::Summary DatabaseBuilder::build(FeatureDatabase& db, const Options& options,
                                                const JobControl& job) {
    if (options.traces.empty())
        throw usageError("no traces to build the database from");
    const auto started = Clock::now();
    std::vector<std::unique_ptr<TraceReader>> readers;
    for (const auto& trace : options.traces)
        readers.push_back(std::make_unique<TraceReader>(trace));

    // Register every program and region first, all in one transaction, so that ids depend only
    // on the trace list, never on what this run (or this shard) builds.
    Summary summary;
    std::vector<Pending> pending;
    {
        SqliteTransaction transaction(db.connection());
        BuildSettings settings;
        settings.windowSize = options.windowSize;
        settings.grid = options.grid;
        settings.createdBy = options.createdBy;
        settings.analysis = options.analysis;
        // A database built by an older analysis is extended with it, so that programs can still
        // be added to it and its model still reads features of the kind it was trained on.
        if (db.hasBuildSettings())
            settings.analysis = db.buildSettings().analysis;
        for (const auto& reader : readers)
            if (!reader->info().regions.empty()) {
                settings.regionLength = reader->info().regions.front().length;
                break;
            }
        db.initialiseBuildSettings(settings);
        std::set<std::int64_t> programIds;
        std::size_t global = 0;
        for (std::size_t t = 0; t < readers.size(); ++t) {
            const TraceInfo& info = readers[t]->info();
            ProgramRow program;
            program.name = programName(options.traces[t]);
            program.commandLine = info.commandLine;
            program.sourceTrace = std::filesystem::absolute(options.traces[t]).lexically_normal();
            program.instructionsTraced = info.recordCount;
            const std::int64_t programId = db.ensureProgram(program);
            if (!programIds.insert(programId).second)
                throw usageError("trace " + options.traces[t].string() +
                                 " is given twice (or two traces share the name '" + program.name +
                                 "')");
            for (std::size_t r = 0; r < info.regions.size(); ++r, ++global) {
                const Region& region = info.regions[r];
                RegionRow row;
                row.programId = programId;
                row.regionIndex = static_cast<std::uint32_t>(r);
                row.programStart = region.programStart;
                row.warmup = region.warmup;
                row.length = region.length;
                row.functionalWarmup = region.warmState.empty() ? 0 : region.functionalWarmup;
                row.basicBlockVector = region.basicBlockVector;
                const std::int64_t regionId = db.ensureRegion(row);
                if (!options.shard.contains(global))
                    continue;
                ++summary.regionsInShard;
                pending.push_back(
                    {regionId, t, r, region.warmup, program.name + " region " + std::to_string(r)});
            }
        }
        transaction.commit();
    }
    std::map<std::int64_t, bool> complete;
    for (const RegionRow& row : db.regions())
        complete[row.id] = row.complete;
    std::erase_if(pending, [&](const Pending& p) { return complete[p.regionId]; });
    summary.alreadyComplete = summary.regionsInShard - pending.size();

    const SeriesCatalog& catalog = db.catalog();
    const AnalysisRevision analysis = db.buildSettings().analysis;
    const std::size_t stepsTotal = pending.size() * catalog.memoryConfigs().size();
    std::atomic<std::size_t> stepsDone{0};
    std::atomic<std::size_t> built{0}; // summary.regionsBuilt, readable from compute threads
    const auto builtText = [&] {
        return std::to_string(built.load()) + "/" + std::to_string(pending.size()) + " regions";
    };
    {
        JobProgress start;
        start.total = stepsTotal;
        start.item = builtText();
        start.log = std::to_string(summary.regionsInShard) + " regions" +
                    (options.shard.all() ? "" : " in shard " + options.shard.toString()) + ", " +
                    std::to_string(summary.alreadyComplete) + " already complete, " +
                    std::to_string(pending.size()) + " to build";
        job.report(start);
    }

    std::size_t next = 0;
    try {
        runOrderedPipeline<Work>(
            options.jobs,
            [&]() -> std::shared_ptr<Work> {
                if (next >= pending.size() || job.cancelled())
                    return nullptr;
                auto work = std::make_shared<Work>();
                work->pending = pending[next++];
                work->start = Clock::now();
                TraceReader& reader = *readers[work->pending.trace];
                reader.readRegion(work->pending.regionIndex, work->records);
                work->warmState = reader.info().regions[work->pending.regionIndex].warmState;
                return work;
            },
            [&](Work& work) {
                // Each memory configuration finished is one step of the whole run.
                const JobControl steps = job.nested(
                    [&](const JobProgress&) { job.report(++stepsDone, stepsTotal, builtText()); });
                const std::shared_ptr<const WarmState> warm =
                    WarmState::fromBytes(work.warmState, work.pending.label);
                const GridBounds::Result result =
                    GridBounds::build(work.records, work.pending.warmup, options.grid,
                                      options.windowSize, steps, warm, analysis);
                catalog.requireMatches(result);
                work.data = encodeRegion(catalog, result, work.records, options.seriesLevel);
                // Stored in the current (compressed) encoding whatever the trace's was.
                work.data.records.warmState = warm ? warm->encode() : std::vector<std::uint8_t>{};
                work.records = {};
            },
            [&](Work& work) {
                db.writeRegionData(work.pending.regionId, work.data);
                std::uint64_t seriesBytes = 0;
                for (const auto& group : work.data.groups)
                    seriesBytes += group.data.size();
                const std::uint64_t recordBytes = work.data.records.data.size();
                summary.seriesBytes += seriesBytes;
                summary.recordBytes += recordBytes;
                ++summary.regionsBuilt;
                ++built;
                const double seconds =
                    std::chrono::duration<double>(Clock::now() - work.start).count();
                JobProgress committed;
                committed.done = stepsDone.load();
                committed.total = stepsTotal;
                committed.item = builtText();
                committed.log =
                    "[" + std::to_string(summary.alreadyComplete + summary.regionsBuilt) + "/" +
                    std::to_string(summary.regionsInShard) + "] " + work.pending.label +
                    " committed: series " + kilobytes(seriesBytes) + ", records " +
                    kilobytes(recordBytes) + ", " + secondsText(seconds);
                job.report(committed);
            });
    } catch (const ConcordeError&) {
        if (!job.cancelled())
            throw;
    }
    summary.seconds = std::chrono::duration<double>(Clock::now() - started).count();
    if (job.cancelled() && summary.regionsBuilt < pending.size())
        throw jobCancelled("interrupted: " + std::to_string(summary.regionsBuilt) + " of " +
                           std::to_string(pending.size()) +
                           " regions were built and committed in this run; run the same "
                           "command again to resume");
    return summary;
}

} // namespace concorde
