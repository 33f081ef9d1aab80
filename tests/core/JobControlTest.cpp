// The one job contract of core/: progress events out, a cancel token in, cancels as their own
// error kind (exit code 130), nested controls for parts of a job.
#include "common/JobControl.h"

#include "common/ConcordeError.h"

#include <QtTest>
#include <atomic>
#include <thread>
#include <vector>

using namespace concorde;

class JobControlTest : public QObject {
    Q_OBJECT

private slots:
    void fractionOfDoneOverTotal() {
        QCOMPARE((JobProgress{0, 0, {}, {}}.fraction()), 0.0);
        QCOMPARE((JobProgress{3, 4, {}, {}}.fraction()), 0.75);
        QCOMPARE((JobProgress{9, 4, {}, {}}.fraction()), 1.0);
    }

    void reportsReachTheHandlerOneAtATime() {
        std::atomic<int> inside{0};
        std::atomic<bool> overlapped{false};
        std::size_t calls = 0;
        const JobControl job([&](const JobProgress&) {
            if (++inside > 1)
                overlapped = true;
            ++calls;
            std::this_thread::yield();
            --inside;
        });
        QVERIFY(job.reporting());
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&] {
                for (int i = 0; i < 500; ++i)
                    job.report(std::size_t(i), 500, "step");
            });
        for (auto& thread : threads)
            thread.join();
        QVERIFY(!overlapped);
        QCOMPARE(calls, std::size_t(2000));
        QVERIFY(!JobControl().reporting());
    }

    void cancelIsSharedByCopiesAndNestedParts() {
        const JobControl job;
        const JobControl copy = job;
        const JobControl part = job.nested({});
        QVERIFY(!part.cancelled());
        copy.cancel();
        QVERIFY(job.cancelled());
        QVERIFY(part.cancelled());
        // Cancelling a part does not cancel the whole.
        const JobControl other;
        const JobControl otherPart = other.nested({});
        otherPart.cancel();
        QVERIFY(!other.cancelled());
    }

    void externalFlagCancels() {
        std::atomic<bool> interrupted{false};
        const JobControl job({}, &interrupted);
        QVERIFY(!job.cancelled());
        interrupted = true;
        QVERIFY(job.cancelled());
        QVERIFY(job.nested({}).cancelled());
    }

    void aCancelIsItsOwnErrorWithExitCode130() {
        const JobControl job;
        job.throwIfCancelled("nothing"); // not cancelled: no throw
        job.cancel();
        try {
            job.throwIfCancelled("building the database");
            QFAIL("no exception");
        } catch (const ConcordeError& e) {
            QCOMPARE(e.kind(), ErrorKind::Cancelled);
            QCOMPARE(e.exitCode(), 130);
            QCOMPARE(QString(e.what()), QStringLiteral("building the database was cancelled"));
        }
        QCOMPARE(runtimeFailure("x").exitCode(), 1);
        QCOMPARE(badInput("x").exitCode(), 2);
    }
};

QTEST_GUILESS_MAIN(JobControlTest)
#include "JobControlTest.moc"
