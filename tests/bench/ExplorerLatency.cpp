// Slider change → CPI and charts redrawn, in the real explorer window (DESIGN §12: ≤ 16 ms for
// a program of 64 regions). Runs offscreen; not a test.
//
//     explorer_latency [DB.sqlite] [--steps N]
//
// The window opens DB (default: data/default.sqlite), selects the program with the most regions
// and then, for N steps, moves a slider one grid position (the same signal path as a mouse drag:
// QSlider::valueChanged → Session → worker thread → predictionReady → header and overview) and
// waits until the overview plot has been repainted with that step's prediction and the CPI label
// has been repainted. Reported per step, in milliseconds:
//   predicted  the prediction is back on the UI thread
//   replotted  the overview's QCustomPlot has re-rendered its buffer
//   painted    the overview plot and the CPI label have received their paint events (the label
//              only when its text changed)
// Then a continuous drag: a step every 8 ms (a 120 Hz mouse) for 2 s, with the latency from each
// step to the first overview paint showing a prediction at least that new, and how many frames
// were painted for how many steps (the rest were coalesced away).
#include "MainWindow.h"
#include "OverviewView.h"
#include "Session.h"
#include "params/PresetLibrary.h"
#include "store/ExplorerModel.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QLabel>
#include <QSlider>
#include <QTimer>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <qcustomplot.h>
#include <vector>

using namespace concorde;
using concorde::ui::Session;

namespace {

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
    std::printf("  %-10s median %6.2f ms   p95 %6.2f ms   max %6.2f ms   mean %6.2f ms\n", what,
                s.median, s.p95, s.max, s.mean);
}

/// Watches paint events of the widgets that show a prediction.
class PaintProbe : public QObject {
public:
    std::uint64_t plotPainted = 0;  ///< sequence shown by the last plot paint
    std::uint64_t labelPainted = 0; ///< sequence shown by the last CPI label paint
    std::uint64_t replotted = 0;    ///< sequence of the last replot
    QWidget* plot = nullptr;
    QWidget* label = nullptr;
    Session* session = nullptr;
    std::function<void()> onPaint;

    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Paint && session->prediction()) {
            const std::uint64_t shown = session->prediction()->sequence;
            if (watched == plot)
                plotPainted = std::min(shown, replotted);
            if (watched == label)
                labelPainted = shown;
            if (onPaint)
                onPaint();
        }
        return false;
    }
};

} // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QString database = QStringLiteral(CONCORDE_SOURCE_DIR "/data/default.sqlite");
    int steps = 200;
    const QStringList args = app.arguments();
    for (int i = 1; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--steps") && i + 1 < args.size())
            steps = args[++i].toInt();
        else
            database = args[i];
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
    auto* overview = window.findChild<ui::OverviewView*>(QStringLiteral("view_overview"));
    auto* label = window.findChild<QLabel*>(QStringLiteral("cpi_label"));
    auto* slider = window.findChild<QSlider*>(QStringLiteral("slider_rob"));
    PaintProbe probe;
    probe.plot = overview->plot();
    probe.label = label;
    probe.session = &session;
    overview->plot()->installEventFilter(&probe);
    label->installEventFilter(&probe);
    QObject::connect(overview->plot(), &QCustomPlot::beforeReplot, [&] {
        if (session.prediction())
            probe.replotted = session.prediction()->sequence;
    });
    const auto settle = [&](int ms) {
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < ms)
            app.processEvents(QEventLoop::AllEvents, 5);
    };
    settle(500);

    // Prediction alone, on this thread, for reference.
    std::vector<double> predictOnly;
    for (int i = 0; i < 200; ++i) {
        CoreConfig c = session.config();
        c.set(ParamId::Rob, explorer->grid().values(ParamId::Rob)[std::size_t(i) % 4]);
        const auto t0 = std::chrono::steady_clock::now();
        const auto p = explorer->predict(c, session.baseline(), largest);
        predictOnly.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count());
        (void)p;
    }

    // 1. One step at a time.
    std::vector<double> handlers, predicted, replotted, painted;
    int direction = 1;
    for (int i = 0; i < steps; ++i) {
        if (slider->value() + direction > slider->maximum() ||
            slider->value() + direction < slider->minimum())
            direction = -direction;
        const std::uint64_t before = session.prediction()->sequence;
        const QString textBefore = label->text();
        QElapsedTimer t;
        t.start();
        slider->setValue(slider->value() + direction);
        handlers.push_back(double(t.nsecsElapsed()) / 1e6);
        double tPredicted = -1, tReplotted = -1;
        while (true) {
            app.processEvents(QEventLoop::AllEvents);
            const std::uint64_t now = session.prediction()->sequence;
            if (tPredicted < 0 && now > before)
                tPredicted = double(t.nsecsElapsed()) / 1e6;
            if (tReplotted < 0 && probe.replotted > before)
                tReplotted = double(t.nsecsElapsed()) / 1e6;
            // The label repaints only when its text changes (CPI to three decimals).
            const bool labelDone =
                probe.labelPainted > before || (now > before && label->text() == textBefore);
            if (probe.plotPainted > before && labelDone)
                break;
            if (t.elapsed() > 5000) {
                std::fprintf(stderr,
                             "explorer_latency: step %d never painted (before %llu, prediction "
                             "%llu, replotted %llu, plot painted %llu, label painted %llu)\n",
                             i, (unsigned long long)before,
                             (unsigned long long)session.prediction()->sequence,
                             (unsigned long long)probe.replotted,
                             (unsigned long long)probe.plotPainted,
                             (unsigned long long)probe.labelPainted);
                return 1;
            }
        }
        painted.push_back(double(t.nsecsElapsed()) / 1e6);
        predicted.push_back(tPredicted);
        replotted.push_back(tReplotted);
        settle(5); // like the gap between two mouse events
    }

    // 2. A continuous drag at 120 Hz.
    std::map<std::uint64_t, qint64> stepTimes; // prediction sequence → time of the step (ns)
    std::vector<double> dragLatency;
    std::size_t frames = 0;
    QElapsedTimer clock;
    clock.start();
    std::uint64_t shownUpTo = session.prediction()->sequence;
    probe.onPaint = [&] {
        const std::uint64_t shown = probe.plotPainted;
        if (shown <= shownUpTo)
            return;
        ++frames;
        for (auto it = stepTimes.upper_bound(shownUpTo);
             it != stepTimes.end() && it->first <= shown; ++it)
            dragLatency.push_back(double(clock.nsecsElapsed() - it->second) / 1e6);
        shownUpTo = shown;
    };
    std::uint64_t sequence = session.prediction()->sequence;
    int dragSteps = 0;
    QTimer drag;
    drag.setInterval(8);
    drag.setTimerType(Qt::PreciseTimer);
    QObject::connect(&drag, &QTimer::timeout, [&] {
        if (slider->value() + direction > slider->maximum() ||
            slider->value() + direction < slider->minimum())
            direction = -direction;
        stepTimes[++sequence] = clock.nsecsElapsed(); // each step asks for one prediction
        slider->setValue(slider->value() + direction);
        ++dragSteps;
    });
    drag.start();
    settle(2000);
    drag.stop();
    settle(300);

    std::size_t regions = 0;
    for (const auto& p : explorer->programs())
        regions += explorer->regionCount(p);
    std::printf("explorer_latency: %s\n", qPrintable(database));
    std::printf("  %zu programs, %zu regions predicted per change (target and baseline); "
                "selected %s with %zu regions; opened in %.0f ms\n",
                explorer->programs().size(), regions, largest.c_str(),
                explorer->regionCount(largest), openMs);
    std::printf("ExplorerModel::predict alone (UI thread idle):\n");
    print("predict", stats(predictOnly));
    std::printf("slider step → (%d steps, one at a time)\n", steps);
    print("handlers", stats(handlers));
    print("predicted", stats(predicted));
    print("replotted", stats(replotted));
    print("painted", stats(painted));
    std::printf("continuous drag, a step every 8 ms for 2 s: %d steps, %zu frames painted\n",
                dragSteps, frames);
    print("step→paint", stats(dragLatency));
    return 0;
}
