#pragma once

#include "analysis/AnnotatedRegion.h"
#include "bounds/WindowBounds.h"

namespace concorde {

/// The ROB of size R as an instruction-level dynamical system (DESIGN §7), everything else
/// unlimited:
///   arrival  a_i = c_{i-R}            (0 for i < R)
///   start    s_i = max(a_i, f_j for every producer j of i)
///   finish   f_i = s_i + latency_i, for loads the memory-ordering response of the line
///            (MemoryOrderingModel) plus the class latency
///   commit   c_i = max(f_i, c_{i-1})
/// Loads are answered in order of their start times, as the ordering model requires; the
/// evaluation is event-driven (a heap of instructions whose start is known), which yields
/// starts in non-decreasing order because every time derived from an event is ≥ that event's.
///
/// Results: the per-window IPC bound, and per-window means of the three latency components of
/// each instruction (issue wait s−a, execution f−s, commit wait c−f) for the auxiliary features.
class RobModel {
public:
    struct Result {
        WindowSeries ipc;
        WindowSeries issueWait;
        WindowSeries execution;
        WindowSeries commitWait;
        double overallIpc = 0;      ///< instructions / c_last
        std::vector<double> commit; ///< c_i of every instruction
    };

    static Result run(const AnnotatedRegion& region, std::uint32_t robSize,
                      std::uint32_t windowSize);
};

} // namespace concorde
