#pragma once

#include "analysis/MemLevel.h"
#include "analysis/MemoryConfig.h"
#include "analysis/MemorySystemSpec.h"
#include "analysis/SetAssociativeCache.h"
#include "analysis/StridePrefetcher.h"

#include <array>
#include <cstdint>
#include <span>

namespace concorde {

/// In-order functional model of the cache hierarchy: private L1i and L1d, a unified L2 and the
/// LLC, sized by a MemoryConfig and the fixed MemorySystemSpec. It answers at which level each
/// access is satisfied; timing (MSHRs, bandwidth, prefetch timeliness) is left to the caller.
///
/// Policy ("inclusive enough", non-inclusive/non-exclusive like ChampSim's defaults):
/// - a miss looks up the next level and fills the line into every level it missed in, so a line
///   brought from DRAM is in L1, L2 and LLC afterwards;
/// - evictions are silent: an LLC eviction does not invalidate L1/L2 copies, and there is no
///   writeback traffic; with L2 and LLC each much larger than the level above, the difference
///   from strict inclusion is small;
/// - stores are write-allocate and look up the tags exactly like loads;
/// - instruction fetches go L1i → L2 → LLC, sharing L2 and LLC with data.
///
/// Prefetching: demand loads (not stores) train the L1d stride prefetcher; each prefetch target
/// not already in L1d is installed in L1d, L2 and LLC (filling on the way) without counting as
/// demand accesses. Prefetches complete instantly here: the analysis is in-order and untimed, so
/// a prefetched line counts as an L1 hit for a later load however soon it comes. The level each
/// prefetch came from is reported (lastPrefetches) so that the timed models can make a later
/// load wait for the fill, as the reference simulator does (RegionAnalyzer, MemoryOrderingModel).
class CacheHierarchy {
public:
    /// Builds empty (cold) caches. Throws a bad-input ConcordeError for an invalid spec or sizes.
    explicit CacheHierarchy(const MemoryConfig& config, const MemorySystemSpec& spec = {});

    /// A data access of `size` bytes at `address` by the instruction at `pc`. An access that
    /// crosses a line boundary accesses both lines and reports the slower level. Loads
    /// (isStore = false) train the prefetcher.
    MemLevel accessData(std::uint64_t pc, std::uint64_t address, bool isStore,
                        std::uint32_t size = 1);

    /// A prefetch that installed a line not already in L1d, and the level the line came from.
    struct IssuedPrefetch {
        std::uint64_t line = 0;
        MemLevel level = MemLevel::Dram;
    };
    /// The prefetches issued by the last accessData call (empty after a store).
    std::span<const IssuedPrefetch> lastPrefetches() const {
        return {lastPrefetches_.data(), lastPrefetchCount_};
    }
    /// An instruction fetch of the line holding `address`.
    MemLevel accessInstruction(std::uint64_t address);
    /// A data access of one line that does not train the prefetcher (rebuilding a warm state).
    MemLevel warmDataLine(std::uint64_t line) { return accessLine(l1d_, line); }

    /// Load-to-use latency of `level` from the spec.
    std::uint32_t latency(MemLevel level) const { return spec_.latency(level); }
    std::uint64_t lineOf(std::uint64_t address) const { return address >> lineShift_; }

    const MemoryConfig& config() const { return config_; }
    const MemorySystemSpec& spec() const { return spec_; }
    const SetAssociativeCache& l1i() const { return l1i_; }
    const SetAssociativeCache& l1d() const { return l1d_; }
    const SetAssociativeCache& l2() const { return l2_; }
    const SetAssociativeCache& llc() const { return llc_; }
    /// Prefetches that installed a line not already in L1d.
    std::uint64_t prefetchesIssued() const { return prefetchesIssued_; }
    /// Zeroes all hit/miss and prefetch counters (e.g. at the end of the warm-up).
    void resetStats();

private:
    /// Demand lookup of one line starting at `first` (L1i or L1d).
    MemLevel accessLine(SetAssociativeCache& first, std::uint64_t line);
    void prefetch(std::uint64_t line);

    MemoryConfig config_;
    MemorySystemSpec spec_;
    std::uint32_t lineShift_;
    SetAssociativeCache l1i_;
    SetAssociativeCache l1d_;
    SetAssociativeCache l2_;
    SetAssociativeCache llc_;
    StridePrefetcher prefetcher_;
    std::uint64_t prefetchesIssued_ = 0;
    std::array<IssuedPrefetch, StridePrefetcher::kMaxDegree> lastPrefetches_{};
    std::size_t lastPrefetchCount_ = 0;
};

} // namespace concorde
