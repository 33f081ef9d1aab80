// Legibility of the chart views at the sizes people use them: a laptop window, a 1280×800 export
// and a projector (large fonts) at 800×600 to 1920×1080. For each view and size, with many
// regions and long legend names, nothing overlaps and nothing is cut off:
//   - the tick labels of every axis are apart from each other and inside the chart;
//   - the legend lies inside the chart and off the plot area (beside it, or below when narrow);
//   - axis labels, the title and the caption fit the chart's width;
//   - the CDF's binding-resource label lies inside the plot.
// Offscreen, on data made here.
#include "../support/ChartChecks.h"
#include "CdfView.h"
#include "OverviewView.h"
#include "explore/ExplorerPrediction.h"
#include "ChartTheme.h"
#include "PhasesView.h"
#include "SensitivityView.h"
#include "SweepView.h"
#include "TimeseriesView.h"
#include "explore/BoundResources.h"
#include "params/ParameterSpace.h"

#include <QApplication>
#include <QFontMetricsF>
#include <QtTest>
#include <cmath>
#include <qcustomplot.h>

using namespace concorde;
using namespace concorde::ui;
using concorde::testing::tornadoOfEveryParameter;

namespace {

constexpr int kRegions = 64;
constexpr int kWindowsPerRegion = 12;

/// One region's bounds: resource r near 2^(r-3), wobbling per window; ROB dips in region-specific
/// windows so the binding resource changes along the program.
RegionBoundsSeries regionSeries(int region) {
    std::vector<std::vector<float>> bounds(BoundResources::count());
    for (std::size_t r = 0; r < bounds.size(); ++r)
        for (int w = 0; w < kWindowsPerRegion; ++w)
            bounds[r].push_back(
                std::ldexp(1.0f + 0.05f * float((w * 3 + region + int(r)) % 11), int(r) - 3));
    for (int w = 0; w < kWindowsPerRegion; w += 1 + region % 3)
        bounds[0][std::size_t(w)] = 0.02f + 0.01f * float(w);
    return RegionBoundsSeries::fromBounds(std::move(bounds),
                                          "stockfish region " + std::to_string(region));
}

RegionBoundsSeries programSeries() {
    std::vector<RegionBoundsSeries> parts;
    for (int r = 0; r < kRegions; ++r)
        parts.push_back(regionSeries(r));
    return RegionBoundsSeries::concatenate(parts, "stockfish");
}

ProgramTimeline timeline() {
    ProgramTimeline t;
    t.program = "stockfish";
    for (int k = 0; k < kRegions; ++k)
        t.entries.push_back({std::size_t(k), std::int64_t(100 + k), std::uint32_t(k),
                             std::uint64_t(k) * 5'000'000, 100'000, std::int64_t(k % 7),
                             0.5 + 0.02 * double(k % 13)});
    return t;
}

QStringList lines(const QString& text) {
    return text.split(QLatin1Char('\n'));
}

double widest(const QString& text, const QFont& font) {
    const QFontMetricsF metrics(font);
    double width = 0;
    for (const QString& line : lines(text))
        width = std::max(width, metrics.horizontalAdvance(line));
    return width;
}

/// A sweep of ROB over its ten grid values for 24 programs of made-up but plausible CPIs.
ParameterSweep sweepOf24Programs() {
    ParameterSweep sweep;
    sweep.parameter = ParamId::Rob;
    sweep.values = {16, 32, 48, 64, 96, 128, 192, 256, 384, 512};
    sweep.current = 5;
    for (int p = 0; p < 24; ++p)
        sweep.programs.push_back("program-with-a-long-name-" + std::to_string(p));
    for (std::size_t v = 0; v < sweep.values.size(); ++v) {
        std::vector<double> cpis;
        double logSum = 0;
        for (int p = 0; p < 24; ++p) {
            const double cpi = (0.4 + 0.05 * p) * (1.0 + 2.0 / std::sqrt(sweep.values[v]));
            cpis.push_back(cpi);
            logSum += std::log(cpi);
        }
        sweep.cpi.push_back(cpis);
        sweep.geometricMeanCpi.push_back(std::exp(logSum / 24));
    }
    return sweep;
}

/// Every check of the file header, on the view as currently laid out.
void verifyLegible(ChartView& view, const QString& what) {
    QCustomPlot* plot = view.plot();
    const QRect chart = plot->viewport();
    const QList<QCPAxisRect*> rects = plot->axisRects();
    QVERIFY2(!rects.isEmpty(), qPrintable(what));
    // The plot keeps a fair share of the width, whatever the legend and labels take (on a
    // small projector chart the legend beside it may take half).
    QVERIFY2(plot->axisRect()->rect().width() >= 0.33 * chart.width(),
             qPrintable(QStringLiteral("%1: plot area only %2 of %3 pixels wide")
                            .arg(what)
                            .arg(plot->axisRect()->rect().width())
                            .arg(chart.width())));
    // And a fair share of the height, whatever the legend below, the caption and the band take.
    QVERIFY2(plot->axisRect()->rect().height() >= 0.25 * chart.height(),
             qPrintable(QStringLiteral("%1: plot area only %2 of %3 pixels high")
                            .arg(what)
                            .arg(plot->axisRect()->rect().height())
                            .arg(chart.height())));
    for (QCPAxisRect* rect : rects) {
        for (QCPAxis* axis : rect->axes()) {
            if (!axis->visible())
                continue;
            const QString where =
                QStringLiteral("%1, %2 axis").arg(what).arg(int(axis->axisType()));
            if (!axis->label().isEmpty())
                QVERIFY2(widest(axis->label(), axis->labelFont()) <= chart.width(),
                         qPrintable(where + ": axis label wider than the chart"));
            // (A strip such as the timeseries band has a one-word label that may reach past it.)
            if (!axis->label().isEmpty() && axis->orientation() == Qt::Vertical &&
                rect->height() >= 100)
                QVERIFY2(widest(axis->label(), axis->labelFont()) <= rect->height(),
                         qPrintable(where + ": axis label '" + axis->label() +
                                    "' longer than the axis"));
            if (!axis->tickLabels())
                continue;
            const QFontMetricsF metrics(axis->tickLabelFont());
            const bool horizontal = axis->orientation() == Qt::Horizontal;
            const auto ticks = axis->tickVector();
            const auto labels = axis->tickVectorLabels();
            QVERIFY2(ticks.size() == labels.size(), qPrintable(where));
            // Each label's pixel extent along the axis, in pixel order (reversed axes and
            // vertical axes run the other way).
            std::vector<std::pair<double, double>> extents;
            for (int i = 0; i < ticks.size(); ++i) {
                const double centre = axis->coordToPixel(ticks[i]);
                const double half =
                    0.5 * (horizontal ? metrics.horizontalAdvance(labels[i]) : metrics.height());
                extents.emplace_back(centre - half, centre + half);
                if (horizontal)
                    QVERIFY2(
                        centre - half >= chart.left() - 0.5 && centre + half <= chart.right() + 1.5,
                        qPrintable(
                            QStringLiteral("%1: tick label '%2' cut off").arg(where, labels[i])));
            }
            std::sort(extents.begin(), extents.end());
            for (std::size_t i = 1; i < extents.size(); ++i)
                QVERIFY2(extents[i].first >= extents[i - 1].second - 0.5,
                         qPrintable(QStringLiteral("%1: tick labels overlap (%2 labels)")
                                        .arg(where)
                                        .arg(labels.size())));
        }
    }
    QCPLegend* legend = plot->legend;
    if (legend->visible() && legend->itemCount() > 0) {
        const QRect box = legend->outerRect();
        QVERIFY2(chart.contains(box),
                 qPrintable(QStringLiteral("%1: legend %2,%3 %4x%5 outside the chart")
                                .arg(what)
                                .arg(box.x())
                                .arg(box.y())
                                .arg(box.width())
                                .arg(box.height())));
        for (QCPAxisRect* rect : rects)
            QVERIFY2(!legend->rect().intersects(rect->rect()),
                     qPrintable(what + ": legend covers the plot"));
        // Every entry fits inside the legend box at its full height, apart from the others.
        const QString problem = testing::legendProblem(*plot);
        QVERIFY2(problem.isEmpty(), qPrintable(what + ": " + problem));
    }
    if (!view.caption().isEmpty()) {
        QCPTextElement* caption = nullptr;
        for (int i = 0; i < plot->plotLayout()->elementCount(); ++i)
            if (auto* text = qobject_cast<QCPTextElement*>(plot->plotLayout()->elementAt(i)))
                if (QString(text->text()).replace(QLatin1Char('\n'), QLatin1Char(' ')) ==
                    view.caption())
                    caption = text;
        QVERIFY2(caption, qPrintable(what + ": caption not shown"));
        QVERIFY2(widest(caption->text(), caption->font()) <= chart.width() - 8,
                 qPrintable(what + ": caption wider than the chart"));
    }
}

/// Shows `view` at `size` in `theme` and lays it out twice, as a resize and a repaint would.
void showAt(ChartView& view, const QSize& size, const QString& theme) {
    view.setTheme(ChartTheme::named(theme));
    view.resize(size);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.plot()->replot();
    view.plot()->replot();
}

} // namespace

class ChartLegibilityTest : public QObject {
    Q_OBJECT

private slots:
    void everyViewAtEverySize_data() {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QString>("theme");
        QTest::newRow("laptop window 640x480") << QSize(640, 480) << "light";
        QTest::newRow("export 1280x800") << QSize(1280, 800) << "light";
        QTest::newRow("dark 1000x640") << QSize(1000, 640) << "dark";
        QTest::newRow("projector 800x600") << QSize(800, 600) << "projector";
        QTest::newRow("projector 1280x780") << QSize(1280, 780) << "projector";
        QTest::newRow("projector 1920x1080") << QSize(1920, 1080) << "projector";
    }

    void everyViewAtEverySize() {
        QFETCH(QSize, size);
        QFETCH(QString, theme);

        CdfView cdf;
        cdf.setSeries(regionSeries(5));
        showAt(cdf, size, theme);
        verifyLegible(cdf, "cdf");
        if (QTest::currentTestFailed())
            return;
        QCPItemText* label = cdf.highlightLabel();
        QVERIFY(label);
        const QCPAxisRect* plotArea = cdf.plot()->axisRect();
        const QRectF box(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition());
        QVERIFY2(QRectF(plotArea->rect()).adjusted(-1, -1, 1, 1).contains(box),
                 "cdf: the binding label leaves the plot");

        TimeseriesView timeseries;
        timeseries.setWindowSize(400);
        timeseries.setSeries(programSeries());
        std::vector<float> reference(std::size_t(kRegions * kWindowsPerRegion), 0.7f);
        timeseries.setReference(reference, "nearest labelled configuration (differs in rob, "
                                           "lq, l1d and the branch predictor), 64 of 64 regions");
        showAt(timeseries, size, theme);
        verifyLegible(timeseries, "timeseries");
        if (QTest::currentTestFailed())
            return;

        PhasesView phases;
        phases.setTimeline(timeline());
        showAt(phases, size, theme);
        verifyLegible(phases, "phases");
        if (QTest::currentTestFailed())
            return;

        // With few regions each bar has its CPI written over it; the bars level with the
        // program's CPI must not have the dashed line strike through their numbers.
        ProgramTimeline few = timeline();
        few.entries.resize(12);
        phases.setTimeline(few);
        showAt(phases, size, theme);
        verifyLegible(phases, "phases, 12 regions");
        const QCPLayer* lineLayer = nullptr;
        for (int i = 0; i < phases.plot()->graphCount(); ++i)
            if (phases.plot()->graph(i)->name().startsWith(QStringLiteral("program CPI")))
                lineLayer = phases.plot()->graph(i)->layer();
        QVERIFY(lineLayer);
        int values = 0;
        for (int i = 0; i < phases.plot()->itemCount(); ++i)
            if (auto* text = qobject_cast<QCPItemText*>(phases.plot()->item(i))) {
                ++values;
                QVERIFY2(text->layer()->index() >= lineLayer->index(),
                         qPrintable(text->text() + QStringLiteral(" under the program's line")));
                QVERIFY2(text->brush().style() != Qt::NoBrush &&
                             text->brush().color().alpha() >= 200,
                         qPrintable(text->text() + QStringLiteral(" has no background patch")));
            }
        if (size.width() >= 1280) // narrower projector charts leave the numbers out
            QCOMPARE(values, 12);

        // The design-review charts (issue 18): a sweep of 24 programs and a full tornado.
        SweepView sweep;
        sweep.setSweep(sweepOf24Programs(), std::size_t{5});
        showAt(sweep, size, theme);
        verifyLegible(sweep, "sweep");
        if (QTest::currentTestFailed())
            return;
        SensitivityView tornado;
        tornado.setRanking(tornadoOfEveryParameter(), QStringLiteral("gzip"));
        showAt(tornado, size, theme);
        verifyLegible(tornado, "sensitivity");
    }

    // The timeseries tab of a full-screen projector window at 1024x768 (a chart of 1020x490,
    // the reference as data/default.sqlite gives it): its thirteen legend entries were squeezed
    // beside a plot too short for them, each drawn over the next.
    void timeseriesLegendInAProjectorWindow() {
        TimeseriesView view;
        view.setWindowSize(400);
        view.setSeries(programSeries());
        view.setReference(std::vector<float>(std::size_t(kRegions * kWindowsPerRegion), 0.7f),
                          "64 of 64 regions, exact config.");
        showAt(view, QSize(1020, 490), "projector");
        QVERIFY(view.plot()->legend->itemCount() >= 13);
        verifyLegible(view, "timeseries, projector window");
    }

    // The shipped database has 47 programs. At 500 px the ticker kept every other name (seen in
    // a screenshot at 1280x800); the overview now asks for the height at which every program is
    // named (its page scrolls), and at that height every one is.
    void overviewNamesEveryOneOf47Programs() {
        auto prediction = std::make_shared<ExplorerPrediction>();
        for (int p = 0; p < 47; ++p) {
            prediction->programs.push_back("program-" + std::to_string(p));
            prediction->targetCpi.push_back(0.4 + 0.03 * p);
            prediction->baselineCpi.push_back(0.7 + 0.05 * p);
        }
        OverviewView view;
        view.resize(900, 500);
        view.show();
        view.setPrediction(prediction);
        for (int pass = 0; pass < 3; ++pass) {
            QApplication::processEvents();
            view.plot()->replot();
        }
        const QCPAxis* names = view.plot()->axisRect()->axis(QCPAxis::atLeft);
        QVERIFY2(names->tickVectorLabels().size() < 47, "47 names fit 500 px: the test lost its point");
        QVERIFY2(view.heightForEveryRow() > 500, qPrintable(QString::number(view.heightForEveryRow())));
        view.resize(900, view.heightForEveryRow());
        for (int pass = 0; pass < 3; ++pass) {
            QApplication::processEvents();
            view.plot()->replot();
        }
        QCOMPARE(names->tickVectorLabels().size(), 47);
    }

    // An ensemble's band around the selected program's curve: one filled area between its low
    // and high ends, one legend entry, and the axis holds the whole band.
    void sweepDrawsTheSelectedProgramsBand() {
        ParameterSweep sweep = sweepOf24Programs();
        sweep.bandProgram = sweep.programs[3];
        for (std::size_t v = 0; v < sweep.values.size(); ++v) {
            sweep.bandLow.push_back(sweep.cpi[v][3] * 0.8);
            sweep.bandHigh.push_back(sweep.cpi[v][3] * 1.3);
        }
        SweepView view;
        view.setSweep(sweep, std::size_t(3));
        showAt(view, QSize(900, 600), "light");
        QCPGraph* band = nullptr;
        for (int g = 0; g < view.plot()->graphCount(); ++g)
            if (view.plot()->graph(g)->objectName() == QStringLiteral("sweep_band"))
                band = view.plot()->graph(g);
        QVERIFY(band);
        QVERIFY(band->channelFillGraph());
        QCOMPARE(band->data()->size(), int(sweep.values.size()));
        QVERIFY(view.plot()->legend->hasItemWithPlottable(band));
        QVERIFY(!view.plot()->legend->hasItemWithPlottable(band->channelFillGraph()));
        const QCPRange range = view.plot()->axisRect()->axis(QCPAxis::atLeft)->range();
        for (std::size_t v = 0; v < sweep.values.size(); ++v)
            QVERIFY(range.contains(sweep.bandHigh[v]) && range.contains(sweep.bandLow[v]));
        verifyLegible(view, "sweep with band");
        // Another program selected: no band drawn.
        view.setSweep(sweep, std::size_t(4));
        showAt(view, QSize(900, 600), "light");
        for (int g = 0; g < view.plot()->graphCount(); ++g)
            QVERIFY(view.plot()->graph(g)->objectName() != QStringLiteral("sweep_band"));
    }

    void regionLabelsThinRegularlyAndReturnWhenWide() {
        TimeseriesView view;
        view.setWindowSize(400);
        view.setSeries(programSeries());
        QCPAxis* top = view.minimumGraph()->keyAxis()->axisRect()->axis(QCPAxis::atTop);
        showAt(view, QSize(700, 500), "projector");
        const auto narrow = top->tickVectorLabels();
        QVERIFY(narrow.size() < kRegions);
        QVERIFY(narrow.size() >= 4);
        QCOMPARE(narrow.front(), QString("r0"));
        // Every kept label is a multiple of one stride: regular, not ragged.
        const int stride = narrow[1].mid(1).toInt();
        for (int i = 0; i < narrow.size(); ++i)
            QCOMPARE(narrow[i], QStringLiteral("r%1").arg(i * stride));
        // Wide enough for all of them: every region is named again.
        showAt(view, QSize(3600, 700), "light");
        QCOMPARE(top->tickVectorLabels().size(), kRegions);
    }

    void legendMovesBelowWhenNarrowAndBackWhenWide() {
        CdfView view;
        view.setSeries(regionSeries(2));
        showAt(view, QSize(1000, 600), "projector");
        QVERIFY(view.legendBelow());
        const QRect legend = view.plot()->legend->outerRect();
        QVERIFY(legend.top() >= view.plot()->axisRect()->rect().bottom());
        // More than one column: the entries share the width.
        QVERIFY(view.plot()->legend->columnCount() > 1);
        showAt(view, QSize(1800, 900), "light");
        QVERIFY(!view.legendBelow());
        QVERIFY(view.plot()->legend->outerRect().left() >= view.plot()->axisRect()->rect().right());
        QCOMPARE(view.plot()->legend->columnCount(), 1);
    }

    void plotFillsTheWidthWhenDataArrivesAfterShowing() {
        // As in the window: the view is shown empty (no legend), then the data arrives.
        CdfView view;
        view.resize(1400, 800);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.plot()->replot();
        view.setSeries(regionSeries(4));
        view.plot()->replot();
        QVERIFY(!view.legendBelow());
        QVERIFY2(view.plot()->axisRect()->rect().width() >= 0.6 * view.plot()->width(),
                 qPrintable(QString::number(view.plot()->axisRect()->rect().width())));
    }

    void exportsLayOutForTheirOwnSize() {
        // A wide window, a narrow and tall projector export: the export's legend goes below, and
        // the window's layout is back beside afterwards.
        CdfView view;
        view.setSeries(regionSeries(3));
        showAt(view, QSize(1800, 900), "projector");
        QVERIFY(!view.legendBelow());
        view.fitLayout(QSize(760, 1000));
        QVERIFY(view.legendBelow());
        view.plot()->replot(); // the widget lays itself out for its own size again
        QVERIFY(!view.legendBelow());
    }
};

QTEST_MAIN(ChartLegibilityTest)
#include "ChartLegibilityTest.moc"
