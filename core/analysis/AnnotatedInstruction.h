#pragma once

#include "analysis/MemLevel.h"
#include "analysis/ProducerList.h"
#include "trace/InstrClass.h"

#include <cstdint>

namespace concorde {

/// What the trace analysis knows about one measured instruction of a region: everything the
/// analytical models and the reference simulator need besides the raw record. 60 bytes.
struct AnnotatedInstruction {
    enum Flag : std::uint8_t {
        kTaken = 1,              ///< a branch that was taken
        kTageMispredicted = 2,   ///< TAGE mispredicted the direction of this conditional branch
        kNewFetchLine = 4,       ///< fetching it started a new I-cache access (see fetchLevel)
        kTargetMispredicted = 8, ///< wrong return or indirect target (any direction predictor)
        /// Taken, missed the BTB, target not mispredicted: a redirect at decode, unless the
        /// configured direction predictor mispredicts the branch (that flush subsumes it).
        kBtbMiss = 16,
        /// A load whose prefetches a later measured load uses (AnnotatedRegion::prefetches).
        kTriggersPrefetch = 32,
    };

    /// Producers (register and memory RAW), as indices into the region's measured instructions;
    /// producers in the warm-up are dropped.
    ProducerList producers;
    /// Dense id (0..lineCount-1 in the region) of the cache line of the first load; for an
    /// instruction that stores without loading, of its first store's line; otherwise 0.
    std::uint32_t lineId = 0;
    /// Loads only: memory-ordering episode (0..episodeCount-1), see MemoryOrderingModel.
    std::uint32_t episodeId = 0;
    /// Execution latency estimate in cycles: class latency plus, for instructions with loads,
    /// the load-to-use latency of the slowest load's in-order cache level.
    std::uint16_t latency = 1;
    /// The part of `latency` after the memory response (the class latency; 0 for a pure Load).
    /// Equal to `latency` for instructions without loads.
    std::uint16_t classLatency = 1;
    InstrClass instrClass = InstrClass::IntAlu;
    BranchKind branchKind = BranchKind::None;
    /// Loads only: slowest level among the instruction's loads in the in-order simulation.
    MemLevel loadLevel = MemLevel::L1;
    /// Loads only: level of the episode this load belongs to (what the first load of the episode
    /// to issue pays).
    MemLevel episodeLevel = MemLevel::L1;
    /// Stores only: slowest level among its stores (write-allocate lookup).
    MemLevel storeLevel = MemLevel::L1;
    /// I-cache level of the access that fetched this instruction's line (for an instruction in
    /// a line already being fetched, that earlier access's level).
    MemLevel fetchLevel = MemLevel::L1;
    std::uint8_t loadCount = 0;
    std::uint8_t storeCount = 0;
    std::uint8_t flags = 0;

    bool isLoad() const { return loadCount > 0; }
    bool isStore() const { return storeCount > 0; }
    bool isBranch() const { return branchKind != BranchKind::None; }
    bool isConditionalBranch() const { return branchKind == BranchKind::DirectConditional; }
    bool taken() const { return flags & kTaken; }
    bool tageMispredicted() const { return flags & kTageMispredicted; }
    bool newFetchLine() const { return flags & kNewFetchLine; }
    bool targetMispredicted() const { return flags & kTargetMispredicted; }
    bool btbMiss() const { return flags & kBtbMiss; }
    bool triggersPrefetch() const { return flags & kTriggersPrefetch; }
};

static_assert(sizeof(AnnotatedInstruction) <= 64, "keep annotated instructions cache-friendly");

} // namespace concorde
