#pragma once

#include <QCoreApplication>
#include <QFutureWatcher>
#include <QThreadPool>
#include <QtConcurrent>
#include <functional>
#include <utility>

namespace concorde::ui {

/// Computes something from the latest state on its own warm worker thread, one computation at a
/// time, for an object living on the UI thread (the Session's predictions, the selection's
/// per-window bounds). Requests coalesce: while one computation runs, further requests only mark
/// the state dirty, and when it finishes exactly one more starts, from the state then. Stale work
/// is never queued, so a slider drag never builds a backlog.
///
/// `snapshot` runs on the owner's thread when a computation starts: it copies the state the
/// computation needs and returns the job for the worker. `deliver` gets each result back on the
/// owner's thread, after the next computation (if one was requested meanwhile) has started, so
/// the worker computes while the views draw.
template <typename Result>
class CoalescingWorker {
public:
    using Job = std::function<Result()>;

    CoalescingWorker(std::function<Job()> snapshot, std::function<void(const Result&)> deliver)
        : snapshot_(std::move(snapshot)), deliver_(std::move(deliver)) {
        pool_.setMaxThreadCount(1); // never waits behind other work on the global pool
        pool_.setExpiryTimeout(-1); // kept warm: no thread start-up per drag step
        QObject::connect(&watcher_, &QFutureWatcherBase::finished, [this] { onFinished(); });
    }
    /// Waits for a running computation; its result is not delivered.
    ~CoalescingWorker() {
        watcher_.disconnect();
        watcher_.waitForFinished();
        pool_.waitForDone();
    }
    CoalescingWorker(const CoalescingWorker&) = delete;
    CoalescingWorker& operator=(const CoalescingWorker&) = delete;

    /// Starts a computation from the state now, or, while one runs, one more after it.
    void request() {
        if (running_)
            dirty_ = true;
        else
            start();
    }
    /// True while a computation runs (its result not delivered yet).
    bool isRunning() const { return running_; }
    /// Waits for the running computation, if any, and delivers its result now, on this thread.
    void finishNow() {
        if (!running_)
            return;
        watcher_.waitForFinished();
        QCoreApplication::sendPostedEvents(&watcher_); // its finished(): onFinished()
    }

private:
    void start() {
        dirty_ = false;
        running_ = true;
        watcher_.setFuture(QtConcurrent::run(&pool_, snapshot_()));
    }
    void onFinished() {
        running_ = false;
        const Result result = watcher_.result();
        if (dirty_)
            start();
        deliver_(result);
    }

    std::function<Job()> snapshot_;
    std::function<void(const Result&)> deliver_;
    QThreadPool pool_;
    QFutureWatcher<Result> watcher_;
    bool running_ = false;
    bool dirty_ = false;
};

} // namespace concorde::ui
