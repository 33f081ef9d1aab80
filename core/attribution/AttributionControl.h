#pragma once

#include <atomic>
#include <functional>

namespace concorde {

/// How a caller follows and stops a long attribution (the GUI runs it off the UI thread).
struct AttributionControl {
    /// Called with the fraction of evaluations done, in [0, 1]. Calls never overlap and the
    /// fractions never decrease, but they may come from a worker thread; a run that completes
    /// reports exactly 1. Returning false cancels the run.
    std::function<bool(double fraction)> progress;
    /// When set (from any thread), the run stops at the next batch boundary.
    const std::atomic<bool>* cancel = nullptr;
};

} // namespace concorde
