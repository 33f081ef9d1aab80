#include "store/DatabaseMerger.h"

#include "common/ConcordeError.h"
#include "store/FeatureDatabase.h"
#include "store/GridDescription.h"
#include "store/SqliteTransaction.h"

#include <map>

namespace concorde {
namespace {

bool sameRegion(const RegionRow& a, const RegionRow& b) {
    return a.id == b.id && a.programId == b.programId && a.regionIndex == b.regionIndex &&
           a.programStart == b.programStart && a.warmup == b.warmup && a.length == b.length &&
           a.basicBlockVector == b.basicBlockVector;
}

} // namespace

DatabaseMerger::Summary DatabaseMerger::merge(const std::filesystem::path& out,
                                              const std::vector<std::filesystem::path>& shards,
                                              const JobControl& job) {
    if (shards.empty())
        throw usageError("no shard databases to merge");
    std::error_code ec;
    for (const auto& shard : shards)
        if (std::filesystem::equivalent(shard, out, ec))
            throw usageError("the output " + out.string() + " is also given as a shard");

    // The first shard is the reference: every other must hold the same programs, regions and
    // settings, which is what makes copying region ids exact.
    BuildSettings settings;
    std::vector<ProgramRow> programs;
    std::vector<RegionRow> regions;
    for (std::size_t s = 0; s < shards.size(); ++s) {
        FeatureDatabase shard = FeatureDatabase::openReadOnly(shards[s]);
        const BuildSettings theirs = shard.buildSettings();
        auto theirPrograms = shard.programs();
        auto theirRegions = shard.regions();
        if (s == 0) {
            settings = theirs;
            programs = std::move(theirPrograms);
            regions = std::move(theirRegions);
            continue;
        }
        const std::string pair = shards[s].string() + " and " + shards[0].string();
        if (theirs.windowSize != settings.windowSize)
            throw badInput(pair + " have different window sizes (" +
                           std::to_string(theirs.windowSize) + " and " +
                           std::to_string(settings.windowSize) + ")");
        if (GridDescription::canonicalText(theirs.grid) !=
            GridDescription::canonicalText(settings.grid))
            throw badInput(pair + " were built with different grids");
        if (theirs.analysis != settings.analysis)
            throw badInput(pair + " hold bounds of different analysis revisions (" +
                           theirs.analysis.describe() + "; " + settings.analysis.describe() +
                           "): one was built by an older Concorde; rebuild it");
        bool samePrograms = theirPrograms.size() == programs.size();
        for (std::size_t i = 0; samePrograms && i < programs.size(); ++i)
            samePrograms = theirPrograms[i].id == programs[i].id &&
                           theirPrograms[i].name == programs[i].name &&
                           theirPrograms[i].commandLine == programs[i].commandLine &&
                           theirPrograms[i].instructionsTraced == programs[i].instructionsTraced;
        bool sameRegions = theirRegions.size() == regions.size();
        for (std::size_t i = 0; sameRegions && i < regions.size(); ++i)
            sameRegions = sameRegion(theirRegions[i], regions[i]);
        if (!samePrograms || !sameRegions)
            throw badInput(pair + " were built from different traces (or traces in another "
                                  "order); shards must be built with the same TRACES list");
    }

    FeatureDatabase target = FeatureDatabase::openForWriting(out);
    {
        SqliteTransaction transaction(target.connection());
        target.initialiseBuildSettings(settings);
        for (const ProgramRow& program : programs)
            if (target.ensureProgram(program) != program.id)
                throw badInput(out.string() + " already holds other programs than the shards");
        for (const RegionRow& region : regions)
            if (target.ensureRegion(region) != region.id)
                throw badInput(out.string() + " already holds other regions than the shards");
        transaction.commit();
    }
    std::map<std::int64_t, bool> complete;
    for (const RegionRow& row : target.regions())
        complete[row.id] = row.complete;

    Summary summary;
    summary.shards = shards.size();
    const SeriesCatalog& catalog = target.catalog();
    std::size_t merged = 0;
    for (const auto& path : shards) {
        job.throwIfCancelled("merging the shards");
        FeatureDatabase shard = FeatureDatabase::openReadOnly(path);
        std::size_t copied = 0;
        std::size_t labels = 0;
        for (const RegionRow& region : shard.regions()) {
            if (!region.complete)
                continue;
            if (!complete[region.id]) {
                // Decode everything before copying: a damaged shard must not spread.
                for (const auto& group : catalog.groups())
                    shard.readSeriesGroup(region.id, group.name);
                shard.regionRecords(region.id);
                RegionData data;
                data.groups = shard.seriesGroupBlobs(region.id);
                data.records = *shard.recordsBlob(region.id);
                target.writeRegionData(region.id, data);
                complete[region.id] = true;
                ++copied;
            }
            const auto rows = shard.labels(region.id);
            if (!rows.empty())
                labels += target.writeLabels(region.id, rows);
        }
        summary.regionsCopied += copied;
        summary.labelsCopied += labels;
        JobProgress progress;
        progress.done = ++merged;
        progress.total = shards.size();
        progress.item = std::to_string(merged) + "/" + std::to_string(shards.size()) + " shards";
        progress.log = "merged " + path.string() + ": " + std::to_string(copied) + " regions, " +
                       std::to_string(labels) + " labels";
        job.report(progress);
    }
    summary.regions = complete.size();
    for (const auto& [id, done] : complete)
        summary.completeRegions += done;
    target.close();
    return summary;
}

} // namespace concorde
