#pragma once

#include "analysis/AnnotatedInstruction.h"
#include "analysis/MemoryConfig.h"
#include "analysis/MemorySystemSpec.h"
#include "analysis/SimplePredictor.h"
#include "analysis/WarmState.h"
#include "params/CoreConfig.h"

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace concorde {

/// The trace analysis of one region for one memory configuration (docs/design.md §5): one
/// AnnotatedInstruction per measured instruction (warm-up excluded), plus summary counts.
/// Produced by RegionAnalyzer.
struct AnnotatedRegion {
    /// Counts over the measured instructions.
    struct Stats {
        std::uint64_t instructions = 0;
        std::array<std::uint64_t, kInstrClassCount> perClass{};
        std::array<std::uint64_t, kBranchKindCount> perBranchKind{}; ///< [None] = non-branches
        std::uint64_t loads = 0;  ///< instructions with at least one load
        std::uint64_t stores = 0; ///< instructions with at least one store
        std::array<std::uint64_t, kMemLevelCount> loadLevels{};  ///< loads by loadLevel
        std::array<std::uint64_t, kMemLevelCount> storeLevels{}; ///< stores by storeLevel
        std::uint64_t fetchAccesses = 0; ///< instructions with kNewFetchLine
        std::array<std::uint64_t, kMemLevelCount> fetchLevels{}; ///< those by fetchLevel
        std::uint64_t prefetchesIssued = 0; ///< lines installed in L1d by the prefetcher
        /// Every misprediction with TAGE: its conditional ones plus targetMispredictions.
        std::uint64_t tageMispredictions = 0;
        std::uint64_t tageConditionalMispredictions = 0;
        /// Wrong return or indirect targets (BranchTargetPredictor), whatever the direction
        /// predictor.
        std::uint64_t targetMispredictions = 0;
        /// Taken branches that missed the BTB but were otherwise predicted right.
        std::uint64_t btbMisses = 0;
    };

    /// A prefetch issued by a measured load (the trigger) whose line a later measured load found
    /// in L1d only because of it. That load's episode (AnnotatedInstruction::episodeId) starts
    /// with the prefetch, at the level the line came from: the timed models issue the prefetch
    /// when the trigger issues, so a load close behind waits for the fill (MemoryOrderingModel).
    struct Prefetch {
        std::uint32_t trigger = 0; ///< measured index of the load that issued it
        std::uint32_t lineId = 0;
        std::uint32_t episodeId = 0;
        MemLevel level = MemLevel::Dram;
        bool operator==(const Prefetch&) const = default;
    };

    std::vector<AnnotatedInstruction> instructions;
    /// Prefetches used by measured loads, sorted by trigger (the triggers carry
    /// AnnotatedInstruction::kTriggersPrefetch).
    std::vector<Prefetch> prefetches;
    std::uint64_t warmup = 0; ///< warm-up records that preceded the measured ones
    /// The functional warm-up state the models started from (null: cold, then the warm-up
    /// records).
    std::shared_ptr<const WarmState> warm;
    MemoryConfig memoryConfig;
    MemorySystemSpec spec;
    /// Distinct lines of AnnotatedInstruction::lineId (first loads, and stores without loads).
    std::uint32_t lineCount = 0;
    std::uint32_t episodeCount = 0; ///< memory-ordering episodes
    /// L1d MSHRs the timed load models share among line fills (MemoryOrderingModel); 0 for
    /// unlimited, as the analysis was before loads were timed (RegionAnalyzer::setTimedLoads).
    std::uint32_t loadMshrs = 0;
    Stats stats;

    std::size_t size() const { return instructions.size(); }
    /// The prefetches issued by the measured instruction `trigger` (empty for most).
    std::span<const Prefetch> prefetchesOf(std::uint32_t trigger) const;
    const AnnotatedInstruction& operator[](std::size_t i) const { return instructions[i]; }

    /// Per measured instruction, 1 when the simple predictor at `missPct` mispredicts it. The
    /// k-th measured conditional branch (k from 0) is decided by
    /// SimplePredictor::mispredicts(seed, k, missPct), so a SimplePredictor reset at the start of
    /// the measured part gives the same answers.
    std::vector<std::uint8_t>
    simpleMispredictions(double missPct, std::uint64_t seed = SimplePredictor::kDefaultSeed) const;
    /// Misprediction flags of the configured predictor: the direction mispredictions of TAGE, or
    /// of the simple predictor at `missPct`, plus the target mispredictions (returns, indirect
    /// jumps) of the branch-target front end, which both predictors share.
    std::vector<std::uint8_t>
    mispredictions(BranchPredictorKind kind, double missPct,
                   std::uint64_t seed = SimplePredictor::kDefaultSeed) const;
    /// Number of mispredicted measured branches for the configured predictor (direction and
    /// target).
    std::uint64_t mispredictionCount(BranchPredictorKind kind, double missPct,
                                     std::uint64_t seed = SimplePredictor::kDefaultSeed) const;
};

} // namespace concorde
