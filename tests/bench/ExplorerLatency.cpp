// Slider change → CPI and visible charts redrawn, in the real explorer window (docs/design.md §12:
// ≤ 16 ms for a program of 64 regions). Runs offscreen; not a test.
//
//     explorer_latency [DB.sqlite] [--steps N]
//                      [--tabs overview,cdf,timeseries,phases,sweep,sensitivity]
//
// The window opens DB (default: data/default.sqlite; tests/bench/make-latency-db.sh builds one
// with a program of 64 regions), selects the program with the most regions and, for each tab in
// turn in front (a hidden tab refreshes only when shown, so only the visible one costs), moves a
// slider N times one grid position (the same signal path as a mouse drag: QSlider::valueChanged →
// Session → the prediction on one worker thread → predictionReady → header, overview and phases;
// the selection's per-window bounds on another → ExplorerBounds::seriesReady → CDF and timeseries
// pages). Each step waits until the tab's plot has been repainted showing that step's data (the
// overview: that step's prediction; the CDF and timeseries: the series of the step's
// configuration; phases: a replot after the step's configuration change) and the CPI label has
// been repainted with that step's prediction. Reported per step, in milliseconds:
//   handlers   time inside QSlider::setValue
//   predicted  the prediction is back on the UI thread
//   chart      the tab's plot has been painted with the step's data
//   painted    the plot and the CPI label have both been painted (the label only when its text
//              changed): the step's latency, compared with the 16 ms target
// Then, per tab, the parts alone (the series a chart page draws, computed on the worker in the
// window, its refresh(), and one replot of its plot rendered and painted at once), and a continuous
// drag: a step every 8 ms (a 120 Hz mouse) for 2 s, with the latency from each step to the first
// paint of the tab's plot showing it, and how many frames were painted for how many steps (the rest
// were coalesced away). Before the tabs: the prediction alone, and the reference IPC of the
// program's regions read from SQLite (what the timeseries page did on every change) and from the
// in-memory cache.
//
// A step not painted within 5 s fails its tab (reported, exit code 1) and the next tab is
// measured; a tab stops early, on the steps done, once its steps have taken a minute.
#include "BoundsChartView.h"
#include "ChartPage.h"
#include "ChartView.h"
#include "ExplorerBounds.h"
#include "MainWindow.h"
#include "Session.h"
#include "ViewPage.h"
#include "ViewTabs.h"
#include "explore/ExplorerModel.h"
#include "explore/ReferenceIpc.h"
#include "explore/ReferenceIpcCache.h"
#include "params/PresetLibrary.h"
#include "store/FeatureDatabase.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLabel>
#include <QSlider>
#include <QTabWidget>
#include <QTimer>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <qcustomplot.h>
#include <vector>

using namespace concorde;
using concorde::ui::Session;

namespace {

/// A step that has not been painted after this long is reported as a failure.
constexpr qint64 kStepTimeoutMs = 5000;
/// A tab whose steps take longer than this in all is measured on the steps done by then.
constexpr qint64 kTabBudgetMs = 60000;
/// Opening the database's bounds (all CDFs) takes about a second; this is generous.
constexpr qint64 kLoadTimeoutMs = 60000;

struct Stats {
    double median = 0, p95 = 0, max = 0, mean = 0;
};

Stats stats(std::vector<double> v) {
    Stats s;
    if (v.empty())
        return s;
    std::sort(v.begin(), v.end());
    s.median = v[v.size() / 2];
    s.p95 = v[std::min(v.size() - 1, v.size() * 95 / 100)];
    s.max = v.back();
    for (double x : v)
        s.mean += x;
    s.mean /= double(v.size());
    return s;
}

void print(const char* what, const Stats& s) {
    std::printf("  %-12s median %6.2f ms   p95 %6.2f ms   max %6.2f ms   mean %6.2f ms\n", what,
                s.median, s.p95, s.max, s.mean);
}

double millisecondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

/// One tab of the window, as the benchmark drives it.
struct Tab {
    QString name;                       ///< as given with --tabs
    QWidget* page = nullptr;            ///< the tab's widget
    QCustomPlot* plot = nullptr;        ///< its chart
    ui::ChartPage* chartPage = nullptr; ///< nullptr for the overview
    /// The overview redraws when the prediction arrives; the chart pages when the configuration
    /// changes.
    bool followsPrediction = false;
    /// The chart of a page drawing the bounds series, which may show an earlier step's series
    /// while the next is computed (nullptr for the other tabs).
    ui::BoundsChartView* boundsView = nullptr;
};

/// Watches the replots and paint events of the visible tab's plot and of the CPI label.
class PaintProbe : public QObject {
public:
    Session* session = nullptr;
    QWidget* label = nullptr;
    std::uint64_t step = 0; ///< the slider step issued last (1, 2, …)
    // What the last replot of the watched plot drew: the newest step and prediction by then.
    std::uint64_t replottedStep = 0, replottedSequence = 0;
    // What the last paint of the watched plot showed.
    std::uint64_t paintedStep = 0, paintedSequence = 0;
    std::uint64_t labelPainted = 0; ///< prediction sequence shown by the last CPI label paint
    std::function<void()> onPlotPaint;

    /// The step whose configuration each step had, snapped (recorded by the steps).
    std::map<std::uint64_t, CoreConfig> stepConfigs;

    /// Watches `plot`; `shownStep` says which step's data it shows (0: unknown; nullptr: the
    /// step issued last).
    void watch(QCustomPlot* plot, std::function<std::uint64_t()> shownStep) {
        if (plot_) {
            plot_->removeEventFilter(this);
            QObject::disconnect(replotConnection_);
        }
        plot_ = plot;
        plot_->installEventFilter(this);
        replotConnection_ = QObject::connect(plot_, &QCustomPlot::beforeReplot, [=, this] {
            replottedStep = std::max(replottedStep, shownStep ? shownStep() : step);
            replottedSequence = sequence();
        });
        replottedStep = paintedStep = step;
        replottedSequence = paintedSequence = sequence();
    }

    std::uint64_t sequence() const {
        return session->prediction() ? session->prediction()->sequence : 0;
    }

    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() != QEvent::Paint)
            return false;
        if (watched == plot_) {
            paintedStep = replottedStep;
            paintedSequence = replottedSequence;
            if (onPlotPaint)
                onPlotPaint();
        } else if (watched == label) {
            labelPainted = sequence();
        }
        return false;
    }

private:
    QCustomPlot* plot_ = nullptr;
    QMetaObject::Connection replotConnection_;
};

int usage() {
    std::fprintf(stderr, "usage: explorer_latency [DB.sqlite] [--steps N] "
                         "[--tabs overview,cdf,timeseries,phases,sweep,sensitivity]\n");
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QString database = QStringLiteral(CONCORDE_SOURCE_DIR "/data/default.sqlite");
    int steps = 100;
    // The sweep and the tornado (sensitivity) recompute on the UI thread when the prediction
    // arrives, so like the overview a step is done when their plot is painted after it.
    const QStringList knownTabs = {QStringLiteral("overview"),   QStringLiteral("cdf"),
                                   QStringLiteral("timeseries"), QStringLiteral("phases"),
                                   QStringLiteral("sweep"),      QStringLiteral("sensitivity")};
    QStringList tabNames = knownTabs;
    const QStringList args = app.arguments();
    for (int i = 1; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--steps") && i + 1 < args.size())
            steps = args[++i].toInt();
        else if (args[i] == QLatin1String("--tabs") && i + 1 < args.size())
            tabNames = args[++i].split(QLatin1Char(','), Qt::SkipEmptyParts);
        else if (args[i].startsWith(QLatin1String("-")))
            return usage();
        else
            database = args[i];
    }
    for (const QString& name : tabNames)
        if (!knownTabs.contains(name)) {
            std::fprintf(stderr, "explorer_latency: unknown tab '%s'\n", qPrintable(name));
            return usage();
        }
    if (steps < 1 || tabNames.isEmpty())
        return usage();
    if (!QFileInfo(database).isFile()) {
        std::fprintf(stderr,
                     "explorer_latency: no database at %s (the 64-region one is built by "
                     "tests/bench/make-latency-db.sh)\n",
                     qPrintable(database));
        return 2;
    }

    const PresetLibrary presets = PresetLibrary::loadDefault();
    Session session(presets.require("n1-like").config, Session::defaultBaseline(presets));
    QElapsedTimer openTimer;
    openTimer.start();
    QString error;
    if (!session.openDatabaseNow(database, &error)) {
        std::fprintf(stderr, "explorer_latency: %s\n", qPrintable(error));
        return 2;
    }
    const double openMs = double(openTimer.nsecsElapsed()) / 1e6;
    const ui::ExplorerPtr explorer = session.explorer();
    std::string largest;
    for (const auto& p : explorer->programs())
        if (largest.empty() || explorer->regionCount(p) > explorer->regionCount(largest))
            largest = p;
    session.setProgram(QString::fromStdString(largest));

    ui::MainWindow window(session, presets);
    window.resize(1600, 1000);
    window.show();
    const auto fail = [](const char* what) {
        std::fprintf(stderr, "explorer_latency: %s\n", what);
        return 1;
    };
    auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("view_tabs"));
    auto* label = window.findChild<QLabel*>(QStringLiteral("cpi_label"));
    auto* slider = window.findChild<QSlider*>(QStringLiteral("slider_rob"));
    if (!tabs || !label || !slider)
        return fail("the window lacks view_tabs, cpi_label or slider_rob");

    std::vector<Tab> selected;
    for (const QString& name : tabNames) {
        Tab tab;
        tab.name = name;
        ui::ViewPage* page = window.views().page(name); // by the view registry's id
        if (!page) {
            std::fprintf(stderr, "explorer_latency: unknown tab '%s'\n", qPrintable(name));
            return usage();
        }
        tab.page = page;
        tab.plot = page->chartView()->plot();
        tab.chartPage = qobject_cast<ui::ChartPage*>(page);
        tab.followsPrediction = tab.chartPage == nullptr; // the overview
        tab.boundsView = qobject_cast<ui::BoundsChartView*>(page->chartView());
        selected.push_back(tab);
    }

    const auto settle = [&](int ms) {
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < ms)
            app.processEvents(QEventLoop::AllEvents, 5);
    };
    // The per-window bounds load in the background; the first prediction arrives from the worker.
    QElapsedTimer loading;
    loading.start();
    while (window.bounds().isLoading() || !window.bounds().bounds() || !session.prediction()) {
        if (loading.elapsed() > kLoadTimeoutMs)
            return fail("the bounds or the first prediction did not arrive within 60 s");
        app.processEvents(QEventLoop::AllEvents, 5);
    }
    settle(500);

    QObject::connect(&session, &Session::predictionFailed, [](const QString& message) {
        std::fprintf(stderr, "explorer_latency: a prediction failed: %s\n", qPrintable(message));
    });
    PaintProbe probe;
    probe.session = &session;
    probe.label = label;
    label->installEventFilter(&probe);

    // Prediction alone, on this thread, for reference.
    std::vector<double> predictOnly;
    for (int i = 0; i < 200; ++i) {
        CoreConfig c = session.config();
        c.set(ParamId::Rob, explorer->grid().values(ParamId::Rob)[std::size_t(i) % 4]);
        const auto t0 = std::chrono::steady_clock::now();
        const auto p = explorer->predict(c, session.baseline(), largest);
        predictOnly.push_back(millisecondsSince(t0));
        (void)p;
    }

    // The reference IPC of the program's regions: read from SQLite for each region (what the
    // timeseries page did on every change) versus answered by the in-memory cache.
    std::vector<double> referenceSqlite, referenceCache;
    std::size_t labelled = 0;
    {
        const auto& bounds = *window.bounds().bounds();
        std::vector<std::int64_t> ids;
        for (const std::size_t r : bounds.regionsOf(largest))
            ids.push_back(bounds.regions()[r].id);
        const CoreConfig shown = explorer->snap(session.config());
        explorer->withDatabase([&](FeatureDatabase& db) {
            ReferenceIpcCache cache(db);
            cache.load(db, ids);
            labelled = cache.labelCount();
            for (int i = 0; i < 20; ++i) {
                auto t0 = std::chrono::steady_clock::now();
                for (const std::int64_t id : ids)
                    (void)ReferenceIpc::forRegion(db, id, shown);
                referenceSqlite.push_back(millisecondsSince(t0));
                t0 = std::chrono::steady_clock::now();
                for (const std::int64_t id : ids)
                    (void)cache.lookup(id, shown);
                referenceCache.push_back(millisecondsSince(t0));
            }
        });
    }

    std::size_t regions = 0;
    for (const auto& p : explorer->programs())
        regions += explorer->regionCount(p);
    std::printf("explorer_latency: %s\n", qPrintable(database));
    std::printf("  %zu programs, %zu regions predicted per change (target and baseline); "
                "selected %s with %zu regions (%zu labels); opened in %.0f ms\n",
                explorer->programs().size(), regions, largest.c_str(),
                explorer->regionCount(largest), labelled, openMs);
    std::printf("ExplorerModel::predict alone (UI thread idle):\n");
    print("predict", stats(predictOnly));
    std::printf("reference IPC of the %zu regions at one configuration:\n",
                explorer->regionCount(largest));
    print("from SQLite", stats(referenceSqlite));
    print("from cache", stats(referenceCache));
    std::fflush(stdout);

    int direction = 1;
    const auto nextValue = [&] {
        if (slider->value() + direction > slider->maximum() ||
            slider->value() + direction < slider->minimum())
            direction = -direction;
        return slider->value() + direction;
    };

    // A tab whose steps are never painted is reported and the next tab is measured.
    QStringList failed;
    for (const Tab& tab : selected) {
        tabs->setCurrentWidget(tab.page);
        // A bounds chart shows the latest step with the configuration its series was computed
        // for (while dragging, the one the worker last finished).
        std::function<std::uint64_t()> shownStep;
        if (tab.boundsView)
            shownStep = [&, view = tab.boundsView]() -> std::uint64_t {
                const auto& series = window.bounds().series();
                if (!series || view->series() != series.get())
                    return 0;
                const CoreConfig& shown = window.bounds().seriesSelection().config;
                for (auto it = probe.stepConfigs.rbegin(); it != probe.stepConfigs.rend(); ++it)
                    if (it->second == shown)
                        return it->first;
                return 0;
            };
        probe.stepConfigs[probe.step] = explorer->snap(session.config());
        probe.watch(tab.plot, shownStep);
        settle(300); // shows the tab: a stale page refreshes now

        // The parts alone, on the UI thread: the series the page draws, its refresh() (the view
        // takes the data; the chart views replot from the event loop) and one replot of the plot
        // rendered and painted at once.
        std::vector<double> seriesOnly, refreshOnly, replotOnly;
        for (int i = 0; i < 10 && tab.chartPage; ++i) {
            auto t0 = std::chrono::steady_clock::now();
            (void)ui::ExplorerBounds::computeSeries(window.bounds().currentSelection());
            seriesOnly.push_back(millisecondsSince(t0));
            t0 = std::chrono::steady_clock::now();
            tab.chartPage->refresh();
            refreshOnly.push_back(millisecondsSince(t0));
        }
        for (int i = 0; i < 5; ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            tab.plot->replot(QCustomPlot::rpImmediateRefresh);
            replotOnly.push_back(millisecondsSince(t0));
        }
        settle(100);
        const auto printParts = [&] {
            std::printf(" parts alone (the series on the worker in the window):\n");
            if (tab.chartPage) {
                print("series", stats(seriesOnly));
                print("refresh()", stats(refreshOnly));
            }
            print("replot", stats(replotOnly));
        };

        // 1. One step at a time (two unmeasured steps first).
        std::vector<double> handlers, predicted, chart, painted;
        bool timedOut = false;
        QElapsedTimer tabClock;
        tabClock.start();
        for (int i = -2; i < steps; ++i) {
            if (i >= 5 && tabClock.elapsed() > kTabBudgetMs) {
                std::printf("tab %s in front: stopped after %d steps (%lld s)\n",
                            qPrintable(tab.name), i, (long long)kTabBudgetMs / 1000);
                break;
            }
            const std::uint64_t before = probe.sequence();
            const QString textBefore = label->text();
            const int value = nextValue();
            QElapsedTimer t;
            t.start();
            const std::uint64_t step = ++probe.step;
            slider->setValue(value);
            const double handler = double(t.nsecsElapsed()) / 1e6;
            probe.stepConfigs[step] = explorer->snap(session.config());
            double tPredicted = -1, tChart = -1;
            while (true) {
                app.processEvents(QEventLoop::AllEvents);
                const std::uint64_t now = probe.sequence();
                if (tPredicted < 0 && now > before)
                    tPredicted = double(t.nsecsElapsed()) / 1e6;
                const bool chartDone = tab.followsPrediction ? probe.paintedSequence > before
                                                             : probe.paintedStep >= step;
                if (tChart < 0 && chartDone)
                    tChart = double(t.nsecsElapsed()) / 1e6;
                // The label repaints only when its text changes (CPI to three decimals).
                const bool labelDone =
                    probe.labelPainted > before || (now > before && label->text() == textBefore);
                if (chartDone && labelDone)
                    break;
                if (t.elapsed() > kStepTimeoutMs) {
                    std::printf("tab %s in front: step %d not painted within %lld ms (prediction "
                                "%llu → %llu, plot painted step %llu of %llu, sequence %llu; "
                                "label painted %llu); the UI thread is too busy:\n",
                                qPrintable(tab.name), i, (long long)kStepTimeoutMs,
                                (unsigned long long)before, (unsigned long long)now,
                                (unsigned long long)probe.paintedStep, (unsigned long long)step,
                                (unsigned long long)probe.paintedSequence,
                                (unsigned long long)probe.labelPainted);
                    timedOut = true;
                    break;
                }
            }
            if (timedOut)
                break;
            if (i >= 0) {
                handlers.push_back(handler);
                predicted.push_back(tPredicted);
                chart.push_back(tChart);
                painted.push_back(double(t.nsecsElapsed()) / 1e6);
            }
            settle(5); // like the gap between two mouse events
        }

        if (timedOut) {
            failed << tab.name;
            printParts();
            settle(int(kStepTimeoutMs)); // let the backlog drain before the next tab
            continue;
        }

        // 2. A continuous drag at 120 Hz.
        settle(200);
        std::map<std::uint64_t, qint64> stepTimes; // step (or prediction) → time of the step (ns)
        std::vector<double> dragLatency;
        std::size_t frames = 0;
        QElapsedTimer clock;
        clock.start();
        std::uint64_t shownUpTo = tab.followsPrediction ? probe.sequence() : probe.step;
        std::uint64_t sequence = probe.sequence();
        probe.onPlotPaint = [&] {
            const std::uint64_t shown =
                tab.followsPrediction ? probe.paintedSequence : probe.paintedStep;
            if (shown <= shownUpTo)
                return;
            ++frames;
            for (auto it = stepTimes.upper_bound(shownUpTo);
                 it != stepTimes.end() && it->first <= shown; ++it)
                dragLatency.push_back(double(clock.nsecsElapsed() - it->second) / 1e6);
            shownUpTo = shown;
        };
        int dragSteps = 0;
        QTimer drag;
        drag.setInterval(8);
        drag.setTimerType(Qt::PreciseTimer);
        QObject::connect(&drag, &QTimer::timeout, [&] {
            const int value = nextValue();
            // Each step asks for one prediction, and the chart pages redraw on each step.
            const std::uint64_t key = tab.followsPrediction ? ++sequence : probe.step + 1;
            stepTimes[key] = clock.nsecsElapsed();
            ++probe.step;
            slider->setValue(value);
            probe.stepConfigs[probe.step] = explorer->snap(session.config());
            ++dragSteps;
        });
        drag.start();
        settle(2000);
        drag.stop();
        settle(300);
        probe.onPlotPaint = nullptr;

        std::printf("tab %s in front: slider step → (%zu steps, one at a time)\n",
                    qPrintable(tab.name), painted.size());
        print("handlers", stats(handlers));
        print("predicted", stats(predicted));
        print("chart", stats(chart));
        print("painted", stats(painted));
        printParts();
        std::printf(" continuous drag, a step every 8 ms for 2 s: %d steps, %zu frames painted\n",
                    dragSteps, frames);
        print("step→paint", stats(dragLatency));
        std::fflush(stdout);
    }
    if (!failed.isEmpty()) {
        std::fprintf(stderr, "explorer_latency: steps not painted within %lld ms on: %s\n",
                     (long long)kStepTimeoutMs, qPrintable(failed.join(QStringLiteral(", "))));
        return 1;
    }
    return 0;
}
