#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace concorde {

/// Per-window throughput bounds (IPC) of one resource: one value per window of `windowSize`
/// consecutive measured instructions (the last window may be shorter).
using WindowSeries = std::vector<float>;

/// Turns model timelines into window bounds.
class WindowBounds {
public:
    /// A bound is an IPC; "this resource never limits the window" is capped here so that
    /// distributions stay finite (no core in the parameter space exceeds 16 instructions/cycle).
    static constexpr float kMaxIpc = 64.0f;

    /// `done[i]` is the (non-decreasing) time at which instruction i is finished for the model,
    /// e.g. its commit time. Window k lasts from done[end of window k-1] (0 for k = 0) to
    /// done[end of window k]; its bound is its instruction count over that duration.
    static WindowSeries fromCompletionTimes(std::span<const double> done, std::uint32_t windowSize);

    /// The same from a model that only knows the completion times of some instructions: `events`
    /// are (instruction index, time) in increasing index and non-decreasing time; instructions
    /// in between complete with the latest event before them (they are free for the model).
    static WindowSeries fromEvents(std::span<const std::uint32_t> indices,
                                   std::span<const double> times, std::size_t instructions,
                                   std::uint32_t windowSize);

    /// A bound that is a rate: window k gets capacity · count_k / demand_k, where demand_k is how
    /// much of the resource window k uses (e.g. ALU instructions) and capacity how much is
    /// available per cycle. Windows with no demand get kMaxIpc.
    static WindowSeries fromDemand(std::span<const float> demandPerWindow,
                                   std::span<const std::uint32_t> countPerWindow, double capacity);

    /// Number of windows for `instructions` instructions.
    static std::size_t windowCount(std::size_t instructions, std::uint32_t windowSize) {
        return (instructions + windowSize - 1) / windowSize;
    }
};

} // namespace concorde
