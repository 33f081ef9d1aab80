#include "pipeline/DatasetMerger.h"

#include "common/ConcordeError.h"
#include "common/JsonFields.h"
#include "store/DatasetFile.h"
#include "store/Shard.h"

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <utility>

namespace concorde {
namespace {

/// A shard file's settings with the "shard" field taken out of its sources (what the unsharded
/// run records), and which shard it is.
struct ShardSettings {
    DatasetSettings settings;
    Shard shard;
};

ShardSettings shardSettings(const std::filesystem::path& path) {
    DatasetFile file = DatasetFile::openReadOnly(path);
    ShardSettings result;
    result.settings = file.settings();
    const std::string what = path.string() + ": meta.sources";
    nlohmann::json sources = JsonFields::parse(result.settings.sources, what);
    if (!sources.is_object())
        throw badInput(what + " is not a JSON object");
    if (sources.contains("shard")) {
        const std::string text = JsonFields::requireString(sources["shard"], what + ".shard");
        try {
            result.shard = Shard::parse(text);
        } catch (const ConcordeError&) {
            throw badInput(what + ".shard is not I/N: '" + text + "'");
        }
        sources.erase("shard");
    }
    // Same text as DatasetBuilder writes for an unsharded run: nlohmann sorts object keys.
    result.settings.sources = sources.dump();
    return result;
}

void requireSame(const std::string& what, const std::string& a, const std::string& b,
                 const std::filesystem::path& shard, const std::filesystem::path& first) {
    if (a != b)
        throw badInput(shard.string() + " and " + first.string() + " were drawn with different " +
                       what + "; shards must come from the same `concorde dataset` command");
}

} // namespace

std::filesystem::path DatasetMerger::stagingPath(const std::filesystem::path& out) {
    std::filesystem::path staging = out;
    staging += ".merging";
    return staging;
}

DatasetMerger::Summary DatasetMerger::merge(const std::filesystem::path& out,
                                            const std::vector<std::filesystem::path>& shards,
                                            const JobControl& job) {
    if (shards.empty())
        throw usageError("no dataset shards to merge");
    const std::filesystem::path staging = stagingPath(out);
    std::error_code ec;
    for (const auto& shard : shards)
        if (std::filesystem::equivalent(shard, out, ec) ||
            std::filesystem::equivalent(shard, staging, ec))
            throw usageError("the output " + out.string() + " is also given as a shard");

    // Every check before anything is written: settings, shard counts, and that each region's
    // draws come from one shard index only (sharding is by region).
    std::vector<ShardSettings> settings;
    std::map<std::pair<std::string, std::uint32_t>, std::uint32_t> regionShard;
    for (std::size_t s = 0; s < shards.size(); ++s) {
        settings.push_back(shardSettings(shards[s]));
        const ShardSettings& mine = settings.back();
        const ShardSettings& first = settings.front();
        requireSame("seeds", std::to_string(mine.settings.seed),
                    std::to_string(first.settings.seed), shards[s], shards[0]);
        requireSame("hold-out lists", nlohmann::json(mine.settings.holdOut).dump(),
                    nlohmann::json(first.settings.holdOut).dump(), shards[s], shards[0]);
        requireSame("inputs", mine.settings.sources, first.settings.sources, shards[s], shards[0]);
        requireSame("grids", mine.settings.gridText, first.settings.gridText, shards[s], shards[0]);
        requireSame("feature layouts", mine.settings.layoutJson, first.settings.layoutJson,
                    shards[s], shards[0]);
        requireSame("shard counts (--shard I/N)", std::to_string(mine.shard.count()),
                    std::to_string(first.shard.count()), shards[s], shards[0]);
        for (const auto& [id, label] : DatasetFile::storedLabels(shards[s])) {
            const auto [at, added] = regionShard.emplace(
                std::pair{label.program, label.regionIndex}, mine.shard.index());
            if (!added && at->second != mine.shard.index())
                throw badInput(shards[s].string() + " (shard " + mine.shard.toString() +
                               ") has draws on " + label.program + " region " +
                               std::to_string(label.regionIndex) + ", which shard " +
                               std::to_string(at->second) + " also has; the shards overlap");
        }
    }

    Summary summary;
    summary.shards = shards.size();
    summary.shardCount = settings.front().shard.count();
    std::set<std::uint32_t> given;
    for (const auto& s : settings)
        given.insert(s.shard.index());
    for (std::uint32_t i = 0; i < summary.shardCount; ++i)
        if (!given.contains(i))
            summary.missingShards.push_back(i);

    const bool extend = std::filesystem::exists(out);
    const std::filesystem::path target = extend ? out : staging;
    {
        // openForWriting refuses an output (or an interrupted merge) of other settings.
        DatasetFile file = DatasetFile::openForWriting(target, settings.front().settings);
        file.removeDamagedSamples(); // copied again below from the shard that has them
        std::set<std::int64_t> present = file.sampleIds();
        std::size_t merged = 0;
        for (const auto& path : shards) {
            job.throwIfCancelled("merging the dataset shards");
            std::vector<DatasetSample> rows = DatasetFile::openReadOnly(path).samples();
            std::vector<DatasetSample> missing;
            for (auto& row : rows) {
                if (present.insert(row.id).second)
                    missing.push_back(std::move(row));
                else
                    ++summary.existing;
            }
            file.write(missing); // one transaction: a shard is in the output whole or not at all
            summary.copied += missing.size();
            JobProgress progress;
            progress.done = ++merged;
            progress.total = shards.size();
            progress.item =
                std::to_string(merged) + "/" + std::to_string(shards.size()) + " shards";
            progress.log = "merged " + path.string() + ": " + std::to_string(missing.size()) +
                           " samples added, " + std::to_string(rows.size() - missing.size()) +
                           " already present";
            job.report(progress);
        }
        summary.total = file.sampleCount();
        if (!present.empty())
            summary.gaps = static_cast<std::size_t>(*present.rbegin() + 1) - present.size();
    } // closed: SQLite checkpoints and removes the write-ahead log
    if (!extend) {
        std::filesystem::path wal = staging;
        wal += "-wal";
        if (std::filesystem::exists(wal))
            throw badInput(staging.string() + " is still open elsewhere (its -wal file remains); "
                                              "run the merge again when nothing else uses it");
        std::filesystem::rename(staging, out);
    }
    return summary;
}

} // namespace concorde
