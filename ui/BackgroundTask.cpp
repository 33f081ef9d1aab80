#include "BackgroundTask.h"

#include <exception>
#include <mutex>
#include <string>

namespace concorde::ui {

/// One run: shared by the pool thread executing it and this thread handling its end.
struct BackgroundTask::Run {
    Generation generation = 0;
    JobControl job;
    Erased erased;

    std::optional<std::string> error; ///< what the work threw, unless cancelled

    std::mutex mutex;
    JobProgress progress;        ///< the latest report (guarded by mutex)
    bool progressPosted = false; ///< a relay of `progress` is on its way (guarded by mutex)
};

BackgroundTask::BackgroundTask(Mode mode, QObject* parent) : QObject(parent), mode_(mode) {
    // Runs never queue behind other work on the global pool, and execute one at a time.
    pool_.setMaxThreadCount(1);
    // Coalesced requests come in bursts (a slider drag): the thread stays warm between them.
    if (mode_ == Mode::Coalesce)
        pool_.setExpiryTimeout(-1);
}

BackgroundTask::~BackgroundTask() {
    cancel();
    pool_.clear(); // runs not started yet never start
    pool_.waitForDone();
}

BackgroundTask::Generation BackgroundTask::submit(std::function<Erased()> prepare) {
    const Generation generation = ++generation_;
    if (mode_ == Mode::Coalesce && awaited_) {
        // The running one goes on; this one replaces whatever waited behind it.
        waiting_ = std::make_unique<Waiting>(Waiting{generation, std::move(prepare)});
        return generation;
    }
    if (awaited_) {
        awaited_->job.cancel();
        awaited_.reset();
    }
    start(generation, prepare);
    return generation;
}

void BackgroundTask::start(Generation generation, const std::function<Erased()>& prepare) {
    auto run = std::make_shared<Run>();
    run->generation = generation;
    // The handler holds the run weakly: the run owns the control that owns the handler.
    run->job = JobControl([this, weak = std::weak_ptr<Run>(run)](const JobProgress& progress) {
        if (const std::shared_ptr<Run> reporting = weak.lock())
            relayProgress(reporting, progress);
    });
    run->erased = prepare();
    awaited_ = run;
    pool_.start([this, run] { execute(run); });
}

void BackgroundTask::execute(const std::shared_ptr<Run>& run) {
    if (!run->job.cancelled()) {
        try {
            run->erased.work(run->job);
        } catch (const std::exception& e) {
            if (!run->job.cancelled())
                run->error = e.what();
        } catch (...) {
            if (!run->job.cancelled())
                run->error = "unknown error";
        }
    }
    // The destructor waits for this function, so `this` outlives the post; a task destroyed
    // before the post is handled takes it along with its other pending events.
    QMetaObject::invokeMethod(
        this, [this, run] { finish(run); }, Qt::QueuedConnection);
}

void BackgroundTask::relayProgress(const std::shared_ptr<Run>& run, const JobProgress& progress) {
    {
        const std::lock_guard lock(run->mutex);
        // Workers of a parallel job report from several threads, and a report counted earlier
        // can arrive later: keep the furthest one, so the progress never goes backwards.
        if (progress.total == run->progress.total && progress.done < run->progress.done)
            return;
        run->progress = progress;
        if (run->progressPosted)
            return; // the relay on its way will carry this report
        run->progressPosted = true;
    }
    // Queued to this thread, ahead of the run's end (posted later from the same thread).
    QMetaObject::invokeMethod(
        this,
        [this, run] {
            JobProgress latest;
            {
                const std::lock_guard lock(run->mutex);
                latest = run->progress;
                run->progressPosted = false;
            }
            if (isAwaited(*run))
                emit progressChanged(latest);
        },
        Qt::QueuedConnection);
}

void BackgroundTask::finish(const std::shared_ptr<Run>& run) {
    if (!isAwaited(*run))
        return; // stale: superseded or cancelled
    awaited_.reset();
    // The waiting request starts before the result is handed over: the worker computes while
    // the views draw.
    if (waiting_) {
        const std::unique_ptr<Waiting> next = std::move(waiting_);
        start(next->generation, next->prepare);
    }
    if (run->error)
        emit failed(QString::fromStdString(*run->error));
    else
        run->erased.deliver();
}

bool BackgroundTask::isAwaited(const Run& run) const {
    return awaited_ && awaited_->generation == run.generation;
}

void BackgroundTask::cancel() {
    waiting_.reset();
    if (awaited_) {
        awaited_->job.cancel();
        awaited_.reset();
    }
}

} // namespace concorde::ui
