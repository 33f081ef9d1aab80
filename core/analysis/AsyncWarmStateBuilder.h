#pragma once

#include "analysis/WarmStateBuilder.h"
#include "trace/TraceRecord.h"

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace concorde {

/// A WarmStateBuilder split over two threads, so that `concorde trace` builds the warm state
/// while it decodes the tracer's stream (during a functional warm-up the builder is half of the
/// consumer's work, and the consumer, not the tracer, sets the pace: BENCHMARKS.md, "Functional
/// warm-up").
///
/// The caller's thread runs WarmStateBuilder::extract(), which reduces each record to the few
/// line touches and branches that change the state; batches of those events go to a worker
/// thread that runs WarmStateBuilder::apply() on them in order (double buffering: one batch
/// fills while the other is applied). The result is identical to WarmStateBuilder::observe()
/// on the same records.
class AsyncWarmStateBuilder {
public:
    explicit AsyncWarmStateBuilder(std::size_t batchEvents = 8192);
    /// Waits for the worker to finish its batch and stops it.
    ~AsyncWarmStateBuilder();
    AsyncWarmStateBuilder(const AsyncWarmStateBuilder&) = delete;
    AsyncWarmStateBuilder& operator=(const AsyncWarmStateBuilder&) = delete;

    /// As WarmStateBuilder::observe(); returns at once unless a batch is full and the worker is
    /// still busy with the previous one.
    void observe(const TraceRecord& record, bool trainPredictor) {
        builder_.extract(record, trainPredictor, filling_);
        if (filling_.size() >= batchEvents_)
            submit();
    }
    /// Records observed since the last restart().
    std::uint64_t instructions() const { return builder_.instructions(); }
    /// The warm state after everything observed so far (waits for the worker). Rethrows what
    /// the worker threw, if anything.
    WarmState finish();
    /// Forgets everything: the next records start a fresh, cold builder.
    void restart();

private:
    void submit();
    void waitIdle();
    void work();

    std::size_t batchEvents_;
    /// extract() half: the caller's; apply() half: the worker's while busy_, else the caller's.
    WarmStateBuilder builder_;
    std::vector<WarmStateBuilder::Event> filling_;   ///< the caller's
    std::vector<WarmStateBuilder::Event> submitted_; ///< the worker's while busy_
    std::mutex mutex_;
    std::condition_variable changed_;
    bool busy_ = false;
    bool stopping_ = false;
    std::exception_ptr error_;
    std::thread worker_; ///< last: starts after every member it uses exists
};

} // namespace concorde
