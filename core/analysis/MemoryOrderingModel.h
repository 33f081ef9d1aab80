#pragma once

#include "analysis/AnnotatedInstruction.h"
#include "analysis/MemLevel.h"
#include "analysis/MemorySystemSpec.h"

#include <array>
#include <cstdint>
#include <functional>
#include <queue>
#include <span>
#include <vector>

namespace concorde {

struct AnnotatedRegion;

/// Load response times when loads execute out of program order: the memory-ordering refinement
/// of the in-order cache analysis (docs/design.md §5, Algorithm 1 of the Concorde paper).
///
/// The in-order simulation gives each load a level as if loads ran in program order. Out of
/// order, a younger load to a line may issue before the older one that missed; then the younger
/// one pays the miss and the older one waits for the line already on its way. The rule:
///
/// 1. Episodes (computed by RegionAnalyzer): a line's measured loads, in program order, are cut
///    into episodes; an episode starts at a load whose in-order level is beyond L1 (or at the
///    line's first measured load) and lasts until the next such load. Its level is that of the
///    load that starts it; all other loads of the episode are in-order L1 hits.
/// 2. Loads are presented in non-decreasing issue time s (ties in any fixed order, e.g. program
///    order). The first load of an episode to *issue* (whichever it is in program order) pays
///    the episode's level: r = s + latency(episodeLevel). Every later-issuing load of the episode
///    is a hit: r = s + latency(L1).
/// 3. Loads to the same line respond in non-decreasing order of issue:
///    r = max(r, response of the previously issued load to that line). So a hit that issues while
///    its line is still in flight waits for it.
///
/// Example (L1 4, DRAM 200): program order A (line X, DRAM, starts episode 0), B (line X, L1 hit,
/// episode 0), issued B at 5 then A at 10: B pays DRAM, r_B = 205; A is a hit, 10 + 4 = 14, but
/// must wait for the line: r_A = 205.
///
/// 4. Prefetches (AnnotatedRegion::prefetches) are loads too: a prefetch that a later load used
///    belongs to that load's episode and issues when the load that triggered it issues
///    (respondLoad), so the first of the two to issue pays the level the line came from. A load
///    close behind its trigger waits for the fill, as in the reference simulator; one far
///    behind finds the line arrived.
/// 5. Fills take MSHRs: the first load of an episode beyond L1 (or its prefetch) needs one of
///    the region's loadMshrs for the fill's whole latency; when all are busy it waits for the
///    earliest to free, as a refused load retries in the reference simulator (0: unlimited).
///
/// Times are doubles (exact for integer cycles). State is two flat arrays indexed by the
/// region's dense line and episode ids; respond() is O(1) and allocation-free.
class MemoryOrderingModel {
public:
    /// One load for the batch interface.
    struct Load {
        std::uint32_t lineId = 0;
        std::uint32_t episodeId = 0;
        MemLevel episodeLevel = MemLevel::L1;
        double issueTime = 0;
    };

    MemoryOrderingModel(const MemorySystemSpec& spec, std::uint32_t lineCount,
                        std::uint32_t episodeCount);
    /// Sized for `region`'s line and episode ids, with its spec's latencies.
    explicit MemoryOrderingModel(const AnnotatedRegion& region);

    /// Forgets all issued loads.
    void reset();

    /// Response time (when dependants may start) of a load issuing at `issueTime`. Calls must
    /// come in non-decreasing issueTime; ids must be below the counts given at construction.
    double respond(std::uint32_t lineId, std::uint32_t episodeId, MemLevel episodeLevel,
                   double issueTime) {
        const bool first = !episodeStarted_[episodeId];
        episodeStarted_[episodeId] = 1;
        const MemLevel level = first ? episodeLevel : MemLevel::L1;
        const double start =
            level == MemLevel::L1 || mshrs_ == 0 ? issueTime : takeMshr(issueTime, level);
        double response = start + latency_[levelIndex(level)];
        double& last = lastResponse_[lineId];
        if (response < last)
            response = last;
        last = response;
        return response;
    }
    double respond(const AnnotatedInstruction& load, double issueTime) {
        return respond(load.lineId, load.episodeId, load.episodeLevel, issueTime);
    }
    /// respond() for the measured load `index` of the region the model was built for, then the
    /// prefetches that load triggers (rule 4), issued at the same time. Same order requirement.
    double respondLoad(std::uint32_t index, std::uint32_t lineId, std::uint32_t episodeId,
                       MemLevel episodeLevel, bool triggersPrefetch, double issueTime) {
        const double response = respond(lineId, episodeId, episodeLevel, issueTime);
        if (triggersPrefetch)
            issuePrefetches(index, issueTime);
        return response;
    }
    double respondLoad(std::uint32_t index, const AnnotatedInstruction& load, double issueTime) {
        return respondLoad(index, load.lineId, load.episodeId, load.episodeLevel,
                           load.triggersPrefetch(), issueTime);
    }

    /// Applies the rule to a whole set of loads with known issue times: processes them by
    /// issue time (ties in input order) and returns response times in input order.
    static std::vector<double> respondAll(const MemorySystemSpec& spec,
                                          std::span<const Load> loads);

private:
    void issuePrefetches(std::uint32_t trigger, double issueTime);
    /// When a fill from `level` requested at `issueTime` gets an MSHR (later than issueTime when
    /// all are busy); the MSHR is then busy until the line arrives.
    double takeMshr(double issueTime, MemLevel level);

    std::uint32_t mshrs_ = 0; ///< 0: unlimited
    std::priority_queue<double, std::vector<double>, std::greater<>> mshrsBusy_;

    const AnnotatedRegion* region_ = nullptr; ///< for respondLoad's prefetches
    std::array<double, kMemLevelCount> latency_{};
    std::vector<double> lastResponse_;
    std::vector<std::uint8_t> episodeStarted_;
};

} // namespace concorde
