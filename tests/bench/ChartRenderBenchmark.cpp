// How long each chart view takes to take new data and redraw (the chart part of "slider change
// → visible charts redrawn ≤ 16 ms", docs/design.md §12), on real per-window bounds. Runs
// offscreen; not a test.
//
//     chart_render [DB.sqlite] [--repeats N] [--shots DIR]
//
// DB (default data/default.sqlite) gives the program with the most regions; its regions are
// repeated until the program has 64 (the size the target names). For each view, theme and
// data size it sets the data and replots at once (QCustomPlot::rpImmediateRefresh, as the
// window's paint does), N times, and prints the median and maximum in milliseconds. With
// --shots it also saves what the timeseries looked like (zoomed in, and at full range) as PNGs.
#include "CdfView.h"
#include "ChartTheme.h"
#include "PhasesView.h"
#include "TimeseriesView.h"
#include "explore/DatabaseBounds.h"
#include "explore/DatabasePredictor.h"
#include "explore/ProgramTimeline.h"
#include "params/PresetLibrary.h"
#include "store/FeatureDatabase.h"

#include <QApplication>
#include <QElapsedTimer>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <qcustomplot.h>
#include <string>
#include <vector>

using namespace concorde;
using namespace concorde::ui;

namespace {

struct Timing {
    double median = 0, max = 0;
};

Timing time(int repeats, const std::function<void()>& step) {
    std::vector<double> ms;
    for (int i = 0; i < repeats; ++i) {
        QElapsedTimer timer;
        timer.start();
        step();
        ms.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    std::sort(ms.begin(), ms.end());
    return {ms[ms.size() / 2], ms.back()};
}

void report(const char* view, const char* data, const QString& theme, const Timing& t) {
    std::printf("  %-11s %-28s %-9s median %7.2f ms   max %7.2f ms\n", view, data,
                qPrintable(theme), t.median, t.max);
}

} // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    std::string path = CONCORDE_SOURCE_DIR "/data/default.sqlite";
    int repeats = 15;
    QString shots; // a folder for screenshots of the timed views
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--repeats") == 0 && i + 1 < argc)
            repeats = std::max(1, std::atoi(argv[++i]));
        else if (std::strcmp(argv[i], "--shots") == 0 && i + 1 < argc)
            shots = QString::fromLocal8Bit(argv[++i]);
        else
            path = argv[i];
    }
    try {
        FeatureDatabase database = FeatureDatabase::openReadOnly(path);
        const DatabaseBounds bounds = DatabaseBounds::load(database);
        const auto predictor =
            std::make_shared<const DatabasePredictor>(database, *database.readModel());
        std::string program;
        for (const std::string& name : bounds.programs())
            if (program.empty() || bounds.regionsOf(name).size() > bounds.regionsOf(program).size())
                program = name;
        const PresetLibrary presets = PresetLibrary::loadDefault();
        const CoreConfig config = presets.require("n1-like").config;

        // The program's regions, repeated to 64.
        const auto& regions = bounds.regionsOf(program);
        std::vector<RegionBoundsSeries> parts;
        for (std::size_t k = 0; parts.size() < 64; ++k)
            parts.push_back(bounds.region(regions[k % regions.size()], config));
        const auto sixtyFour = std::make_shared<const RegionBoundsSeries>(
            RegionBoundsSeries::concatenate(parts, program));
        const auto oneRegion =
            std::make_shared<const RegionBoundsSeries>(bounds.region(regions.front(), config));
        ProgramTimeline timeline = ProgramTimeline::build(bounds, program, predictor.get(), config);
        ProgramTimeline timeline64 = timeline;
        timeline64.entries.clear();
        for (std::size_t k = 0; k < 64; ++k) {
            auto entry = timeline.entries[k % timeline.entries.size()];
            entry.regionIndex = std::uint32_t(k);
            timeline64.entries.push_back(entry);
        }
        std::printf("chart_render: %s, program %s (%zu regions repeated to 64: %zu windows), "
                    "%d repeats, 1400x800\n",
                    path.c_str(), program.c_str(), regions.size(), sixtyFour->windows(), repeats);

        for (const QString& theme : {QStringLiteral("light"), QStringLiteral("projector")}) {
            CdfView cdf;
            TimeseriesView timeseries;
            PhasesView phases;
            for (ChartView* view : std::initializer_list<ChartView*>{&cdf, &timeseries, &phases}) {
                view->setTheme(ChartTheme::named(theme));
                view->resize(1400, 800);
                view->show();
            }
            QCoreApplication::processEvents();
            const auto redraw = [](ChartView& view) {
                view.plot()->replot(QCustomPlot::rpImmediateRefresh);
            };
            report("cdf", "64 regions", theme, time(repeats, [&] {
                       cdf.setSeries(sixtyFour);
                       redraw(cdf);
                   }));
            report("timeseries", "1 region", theme, time(repeats, [&] {
                       timeseries.setSeries(oneRegion);
                       redraw(timeseries);
                   }));
            std::vector<float> reference(sixtyFour->windows(), 0.8f);
            // As the timeseries page does on a slider step: series and overlay in one call.
            const auto newData = [&] {
                timeseries.setSeriesAndReference(sixtyFour, reference, QStringLiteral("exact"));
            };
            report("timeseries", "64 regions + simulated IPC", theme, time(repeats, [&] {
                       newData();
                       redraw(timeseries);
                   }));
            // The same, split: taking the data (rebuild) and drawing it (replot).
            report("timeseries", "  of which: new data", theme, time(repeats, newData));
            report("timeseries", "  of which: redraw", theme,
                   time(repeats, [&] { redraw(timeseries); }));
            // Zoomed in to as many windows as the plot has pixels (every window drawn), then
            // panned by 50 windows per step, as a drag would.
            QCPAxis* x = timeseries.minimumGraph()->keyAxis();
            const double wide = x->axisRect()->width();
            x->setRange(1000, 1000 + wide);
            redraw(timeseries);
            double left = 1000;
            report("timeseries", "  zoomed to 1 window/px: pan", theme, time(repeats, [&] {
                       left += 50;
                       x->setRange(left, left + wide);
                       redraw(timeseries);
                   }));
            if (!shots.isEmpty())
                timeseries.grab().save(shots +
                                       QStringLiteral("/timeseries-%1-zoomed.png").arg(theme));
            x->setRange(-0.5, double(sixtyFour->windows()) - 0.5);
            redraw(timeseries);
            if (!shots.isEmpty())
                timeseries.grab().save(shots + QStringLiteral("/timeseries-%1.png").arg(theme));
            report("phases", "64 regions", theme, time(repeats, [&] {
                       phases.setTimeline(timeline64);
                       redraw(phases);
                   }));
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "chart_render: %s\n", e.what());
        return 1;
    }
    return 0;
}
