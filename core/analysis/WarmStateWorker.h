#pragma once

#include "analysis/BranchTargetPredictor.h"
#include "analysis/TagePredictor.h"
#include "analysis/WarmState.h"
#include "analysis/WarmStateBuilder.h"

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace concorde {

/// The branch-predictor half of a WarmStateBuilder on a thread of its own (FunctionalWarmupSink
/// on a machine with a CPU to spare). The builder, on the caller's thread, keeps the cache
/// lines and logs its branches (WarmStateBuilder::logBranches) into log(); this worker trains
/// TAGE and the branch-target front end on them in the same order
/// (WarmStateBuilder::trainOn), so the states are exactly those of a builder that trains its
/// own predictors. Only the branches cross between the cores, a sixth of the records.
///
/// Every call is a task performed in call order. The caller waits only when kMaxQueued tasks
/// are ahead of the worker, or for a snapshot's bytes.
class WarmStateWorker {
public:
    /// Tasks queued ahead of the worker before the caller waits.
    static constexpr std::size_t kMaxQueued = 32;
    /// A sleeping side is woken once the other has done this many tasks. Woken for every task,
    /// the two threads waited more than they worked on the 2-CPU virtual machine this was
    /// measured on (0.74 CPUs busy in all): wake-ups there take long, so they must be rare
    /// and the queue must not run dry or full meanwhile.
    static constexpr std::size_t kWakeBatch = 8;
    /// Branches per task.
    static constexpr std::size_t kEventsPerTask = 16384;

    WarmStateWorker(const TagePredictor::Geometry& tage = {}, const BranchTargetSpec& targets = {});
    ~WarmStateWorker();
    WarmStateWorker(const WarmStateWorker&) = delete;
    WarmStateWorker& operator=(const WarmStateWorker&) = delete;

    /// Whether a hardware thread is left for the worker (more than one CPU).
    static bool worthAThread();

    /// Where the builder logs its branches (WarmStateBuilder::logBranches); the object stays
    /// the same for the worker's lifetime.
    std::vector<WarmStateBuilder::BranchEvent>* log() { return &log_; }
    /// Queues the logged branches once there are kEventsPerTask of them.
    void poll() {
        if (log_.size() >= kEventsPerTask)
            pushEvents();
    }
    /// Restarts the predictors cold (after the branches logged so far).
    void reset();
    /// Completes `lines` (a state from the builder's finish(), with its untrained predictors)
    /// with the predictors after every branch logged so far, and encodes it (WarmState::encode);
    /// takeSnapshot() returns the bytes.
    void snapshot(WarmState lines);
    /// The bytes of the oldest snapshot() not taken yet; waits for them. Rethrows what the
    /// worker threw.
    std::vector<std::uint8_t> takeSnapshot();

private:
    static constexpr std::size_t kCacheLine = 64;
    enum class Kind { Reset, Events, Snapshot };
    struct Task {
        Kind kind = Kind::Reset;
        std::vector<WarmStateBuilder::BranchEvent> events;
        std::optional<WarmState> state; ///< Kind::Snapshot
    };

    /// Queues the logged branches.
    void pushEvents();
    /// Queues `task` after the logged branches; rethrows what the worker threw.
    void push(Task&& task);
    void run(Task& task);
    void work();

    TagePredictor::Geometry geometry_;
    BranchTargetSpec targetSpec_;
    // The producer's log, the worker's predictors and the shared queue each on cache lines of
    // their own: the producer writes the log's end once per branch, the worker reads its
    // predictors' geometry on every branch, and sharing a line made each of those a miss.
    alignas(kCacheLine) std::vector<WarmStateBuilder::BranchEvent> log_;
    // The worker's, touched by its thread only.
    alignas(kCacheLine) std::optional<TagePredictor> tage_;
    std::optional<BranchTargetPredictor> targets_;

    alignas(kCacheLine) std::mutex mutex_;
    std::condition_variable workReady_; ///< tasks to do, or stop
    std::condition_variable roomReady_; ///< room in the queue, a snapshot done, or a failure
    std::deque<Task> queue_;
    std::vector<std::vector<WarmStateBuilder::BranchEvent>> spare_; ///< done events' storage
    std::deque<std::vector<std::uint8_t>> snapshots_;               ///< done, not taken
    std::exception_ptr failure_;
    bool workerWaiting_ = false;   ///< the worker sleeps until this is cleared
    bool producerWaiting_ = false; ///< the caller sleeps on roomReady_
    bool urgent_ = false;          ///< a snapshot is queued: wake the worker at once
    bool stop_ = false;
    std::thread thread_;
};

} // namespace concorde
