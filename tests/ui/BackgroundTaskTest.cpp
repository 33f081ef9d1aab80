// BackgroundTask: work off the UI thread with a JobControl; progress and results on the UI
// thread, only for the awaited generation; coalescing; cancel; destruction while running.
#include "BackgroundTask.h"

#include "common/ConcordeError.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QThread>
#include <QtTest>
#include <atomic>
#include <chrono>
#include <future>
#include <stdexcept>
#include <thread>
#include <vector>

using concorde::JobControl;
using concorde::JobProgress;
using concorde::ui::BackgroundTask;

namespace {

/// Waits on a worker thread, without the event loop, until `open` is set or the job cancelled.
void waitFor(const std::atomic<bool>& open, const JobControl& job) {
    while (!open.load() && !job.cancelled())
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

/// Waits on a worker thread until the job is cancelled.
void waitForCancel(const JobControl& job) {
    const std::atomic<bool> never{false};
    waitFor(never, job);
}

} // namespace

class BackgroundTaskTest : public QObject {
    Q_OBJECT

    /// Runs the event loop until everything posted to this thread so far has been handled.
    static bool drainPostedEvents() {
        bool reached = false;
        QMetaObject::invokeMethod(
            qApp, [&reached] { reached = true; }, Qt::QueuedConnection);
        return QTest::qWaitFor([&reached] { return reached; }, 10000);
    }

private slots:
    // Latest: a newer request cancels the running one; the older result is dropped even when
    // its work ignored the cancel and finished.
    void aNewerRequestSupersedesAnOlderOne() {
        BackgroundTask task(BackgroundTask::Mode::Latest);
        std::vector<int> delivered;
        const auto deliver = [&delivered](int value) { delivered.push_back(value); };

        std::atomic<bool> firstCancelled{false};
        std::atomic<bool> firstStarted{false};
        const auto first = task.request(
            [&](const JobControl& job) {
                firstStarted = true;
                waitForCancel(job);
                firstCancelled = job.cancelled();
                return 1;
            },
            deliver);
        QCOMPARE(first, BackgroundTask::Generation(1));
        QTRY_VERIFY(firstStarted.load());
        const auto second = task.request([](const JobControl&) { return 2; }, deliver);
        QCOMPARE(second, BackgroundTask::Generation(2));
        QCOMPARE(task.generation(), second);
        QTRY_VERIFY(!task.isRunning());
        QVERIFY(firstCancelled.load()); // the job saw the cancel through its JobControl
        QCOMPARE(delivered, std::vector<int>{2});

        // A run that finished before it was superseded: its result is already on its way to this
        // thread, and is dropped there.
        std::promise<void> finished;
        task.request(
            [&finished](const JobControl&) {
                finished.set_value();
                return 3;
            },
            deliver);
        finished.get_future().wait(); // no event loop: the result waits in the queue
        task.request([](const JobControl&) { return 4; }, deliver);
        QTRY_VERIFY(!task.isRunning());
        QVERIFY(drainPostedEvents());
        QCOMPARE(delivered, (std::vector<int>{2, 4}));
    }

    // Coalesce: N requests while one runs give two computations, the first and the last; the
    // waiting ones in between are never prepared nor computed.
    void rapidRequestsCoalesceIntoTwoComputations() {
        BackgroundTask task(BackgroundTask::Mode::Coalesce);
        std::atomic<bool> gate{false};
        std::atomic<int> computed{0};
        int prepared = 0;
        std::vector<int> delivered;
        constexpr int kRequests = 20;
        for (int i = 1; i <= kRequests; ++i)
            task.requestPrepared(
                [&, i] {
                    ++prepared;
                    return [&, i](const JobControl& job) {
                        ++computed;
                        waitFor(gate, job);
                        return i;
                    };
                },
                [&delivered](int value) { delivered.push_back(value); });
        QVERIFY(task.isRunning());
        QVERIFY(task.hasWaiting());
        QCOMPARE(prepared, 1); // the first started at once; the rest wait, the last replacing all
        gate = true;
        QTRY_VERIFY(!task.isRunning());
        QVERIFY(drainPostedEvents());
        QCOMPARE(computed.load(), 2);
        QCOMPARE(prepared, 2);
        QCOMPARE(delivered, (std::vector<int>{1, kRequests}));
        QVERIFY(!task.hasWaiting());
    }

    void progressArrivesOnTheUiThread() {
        BackgroundTask task(BackgroundTask::Mode::Latest);
        std::vector<std::size_t> done;
        bool offThread = false;
        connect(&task, &BackgroundTask::progressChanged, this, [&](const JobProgress& progress) {
            offThread = offThread || QThread::currentThread() != qApp->thread();
            QCOMPARE(progress.total, std::size_t(5));
            done.push_back(progress.done);
        });
        Qt::HANDLE workerThread = nullptr;
        bool delivered = false;
        task.request(
            [&workerThread](const JobControl& job) {
                workerThread = QThread::currentThreadId();
                for (std::size_t i = 1; i <= 5; ++i) {
                    job.report(i, 5, "step");
                    std::this_thread::sleep_for(std::chrono::milliseconds(2));
                }
                return 0;
            },
            [&delivered](int) { delivered = true; });
        QTRY_VERIFY(delivered);
        QVERIFY(workerThread != QThread::currentThreadId()); // the work ran off this thread
        QVERIFY(!offThread);
        QVERIFY(!done.empty());
        QCOMPARE(done.back(), std::size_t(5)); // the last report arrives before the result
        QVERIFY(std::is_sorted(done.begin(), done.end()));
    }

    void cancelStopsTheJobAndDeliversNothing() {
        BackgroundTask task(BackgroundTask::Mode::Coalesce);
        QSignalSpy failed(&task, &BackgroundTask::failed);
        std::atomic<bool> started{false};
        std::atomic<bool> stopped{false};
        int delivered = 0;
        task.request(
            [&](const JobControl& job) {
                started = true;
                waitForCancel(job);
                stopped = true;
                job.throwIfCancelled("the test job"); // as core jobs stop
                return 1;
            },
            [&delivered](int) { ++delivered; });
        task.request([](const JobControl&) { return 2; }, [&delivered](int) { ++delivered; });
        QVERIFY(task.hasWaiting());
        QTRY_VERIFY(started.load());
        task.cancel();
        QVERIFY(!task.isRunning());
        QVERIFY(!task.hasWaiting()); // the waiting request goes too
        QTRY_VERIFY(stopped.load());
        // Runs execute one at a time: once a later request's result arrives, the cancelled
        // run's end has been handled too.
        int after = 0;
        task.request([](const JobControl&) { return 3; }, [&after](int value) { after = value; });
        QTRY_COMPARE(after, 3);
        QCOMPARE(delivered, 0);
        QCOMPARE(failed.count(), 0); // a cancelled job's exception is not a failure
    }

    void aFailingJobReportsItsMessage() {
        BackgroundTask task(BackgroundTask::Mode::Latest);
        QSignalSpy failed(&task, &BackgroundTask::failed);
        bool delivered = false;
        task.request([](const JobControl&) -> int { throw std::runtime_error("no such region"); },
                     [&delivered](int) { delivered = true; });
        QVERIFY(failed.wait(10000));
        QCOMPARE(failed.at(0).at(0).toString(), QStringLiteral("no such region"));
        QVERIFY(!delivered);
        QVERIFY(!task.isRunning());
    }

    void destroyingWhileRunningIsSafe() {
        int delivered = 0;
        int progressed = 0;
        // A JobControl-aware job: cancelled by the destructor, which returns promptly.
        {
            auto task = std::make_unique<BackgroundTask>(BackgroundTask::Mode::Latest);
            connect(task.get(), &BackgroundTask::progressChanged, this, [&] { ++progressed; });
            std::atomic<bool> started{false};
            std::atomic<bool> stopped{false};
            task->request(
                [&](const JobControl& job) {
                    started = true;
                    while (!job.cancelled()) {
                        job.report(1, 2);
                        std::this_thread::sleep_for(std::chrono::milliseconds(1));
                    }
                    stopped = true;
                    job.throwIfCancelled("the test job");
                    return 1;
                },
                [&delivered](int) { ++delivered; });
            QTRY_VERIFY(started.load());
            const int progressBefore = progressed;
            QElapsedTimer clock;
            clock.start();
            task.reset();
            QVERIFY2(clock.elapsed() < 5000, qPrintable(QString::number(clock.elapsed())));
            QVERIFY(stopped.load()); // the destructor waited for the work to end
            QVERIFY(drainPostedEvents());
            QCOMPARE(progressed, progressBefore); // no relay reached a destroyed task
        }
        // A job that ignores the cancel: the destructor waits for it to end.
        {
            auto task = std::make_unique<BackgroundTask>(BackgroundTask::Mode::Coalesce);
            std::atomic<bool> started{false};
            std::atomic<bool> ended{false};
            task->request(
                [&](const JobControl&) {
                    started = true;
                    std::this_thread::sleep_for(std::chrono::milliseconds(100));
                    ended = true;
                    return 2;
                },
                [&delivered](int) { ++delivered; });
            task->request([](const JobControl&) { return 3; }, [&delivered](int) { ++delivered; });
            QTRY_VERIFY(started.load());
            task.reset();
            QVERIFY(ended.load());
            QVERIFY(drainPostedEvents());
        }
        QCOMPARE(delivered, 0);
    }
};

QTEST_MAIN(BackgroundTaskTest)
#include "BackgroundTaskTest.moc"
