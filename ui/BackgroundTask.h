#pragma once

#include "common/JobControl.h"

#include <QObject>
#include <QString>
#include <QThreadPool>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

namespace concorde::ui {

/// The GUI's one way to run work off the UI thread: opening a database, the predictions, loading
/// the bounds and computing the selection's series, clustering phases and Shapley attribution.
///
/// A request's work runs on the task's own pool thread with a JobControl, through which core jobs
/// report progress and notice cancel(). Progress arrives as progressChanged() and the result
/// through the request's `deliver`, both on the task's (the UI) thread, and only while the
/// request's generation is the one the task awaits: a newer request (Mode::Latest) or cancel()
/// makes older results stale, and stale results are dropped unseen. Runs execute one at a time,
/// so a cancelled run that has not reached its next safe point yet delays the next one a moment
/// rather than competing with it for the cores.
///
/// Destroying the task cancels every run and waits for the one executing; nothing is delivered
/// afterwards, so an owner may hold its task as a member and capture `this` in `deliver`.
class BackgroundTask : public QObject {
    Q_OBJECT

public:
    /// What a request does to a run still going.
    enum class Mode {
        /// Cancels it (its result is dropped): only the newest request matters (opening a
        /// database, loading the bounds, a Shapley run).
        Latest,
        /// Lets it finish and deliver, and waits behind it, replacing any request already
        /// waiting: at most one run and one waiting, so a slider drag never builds a backlog,
        /// and each finished run shows the freshest result there is while the next computes
        /// (the predictions, the series).
        Coalesce,
    };
    /// Identifies a request; the first is 1.
    using Generation = std::uint64_t;

    explicit BackgroundTask(Mode mode, QObject* parent = nullptr);
    /// Cancels every run and waits for the one executing; nothing is delivered.
    ~BackgroundTask() override;
    BackgroundTask(const BackgroundTask&) = delete;
    BackgroundTask& operator=(const BackgroundTask&) = delete;

    /// Asks for a run of `work` (`Result work(const JobControl&)`, called on the pool thread);
    /// `deliver(Result)` receives its result on this thread unless it has become stale.
    template <typename Work, typename Deliver>
    Generation request(Work work, Deliver deliver) {
        return requestPrepared([work = std::move(work)] { return work; }, std::move(deliver));
    }
    /// The same, with the work made by `prepare()` on this thread when the run starts: in
    /// Coalesce mode a waiting request thereby computes from the state when it starts (e.g. with
    /// the result delivered just before as a starting point), not from the state when it was
    /// asked for.
    template <typename Prepare, typename Deliver>
    Generation requestPrepared(Prepare prepare, Deliver deliver);

    /// Cancels the running and the waiting request: their results will not be delivered. A
    /// JobControl-aware job stops at its next safe point. An owner that computes a result on its
    /// own thread (an export) calls this first, so nothing older arrives after it.
    void cancel();

    Mode mode() const { return mode_; }
    /// True while a run's result is awaited (in Coalesce mode one may wait behind it).
    bool isRunning() const { return awaited_ != nullptr; }
    /// True when a request waits for the running one to end (Coalesce mode only).
    bool hasWaiting() const { return waiting_ != nullptr; }
    /// The newest request's generation (0 before the first).
    Generation generation() const { return generation_; }

signals:
    /// Progress of the awaited run, as its job reported it (the latest report when several
    /// arrive between two turns of the event loop).
    void progressChanged(const concorde::JobProgress& progress);
    /// The awaited run's work threw (other than by being cancelled); nothing is delivered.
    void failed(const QString& message);

private:
    /// A request with its result type erased: `work` stores the result, `deliver` hands it over.
    struct Erased {
        std::function<void(const JobControl&)> work;
        std::function<void()> deliver;
    };
    struct Run;

    Generation submit(std::function<Erased()> prepare);
    void start(Generation generation, const std::function<Erased()>& prepare);
    /// On the pool thread.
    void execute(const std::shared_ptr<Run>& run);
    void relayProgress(const std::shared_ptr<Run>& run, const JobProgress& progress);
    /// On this thread, once per run.
    void finish(const std::shared_ptr<Run>& run);
    /// Whether `run`'s generation is the awaited one (else its progress and result are stale).
    bool isAwaited(const Run& run) const;

    Mode mode_;
    Generation generation_ = 0;
    std::shared_ptr<Run> awaited_;
    /// Coalesce mode: the request waiting for the running one.
    struct Waiting {
        Generation generation;
        std::function<Erased()> prepare;
    };
    std::unique_ptr<Waiting> waiting_;
    QThreadPool pool_;
};

template <typename Prepare, typename Deliver>
BackgroundTask::Generation BackgroundTask::requestPrepared(Prepare prepare, Deliver deliver) {
    using Work = std::invoke_result_t<Prepare&>;
    using Result = std::decay_t<std::invoke_result_t<Work&, const JobControl&>>;
    return submit([prepare = std::move(prepare), deliver = std::move(deliver)]() mutable {
        auto result = std::make_shared<std::optional<Result>>();
        return Erased{[work = prepare(), result](const JobControl& job) mutable {
                          result->emplace(work(job));
                      },
                      [deliver, result]() mutable {
                          if (*result) // else the work stopped on a cancel of its own
                              deliver(std::move(**result));
                      }};
    });
}

} // namespace concorde::ui
