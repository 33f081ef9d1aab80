#include "analysis/RegionAnalyzer.h"

#include "analysis/BranchTargetPredictor.h"
#include "analysis/CacheHierarchy.h"
#include "analysis/DependencyAnalyzer.h"
#include "common/ConcordeError.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <unordered_map>

namespace concorde {

RegionAnalyzer::RegionAnalyzer(const MemorySystemSpec& spec, const LatencyTable& latencies,
                               const TagePredictor::Geometry& tage, const BranchTargetSpec& targets)
    : spec_(spec), latencies_(latencies), tage_(tage), targets_(targets) {
    spec_.validate();
    targets_.validate();
    TagePredictor{tage_}; // validates the geometry now rather than on first use
}

AnnotatedRegion RegionAnalyzer::analyze(std::span<const TraceRecord> records, std::uint64_t warmup,
                                        const MemoryConfig& config,
                                        std::shared_ptr<const WarmState> warm) const {
    if (warmup > records.size())
        throw badInput("region warm-up of " + std::to_string(warmup) + " records exceeds its " +
                       std::to_string(records.size()) + " records");
    AnnotatedRegion region;
    region.warmup = warmup;
    region.spec = spec_;
    region.warm = std::move(warm);
    region.instructions.resize(records.size() - warmup);
    AnnotatedRegion::Stats& stats = region.stats;
    stats.instructions = region.instructions.size();

    DependencyAnalyzer dependencies;
    TagePredictor tage = region.warm ? region.warm->tagePredictor(tage_) : TagePredictor(tage_);
    BranchTargetPredictor targets =
        region.warm ? region.warm->targetPredictor(targets_) : BranchTargetPredictor(targets_);
    const auto base = static_cast<std::int32_t>(warmup);
    for (std::size_t i = 0; i < records.size(); ++i) {
        const TraceRecord& r = records[i];
        const ProducerList absolute = dependencies.next(r);
        // TAGE decides directions only; targets come from the shared front end, exactly as the
        // reference simulator splits them.
        const bool direction = r.isBranch() && tage.predictAndUpdate(r) &&
                               r.branchKind == BranchKind::DirectConditional;
        const TargetOutcome target = targets.predictAndUpdate(r);
        const bool wrongTarget = target == TargetOutcome::Mispredicted;
        // Kept whatever the direction predictor says: the simple predictor decides directions
        // later, from these annotations; a direction misprediction subsumes the miss.
        const bool btbMiss = target == TargetOutcome::BtbMiss;
        if (i < warmup)
            continue;
        AnnotatedInstruction& a = region.instructions[i - warmup];
        for (std::size_t k = 0; k < absolute.count; ++k)
            if (absolute.index[k] >= base)
                a.producers.add(absolute.index[k] - base, absolute.isMemory(k),
                                absolute.isEarly(k));
        a.instrClass = r.instrClass;
        a.branchKind = r.branchKind;
        a.loadCount = r.loadCount;
        a.storeCount = r.storeCount;
        a.flags = static_cast<std::uint8_t>(
            (r.isBranch() && r.taken ? AnnotatedInstruction::kTaken : 0) |
            (direction ? AnnotatedInstruction::kTageMispredicted : 0) |
            (wrongTarget ? AnnotatedInstruction::kTargetMispredicted : 0) |
            (btbMiss ? AnnotatedInstruction::kBtbMiss : 0));
        ++stats.perClass[static_cast<std::size_t>(r.instrClass)];
        ++stats.perBranchKind[static_cast<std::size_t>(r.branchKind)];
        stats.tageMispredictions += direction || wrongTarget;
        stats.tageConditionalMispredictions += direction;
        stats.targetMispredictions += wrongTarget;
        stats.btbMisses += btbMiss;
    }
    annotateMemory(region, records, config);
    return region;
}

void RegionAnalyzer::annotateMemory(AnnotatedRegion& region, std::span<const TraceRecord> records,
                                    const MemoryConfig& config) const {
    const std::uint64_t warmup = region.warmup;
    if (warmup + region.instructions.size() != records.size())
        throw badInput("annotateMemory: " + std::to_string(records.size()) +
                       " records do not match a region of " + std::to_string(warmup) + " + " +
                       std::to_string(region.instructions.size()));
    CacheHierarchy hierarchy(config, spec_);
    if (region.warm)
        region.warm->warm(hierarchy);
    const std::uint32_t shift = spec_.lineShift();
    AnnotatedRegion::Stats& stats = region.stats;
    stats.loads = stats.stores = stats.fetchAccesses = 0;
    stats.loadLevels.fill(0);
    stats.storeLevels.fill(0);
    stats.fetchLevels.fill(0);

    // Dense line ids and the current memory-ordering episode of each line.
    constexpr std::uint32_t kNoEpisode = std::numeric_limits<std::uint32_t>::max();
    std::unordered_map<std::uint64_t, std::uint32_t> lineIds;
    lineIds.reserve(region.instructions.size() / 4 + 16);
    std::vector<std::uint32_t> lineEpisode;
    std::vector<MemLevel> episodeLevel;
    // Lines installed by a prefetch of a measured load and not yet loaded since: the trigger's
    // measured index and the level the line came from.
    struct PendingPrefetch {
        std::uint32_t trigger;
        MemLevel level;
    };
    std::unordered_map<std::uint64_t, PendingPrefetch> pendingPrefetches;
    region.prefetches.clear();

    std::uint64_t fetchLine = std::numeric_limits<std::uint64_t>::max();
    MemLevel fetchLevel = MemLevel::L1;
    bool redirected = true; // the first instruction always starts a fetch
    std::uint64_t prefetchesAtStart = 0;

    for (std::size_t i = 0; i < records.size(); ++i) {
        const TraceRecord& r = records[i];
        const bool measured = i >= warmup;
        if (i == warmup)
            prefetchesAtStart = hierarchy.prefetchesIssued();

        // Instruction fetch.
        const std::uint64_t firstLine = r.pc >> shift;
        const std::uint64_t lastLine = (r.pc + std::max<std::uint8_t>(r.size, 1) - 1) >> shift;
        bool newFetch = false;
        if (redirected || firstLine != fetchLine) {
            fetchLevel = hierarchy.accessInstruction(r.pc);
            newFetch = true;
        }
        // The rest of an instruction that spans lines: those lines are new accesses.
        for (std::uint64_t line = firstLine + 1; line <= lastLine; ++line) {
            const MemLevel level = hierarchy.accessInstruction(line << shift);
            fetchLevel = newFetch ? std::max(fetchLevel, level) : level;
            newFetch = true;
        }
        fetchLine = lastLine;
        redirected = r.isBranch() && r.taken;

        // Data accesses: loads read before the instruction's stores write.
        MemLevel loadLevel = MemLevel::L1;
        for (std::size_t k = 0; k < r.loadCount; ++k) {
            loadLevel = std::max(
                loadLevel, hierarchy.accessData(r.pc, r.loads[k].address, false, r.loads[k].size));
            if (measured && timedLoads_)
                for (const CacheHierarchy::IssuedPrefetch& p : hierarchy.lastPrefetches())
                    pendingPrefetches[p.line] = {static_cast<std::uint32_t>(i - warmup), p.level};
        }
        MemLevel storeLevel = MemLevel::L1;
        for (std::size_t k = 0; k < r.storeCount; ++k)
            storeLevel = std::max(storeLevel, hierarchy.accessData(r.pc, r.stores[k].address, true,
                                                                   r.stores[k].size));
        if (!measured)
            continue;

        AnnotatedInstruction& a = region.instructions[i - warmup];
        a.flags = static_cast<std::uint8_t>((a.flags & ~(AnnotatedInstruction::kNewFetchLine |
                                                         AnnotatedInstruction::kTriggersPrefetch)) |
                                            (newFetch ? AnnotatedInstruction::kNewFetchLine : 0));
        a.fetchLevel = fetchLevel;
        if (newFetch) {
            ++stats.fetchAccesses;
            ++stats.fetchLevels[levelIndex(fetchLevel)];
        }
        a.storeLevel = storeLevel;
        if (r.storeCount > 0) {
            ++stats.stores;
            ++stats.storeLevels[levelIndex(storeLevel)];
        }
        const std::uint32_t classLatency = latencies_.latency(r.instrClass);
        if (r.loadCount == 0) {
            a.loadLevel = a.episodeLevel = MemLevel::L1;
            a.lineId = a.episodeId = 0;
            // A store's line, for the store queue's drain (QueueModel): a store that finds its
            // line already on its way waits for that fill.
            if (r.storeCount > 0) {
                const auto [it, inserted] = lineIds.try_emplace(
                    r.stores[0].address >> shift, static_cast<std::uint32_t>(lineIds.size()));
                if (inserted)
                    lineEpisode.push_back(kNoEpisode);
                a.lineId = it->second;
            }
            a.latency = a.classLatency =
                static_cast<std::uint16_t>(latencies_.instructionLatency(r.instrClass, 0));
            continue;
        }
        ++stats.loads;
        ++stats.loadLevels[levelIndex(loadLevel)];
        const std::uint32_t memoryLatency = spec_.latency(loadLevel);
        a.loadLevel = loadLevel;
        a.latency = static_cast<std::uint16_t>(
            std::min<std::uint32_t>(latencies_.instructionLatency(r.instrClass, memoryLatency),
                                    std::numeric_limits<std::uint16_t>::max()));
        a.classLatency = static_cast<std::uint16_t>(classLatency);

        // Ordering episodes are keyed by the first load's line.
        const std::uint64_t line = r.loads[0].address >> shift;
        const auto [it, inserted] =
            lineIds.try_emplace(line, static_cast<std::uint32_t>(lineIds.size()));
        const std::uint32_t lineId = it->second;
        if (inserted)
            lineEpisode.push_back(kNoEpisode);
        // The first load of a prefetched line: an L1 hit in order, but the fill may still be on
        // its way; its episode starts with the prefetch, at the level the line came from.
        std::optional<PendingPrefetch> prefetched;
        if (const auto p = pendingPrefetches.find(line);
            p != pendingPrefetches.end() && p->second.trigger < i - warmup) {
            if (loadLevel == MemLevel::L1)
                prefetched = p->second;
            pendingPrefetches.erase(p);
        }
        if (prefetched) {
            lineEpisode[lineId] = static_cast<std::uint32_t>(episodeLevel.size());
            episodeLevel.push_back(prefetched->level);
            region.prefetches.push_back(
                {prefetched->trigger, lineId, lineEpisode[lineId], prefetched->level});
        } else if (loadLevel != MemLevel::L1 || lineEpisode[lineId] == kNoEpisode) {
            lineEpisode[lineId] = static_cast<std::uint32_t>(episodeLevel.size());
            episodeLevel.push_back(loadLevel);
        }
        a.lineId = lineId;
        a.episodeId = lineEpisode[lineId];
        a.episodeLevel = episodeLevel[a.episodeId];
    }
    std::stable_sort(region.prefetches.begin(), region.prefetches.end(),
                     [](const AnnotatedRegion::Prefetch& a, const AnnotatedRegion::Prefetch& b) {
                         return a.trigger < b.trigger;
                     });
    for (const AnnotatedRegion::Prefetch& p : region.prefetches)
        region.instructions[p.trigger].flags |= AnnotatedInstruction::kTriggersPrefetch;
    stats.prefetchesIssued =
        hierarchy.prefetchesIssued() -
        (warmup < records.size() ? prefetchesAtStart : hierarchy.prefetchesIssued());
    region.memoryConfig = config;
    region.lineCount = static_cast<std::uint32_t>(lineIds.size());
    region.episodeCount = static_cast<std::uint32_t>(episodeLevel.size());
    region.loadMshrs = timedLoads_ ? spec_.l1dMshrs : 0;
}

} // namespace concorde
