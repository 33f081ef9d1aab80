#pragma once

#include "analysis/AnnotatedRegion.h"
#include "analysis/ConsumerLists.h"
#include "bounds/WindowBounds.h"

namespace concorde {

/// The ROB of size R as an instruction-level dynamical system (docs/design.md §7), everything else
/// unlimited:
///   arrival  a_i = c_{i-R}            (0 for i < R)
///   start    s_i = max(a_i, f_j for every producer j of i)
///   finish   f_i = s_i + latency_i, for loads the memory-ordering response of the line
///            (MemoryOrderingModel) plus the class latency
///   commit   c_i = max(f_i, c_{i-1})
/// Loads are answered in order of their start times, as the ordering model requires; the
/// evaluation is event-driven (a calendar of instructions whose start is known), which yields
/// starts in non-decreasing order because every time derived from an event is ≥ that event's.
///
/// Construct once per analysed region (it prepares the consumer lists) and run() for each ROB
/// size; run() reuses its buffers, so a sweep over sizes allocates nothing. Not thread-safe:
/// use one RobModel per thread.
class RobModel {
public:
    struct Result {
        WindowSeries ipc;
        WindowSeries issueWait;     ///< per-window mean of s − a
        WindowSeries execution;     ///< per-window mean of f − s
        WindowSeries commitWait;    ///< per-window mean of c − f
        double overallIpc = 0;      ///< instructions / c_last
        std::vector<double> commit; ///< c_i of every instruction
    };

    explicit RobModel(const AnnotatedRegion& region);
    Result run(std::uint32_t robSize, std::uint32_t windowSize);

    /// The load queue of size Q alone, through commit (docs/design.md §7): the same system with
    /// an unlimited ROB, where instructions dispatch in order and a load needs the entry of the
    /// load Q loads older, which frees when that load commits, as in the reference simulator:
    ///   arrival  a_i = c_{L(m_i − Q)}  (0 while m_i ≤ Q)
    /// with m_i the number of loads up to and including i and L(k) the k-th load. So a load
    /// waits for everything older to finish, dependencies and other instructions included;
    /// without loads it is the region's dataflow limit.
    Result runLoadQueue(std::uint32_t loadQueueSize, std::uint32_t windowSize);

    /// True when `other` is the same system: the same instructions, dependencies, memory
    /// responses, prefetches and MSHRs, so that every run() and runLoadQueue() of the two
    /// gives the same result. Two memory configurations compare equal when they differ only in
    /// what this model never sees, e.g. L1i sizes that change no data access (GridBounds).
    bool sameSystemAs(const RobModel& other) const;

    /// One-off convenience: prepare and run.
    static Result run(const AnnotatedRegion& region, std::uint32_t robSize,
                      std::uint32_t windowSize) {
        return RobModel(region).run(robSize, windowSize);
    }

private:
    /// The system for a dispatch gate: instructions [0, gate.ungated()) arrive at 0; a later
    /// instruction i arrives when instruction gate.of(i) commits (non-decreasing in i).
    template <class Gate>
    Result simulate(const Gate& gate, std::uint32_t windowSize);

    /// What run() needs of each instruction, packed (16 bytes) so the event loop stays in cache.
    struct Compact {
        std::uint32_t lineId;
        std::uint32_t episodeId;
        std::uint16_t latency; ///< non-loads: total; loads: class latency after the response
        std::uint8_t isLoad;
        std::uint8_t episodeLevel;
        std::uint8_t producers;
        std::uint8_t triggersPrefetch;
        bool operator==(const Compact&) const = default;
    };

    const AnnotatedRegion& region_;
    std::vector<Compact> compact_;
    ConsumerLists consumers_;
    std::vector<double> arrival_, start_, finish_, commit_;
    std::vector<std::uint8_t> pending_;
    std::vector<std::uint32_t> loads_;    ///< positions of the loads
    std::vector<std::uint32_t> loadGate_; ///< runLoadQueue's gate of every instruction
    /// Calendar queue of instructions whose start is known: every time in the model is a whole
    /// cycle and every event schedules strictly later than the current time, no further ahead
    /// than the longest latency, so a ring of per-cycle buckets replaces a heap. Within a cycle
    /// instructions start in program order.
    std::vector<std::vector<std::uint32_t>> buckets_;
};

} // namespace concorde
