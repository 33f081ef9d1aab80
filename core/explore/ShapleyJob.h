#pragma once

#include "attribution/AttributionReport.h"
#include "attribution/PlayerSet.h"
#include "attribution/ShapleyAttributor.h"
#include "common/JobControl.h"
#include "params/CoreConfig.h"

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace concorde {

class DatabasePredictor;

/// A Shapley attribution (docs/design.md §9) of the model's CPI change from a baseline to a target
/// configuration, for some or all programs of a database, run on a background thread with
/// progress and cancel: what the explorer's Shapley view starts (baseline and target from
/// presets or the current sliders). The work is ShapleyAttributor's (parallel with TBB) on
/// RegionValueFunction::programValue, exactly as `concorde shapley` does it, so the GUI and the
/// command line give the same numbers.
///
/// A job runs once. The destructor cancels a running job and waits for it.
class ShapleyJob {
public:
    struct Request {
        std::shared_ptr<const DatabasePredictor> predictor;
        /// Programs to attribute, in this order; empty: every program the predictor loaded.
        std::vector<std::string> programs;
        CoreConfig baseline;
        CoreConfig target;
        PlayerSet players = PlayerSet::defaultGroups();
        ShapleyAttributor::Options options;
    };
    enum class State { Idle, Running, Finished, Cancelled, Failed };

    /// Checks the request: a predictor, known programs, baseline and target on the predictor's
    /// grid (a bad-input ConcordeError naming the parameter), valid options (usage errors).
    explicit ShapleyJob(Request request);
    ~ShapleyJob();
    ShapleyJob(const ShapleyJob&) = delete;
    ShapleyJob& operator=(const ShapleyJob&) = delete;

    /// Runs a request on the calling thread (checked as by the constructor).
    static AttributionReport run(const Request& request, const JobControl& job = {});

    /// Starts the background thread. `finished` is called once from that thread when the run
    /// ends (state() is then final). A usage error if already started.
    void start(std::function<void(State)> finished = {});
    /// Asks a running job to stop at its next batch (any thread); the state becomes Cancelled.
    void cancel();
    /// Blocks until the job has ended (returns at once if it never started).
    void wait();

    State state() const { return state_.load(); }
    /// Fraction of evaluations done, in [0, 1].
    double progress() const { return progress_.load(); }
    /// The result (a usage error unless state() is Finished).
    const AttributionReport& report() const;
    /// Why the job failed or was cancelled (empty otherwise).
    std::string error() const;
    const Request& request() const { return request_; }

private:
    static void check(const Request& request);

    Request request_;
    std::atomic<State> state_{State::Idle};
    std::atomic<double> progress_{0.0};
    JobControl job_; ///< the running attribution's: cancel() cancels it
    mutable std::mutex mutex_;
    std::string error_;
    AttributionReport report_;
    std::thread thread_;
};

} // namespace concorde
