#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

namespace concorde {

/// One progress event of a long job (build-db, label, dataset, train, predict-all, bounds
/// loading, Shapley).
struct JobProgress {
    std::size_t done = 0;  ///< units of work finished so far in this run
    std::size_t total = 0; ///< units this run will do; 0 while not known
    std::string item;      ///< what was just finished or is being worked on ("gzip region 2")
    /// A line worth keeping in a log (a committed region with its time and size); empty for a
    /// plain update. A terminal shows it above the progress bar, a batch log keeps it.
    std::string log;

    /// done / total in [0, 1]; 0 while the total is unknown.
    double fraction() const;
};

/// The one contract of every long job in core/: progress events out, a cancel token in.
///
/// A job reports through report(), which the control serialises (a handler never runs twice at
/// once, though calls may come from different threads), and checks cancelled() at its safe
/// points: between committed units, so that a cancelled build can be resumed. A job that stops
/// because of a cancel throws jobCancelled() (ErrorKind::Cancelled, exit code 130).
///
/// Copies share one state: the caller keeps a copy to cancel from any thread (a GUI button)
/// while the job holds another. An external flag (a SIGINT handler's) can also cancel.
class JobControl {
public:
    using Handler = std::function<void(const JobProgress&)>;

    /// No handler; cancelled only through cancel().
    JobControl();
    explicit JobControl(Handler handler, const std::atomic<bool>* externalCancel = nullptr);

    /// Delivers one event to the handler (if any), serialised with every other report.
    void report(const JobProgress& progress) const;
    /// Shorthand for report({done, total, item, {}}).
    void report(std::size_t done, std::size_t total, const std::string& item = {}) const;

    /// True when someone listens: a job may skip work that only feeds its reports.
    bool reporting() const;

    /// Asks the job to stop at its next safe point. Any thread; idempotent.
    void cancel() const;
    /// True once cancel() was called or the external flag was raised.
    bool cancelled() const;
    /// Throws jobCancelled("<what> was cancelled") when cancelled().
    void throwIfCancelled(const std::string& what) const;

    /// A control for a part of this job (one region's grid bounds inside build-db): it reports
    /// to `handler` and counts as cancelled whenever this one is.
    JobControl nested(Handler handler) const;

private:
    struct State;
    std::shared_ptr<State> state_;
};

} // namespace concorde
