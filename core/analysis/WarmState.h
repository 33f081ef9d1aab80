#pragma once

#include "analysis/BranchTargetPredictor.h"
#include "analysis/TagePredictor.h"
#include "trace/TraceInfo.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace concorde {

class CacheHierarchy;

/// The machine state a region starts from after a functional warm-up (SMARTS-style functional
/// warming, docs/design.md §5), summarised so that it serves every configuration of the
/// parameter space without replaying the warm-up itself:
///
/// - **lines**: distinct cache lines touched during the warm-up, oldest first. For every set of
///   the finest set partition of any cache the parameter space allows (finestSets() sets, each
///   line's set being `line mod finestSets()`), the ways() most recent lines of that set are
///   kept. Any cache whose set count divides finestSets() and whose associativity is at most
///   ways() finds, in each of its sets, the lines an LRU cache would hold after the warm-up:
///   touching these lines in order rebuilds it exactly for LRU. For the tree-PLRU caches here the
///   rebuilt content is the LRU one, which PLRU approximates (it can keep an older line in place
///   of a newer one); instruction lines go through L1i, data lines through L1d, and both fill the
///   shared L2 and LLC in their global recency order (a non-inclusive L2 that saw only L1 misses
///   may hold slightly different lines).
/// - **recentLoads**: the last demand loads (pc, address), replayed after the lines so that the
///   L1d stride prefetcher is trained and issues its prefetches at whatever degree the
///   configuration has.
/// - **tage**: the TAGE predictor (tables, histories, indirect targets) after the warm-up. Its
///   geometry is fixed, not a parameter, so one snapshot serves every configuration. The simple
///   predictor has no state to warm (its mispredictions are a pure function of seed and branch
///   ordinal).
/// - **targets**: the branch-target front end (BTB, return stack, indirect-target table and its
///   history: BranchTargetPredictor) after the warm-up. Also fixed structure, so one snapshot
///   serves every configuration; a consumer with another BranchTargetSpec starts it cold.
///   States written before it existed (encoding version 1) have none: the front end starts cold.
struct WarmState {
    struct Line {
        std::uint64_t line = 0;
        bool instruction = false;
        bool operator==(const Line&) const = default;
    };
    struct Load {
        std::uint64_t pc = 0;
        std::uint64_t address = 0;
        bool operator==(const Load&) const = default;
    };

    std::uint64_t instructions = 0;            ///< length of the functional warm-up summarised
    std::vector<Line> lines;                   ///< oldest first
    std::vector<Load> recentLoads;             ///< oldest first
    std::shared_ptr<const TagePredictor> tage; ///< null: the predictor starts cold
    std::shared_ptr<const BranchTargetPredictor> targets; ///< null: the front end starts cold

    /// True when there is nothing to warm from (no functional warm-up).
    bool cold() const { return instructions == 0; }

    /// Sets of the finest partition that every cache of the parameter space refines.
    static std::uint32_t finestSets();
    /// Lines kept per finest set: the largest associativity of any cache.
    static std::uint32_t ways();
    /// Demand loads kept for the prefetcher.
    static constexpr std::size_t kRecentLoads = 4096;

    /// A compact byte form (for a trace's region table or a database row): its version, then
    /// lines and loads as varint deltas, the TAGE state and the branch-target state, all in one
    /// zstd frame (encoding 3). Typically tens of kB. decode() also reads encoding 1 (no
    /// branch-target state) and 2 (not compressed).
    std::vector<std::uint8_t> encode() const { return encode(kTraceCompressionLevel); }
    /// encode() at a given zstd level: the same encoding, any level decodes alike.
    std::vector<std::uint8_t> encode(int compressionLevel) const;
    /// The level trace writing uses: fast enough to leave tracing's cost unchanged.
    static constexpr int kTraceCompressionLevel = 9;
    /// The level `migrate-db` stores with: about 9 % smaller than the trace level at 8x its time
    /// (0.16 s per region), worth it for a database that is written once and shipped.
    static constexpr int kArchiveCompressionLevel = 19;
    /// The inverse of encode(). A bad-input ConcordeError naming `what` for damaged bytes.
    static WarmState decode(std::span<const std::uint8_t> bytes, const std::string& what);

    /// The warm state a trace region starts from: its decoded Region::warmState, or null for a
    /// cold region (no functional warm-up, e.g. a version-1 trace). A bad-input ConcordeError
    /// naming `what` when the bytes are damaged.
    static std::shared_ptr<const WarmState> ofRegion(const Region& region, const std::string& what);
    /// decode() of `bytes`, or null when they are empty (a cold region).
    static std::shared_ptr<const WarmState> fromBytes(std::span<const std::uint8_t> bytes,
                                                      const std::string& what);

    /// Records that leave a cache hierarchy and its stride prefetcher as warm() does when run
    /// through any simulator: one fetch of each instruction line and one load of each data line,
    /// in the lines' order, then the recent loads with their own PCs. The data-line loads all
    /// sit at kReplayPc (one instruction line, a PC no program uses). How an outside simulator
    /// (ChampSim) gets the functional warm-up: it cannot take a TAGE snapshot, so its branch
    /// predictor warms only on the detailed warm-up that follows.
    std::vector<TraceRecord> replayRecords() const;
    static constexpr std::uint64_t kReplayPc = 0x1000;

    /// Touches the lines in order, then replays the recent loads, then clears the statistics.
    void warm(CacheHierarchy& caches) const;
    /// The warm TAGE predictor (a copy of the snapshot), or a cold one of `geometry` when there
    /// is no snapshot or it has another geometry.
    TagePredictor tagePredictor(const TagePredictor::Geometry& geometry = {}) const;
    /// The warm branch-target front end (a copy of the snapshot), or a cold one of `spec` when
    /// there is no snapshot or it has another spec.
    BranchTargetPredictor targetPredictor(const BranchTargetSpec& spec = {}) const;

private:
    /// The fields after the version of an uncompressed encoding-1 or -2 body.
    static WarmState decodeBody(std::span<const std::uint8_t> bytes, std::uint64_t version,
                                const std::string& what);
};

} // namespace concorde
