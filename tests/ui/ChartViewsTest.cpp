// The chart views (CDF, timeseries, Shapley, phases): each plots the data it is given, highlights
// the binding resource, shows values on hover, and the phase view emits the clicked region.
// Offscreen, on small data made here.
#include "CdfView.h"
#include "ChartExporter.h"
#include "ChartFormat.h"
#include "ChartPalette.h"
#include "ChartTheme.h"
#include "PhasesView.h"
#include "ShapleyView.h"
#include "TimeseriesView.h"
#include "explore/BoundResources.h"

#include <QMouseEvent>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <qcustomplot.h>
#include <set>

using namespace concorde;
using namespace concorde::ui;

namespace {

constexpr int kWindows = 40;

/// Ten resources, well apart on the IPC axis (resource r around 2^(r-2)), except that ALU issue
/// (3) is pushed below everything in 30 of the 40 windows and ROB (0) binds the others.
RegionBoundsSeries sampleSeries(const std::string& label = "prog region 0") {
    std::vector<std::vector<float>> bounds(BoundResources::count());
    for (std::size_t r = 0; r < bounds.size(); ++r)
        for (int w = 0; w < kWindows; ++w)
            bounds[r].push_back(std::ldexp(1.0f + 0.01f * float(w % 7), int(r) - 2));
    for (int w = 0; w < kWindows; ++w)
        bounds[3][std::size_t(w)] = w < 30 ? 0.05f + 0.006f * float(w) : 8.0f;
    bounds[9] = std::vector<float>(kWindows, 64.0f); // at the cap: never limits
    return RegionBoundsSeries::fromBounds(std::move(bounds), label);
}

/// Sends a mouse move (no button) to the plot, as the pointer would.
void hover(QCustomPlot* plot, QPointF pos) {
    QMouseEvent event(QEvent::MouseMove, pos, plot->mapToGlobal(pos), Qt::NoButton, Qt::NoButton,
                      Qt::NoModifier);
    QCoreApplication::sendEvent(plot, &event);
}

/// Lays the view out at a fixed size so pixel coordinates mean something.
void layOut(ChartView& view) {
    view.resize(1000, 640);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.plot()->replot();
}

AttributionReport sampleReport() {
    AttributionReport report;
    report.players = PlayerSet::defaultGroups(); // ten players
    const std::size_t n = report.players.size();
    const auto attribution = [&](double base, std::vector<std::pair<std::size_t, double>> values) {
        Attribution a;
        a.baselineCpi = base;
        double sum = 0;
        for (std::size_t i = 0; i < n; ++i)
            a.players.push_back({report.players[i].name, 0.0, 0.0, false});
        for (const auto& [player, value] : values) {
            a.players[player].value = value;
            a.players[player].active = true;
            sum += value;
        }
        a.targetCpi = base + sum;
        return a;
    };
    // Player 9 (prefetcher) is zero everywhere: not drawn.
    const auto program = [&](const std::string& name, double base,
                             std::vector<std::pair<std::size_t, double>> values) {
        ProgramAttribution p;
        p.program = name;
        p.instructions = 200;
        p.total = attribution(base, values);
        for (int r = 0; r < 2; ++r) {
            auto scaled = values;
            for (auto& v : scaled)
                v.second *= r == 0 ? 0.5 : 1.5;
            p.regions.push_back({std::to_string(r), 100, attribution(base, scaled)});
        }
        return p;
    };
    report.programs.push_back(program("alpha", 1.0, {{0, 0.30}, {2, -0.10}, {8, 0.05}}));
    report.programs.push_back(program("beta", 2.0, {{0, -0.40}, {1, 0.20}, {8, -0.20}}));
    report.programs.push_back(program("gamma", 1.5, {{0, 0.50}, {2, 0.25}}));
    return report;
}

/// A program of 16,000 windows in four regions: resource r near 0.5 + 0.25 r IPC, ROB (0)
/// binding, except for one deep dip of ALU issue (3) to 0.02 IPC at window kDip.
constexpr int kManyWindows = 16000;
constexpr int kDip = 12345;
RegionBoundsSeries manyWindows(float scale = 1.0f, const std::string& program = "prog") {
    std::vector<RegionBoundsSeries> parts;
    for (int part = 0; part < 4; ++part) {
        std::vector<std::vector<float>> bounds(BoundResources::count());
        for (std::size_t r = 0; r < bounds.size(); ++r)
            for (int w = 0; w < kManyWindows / 4; ++w)
                bounds[r].push_back(scale * (0.5f + 0.25f * float(r) + 0.01f * float(w % 13)));
        if (part == kDip / (kManyWindows / 4))
            bounds[3][std::size_t(kDip % (kManyWindows / 4))] = 0.02f;
        parts.push_back(RegionBoundsSeries::fromBounds(
            std::move(bounds), program + " region " + std::to_string(part)));
    }
    return RegionBoundsSeries::concatenate(parts, program);
}

/// The lowest value `graph` plots (NaN ignored).
double lowestPlotted(const QCPGraph* graph) {
    double lowest = std::numeric_limits<double>::infinity();
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
        if (!std::isnan(it->value))
            lowest = std::min(lowest, it->value);
    return lowest;
}

ProgramTimeline sampleTimeline() {
    ProgramTimeline t;
    t.program = "prog";
    const std::vector<std::optional<std::int64_t>> phases = {0, 1, 0, 2, std::nullopt};
    for (std::size_t k = 0; k < phases.size(); ++k)
        t.entries.push_back({k, std::int64_t(10 + k), std::uint32_t(k), 1'000'000 * k, 100'000,
                             phases[k], 1.0 + 0.25 * double(k)});
    return t;
}

/// CIELAB (D65) of `colour` as a viewer with `deficiency` sees it: Machado, Oliveira and
/// Fernandes (2009) simulation at full severity, in linear RGB ("normal" leaves it as it is).
std::array<double, 3> seenLab(const QColor& colour, const std::string& deficiency) {
    using Matrix = std::array<std::array<double, 3>, 3>;
    static const std::map<std::string, Matrix> simulations = {
        {"normal", {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}},
        {"protan",
         {{{0.152286, 1.052583, -0.204868},
           {0.114503, 0.786281, 0.099216},
           {-0.003882, -0.048116, 1.051998}}}},
        {"deutan",
         {{{0.367322, 0.860646, -0.227968},
           {0.280085, 0.672501, 0.047413},
           {-0.011820, 0.042940, 0.968881}}}},
        {"tritan",
         {{{1.255528, -0.076749, -0.178779},
           {-0.078411, 0.930809, 0.147602},
           {0.004733, 0.691367, 0.303900}}}},
    };
    const auto linear = [](double c) {
        return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
    };
    const std::array<double, 3> in = {linear(colour.redF()), linear(colour.greenF()),
                                      linear(colour.blueF())};
    const Matrix& m = simulations.at(deficiency);
    std::array<double, 3> rgb{};
    for (int i = 0; i < 3; ++i)
        rgb[i] = std::clamp(m[i][0] * in[0] + m[i][1] * in[1] + m[i][2] * in[2], 0.0, 1.0);
    const double x = (0.4124 * rgb[0] + 0.3576 * rgb[1] + 0.1805 * rgb[2]) / 0.95047;
    const double y = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
    const double z = (0.0193 * rgb[0] + 0.1192 * rgb[1] + 0.9505 * rgb[2]) / 1.08883;
    const auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116; };
    return {116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
}

} // namespace

class ChartViewsTest : public QObject {
    Q_OBJECT

private slots:
    void paletteIsDistinctAndCycles() {
        const ChartPalette standard = ChartPalette::standard();
        std::set<QRgb> colours;
        for (int i = 0; i < 10; ++i)
            colours.insert(standard.colour(i).rgb());
        QCOMPARE(colours.size(), std::size_t(10)); // ten resources, ten colours
        const ChartPalette contrast = ChartPalette::highContrast();
        QCOMPARE(contrast.size(), 7);
        QCOMPARE(contrast.colour(0), QColor("#0072B2"));              // Okabe–Ito blue
        QCOMPARE(contrast.colour(7), contrast.colour(0).darker(170)); // second round: darker
        QCOMPARE(contrast.lineStyle(0), Qt::SolidLine);
        QCOMPARE(contrast.lineStyle(7), Qt::DashLine);
        QCOMPARE(contrast.brushStyle(9), Qt::BDiagPattern);
        QCOMPARE(contrast.brush(0).style(), Qt::SolidPattern);
        QCOMPARE(contrast.brush(8).style(), Qt::TexturePattern); // striped
        for (int i = 0; i < 10; ++i)
            QVERIFY(contrast.colour(i) != QColor(Qt::black)); // black is the charts' ink
        const ChartTheme projector = ChartTheme::projector();
        QVERIFY(projector.fontScale > 1.5);
        QVERIFY(projector.lineWidth >= 2 * ChartTheme::light().lineWidth);
        QCOMPARE(ChartTheme::named("dark").name, QString("dark"));
        QCOMPARE(ChartTheme::named("nonsense").name, QString("light"));
    }

    void paletteStaysDistinctForColourBlindViewersAndDashesPastEight() {
        // Every two solid curves at least ΔE 15 apart (CIE76) to normal vision and under
        // protanopia, deuteranopia and tritanopia; curves past the eighth (or past the
        // palette's own colours) carry a dash pattern as a second cue.
        constexpr double kMinDistance = 15;
        for (const ChartPalette& palette :
             {ChartPalette::standard(), ChartPalette::highContrast(), ChartPalette::onDark()}) {
            QVERIFY(palette.size() <= 8);
            for (const std::string deficiency : {"normal", "protan", "deutan", "tritan"})
                for (int a = 0; a < palette.size(); ++a)
                    for (int b = a + 1; b < palette.size(); ++b) {
                        const auto p = seenLab(palette.colour(a), deficiency);
                        const auto q = seenLab(palette.colour(b), deficiency);
                        const double distance = std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
                        QVERIFY2(
                            distance >= kMinDistance,
                            qPrintable(QString("%1, %2: %3 and %4 are %5 apart")
                                           .arg(palette.name(), deficiency.c_str(),
                                                palette.colour(a).name(), palette.colour(b).name())
                                           .arg(distance)));
                    }
            for (int i = palette.size(); i < 12; ++i)
                QVERIFY(palette.lineStyle(i) != Qt::SolidLine);
        }
        // A second-round colour never passes for the ink (black) on a light background.
        for (const ChartPalette& palette : {ChartPalette::standard(), ChartPalette::highContrast()})
            for (int i = palette.size(); i < 2 * palette.size(); ++i)
                QVERIFY2(seenLab(palette.colour(i), "normal")[0] > 20,
                         qPrintable(palette.colour(i).name()));

        // The CDF of the ten resources: every curve past the eighth is dashed.
        CdfView view;
        view.setSeries(sampleSeries());
        for (int r = 0; r < int(BoundResources::count()); ++r)
            QCOMPARE(view.resourceGraph(r)->pen().style() != Qt::SolidLine, r >= 8);
    }

    void cdfPlotsOneCurvePerResource() {
        const RegionBoundsSeries s = sampleSeries();
        CdfView view;
        QVERIFY(!view.hasData());
        QCOMPARE(view.highlightedResource(), -1);
        view.setSeries(s);
        QVERIFY(view.hasData());
        QCOMPARE(view.viewName(), QString("cdf"));
        for (int r = 0; r < int(s.resourceCount()); ++r) {
            QCPGraph* graph = view.resourceGraph(r);
            QVERIFY(graph);
            const auto staircase = s.cdf(std::size_t(r)).staircase();
            QCOMPARE(graph->dataCount(), int(staircase.size()));
            QCOMPARE(graph->data()->at(graph->dataCount() - 1)->value, 1.0);
            QCOMPARE(graph->data()->at(1)->key, double(staircase[1].x));
            QCOMPARE(graph->data()->at(1)->value, staircase[1].p);
        }
        QVERIFY(view.minimumGraph());
        QCOMPARE(view.minimumGraph()->dataCount(), int(s.minimumCdf().staircase().size()));

        // ALU issue binds 30 of 40 windows: highlighted (thicker, bold legend entry, labelled).
        QCOMPARE(view.highlightedResource(), 3);
        const double highlighted = view.resourceGraph(3)->pen().widthF();
        for (int r = 0; r < int(s.resourceCount()); ++r)
            if (r != 3)
                QVERIFY(view.resourceGraph(r)->pen().widthF() < highlighted);
        QVERIFY(view.plot()->legend->itemWithPlottable(view.resourceGraph(3))->font().bold());
        QVERIFY(!view.plot()->legend->itemWithPlottable(view.resourceGraph(0))->font().bold());
        QVERIFY(view.highlightLabel());
        QCOMPARE(view.highlightLabel()->text(), QString("ALU issue binds 75.0 % of windows"));
        QCOMPARE(view.resourceGraph(3)->name(), QString("ALU issue (binds 75.0 %)"));
        QCOMPARE(view.resourceGraph(9)->name(), QString("Fetch width (never limits)"));

        // The table: one row per distinct value per resource, then the minimum's.
        const ChartTable table = view.dataTable();
        QCOMPARE(table.header,
                 QStringList({"resource", "ipc_bound", "cumulative_fraction", "binding_share"}));
        std::size_t rows = s.minimumCdf().steps().size();
        for (std::size_t r = 0; r < s.resourceCount(); ++r)
            rows += s.cdf(r).steps().size();
        QCOMPARE(std::size_t(table.rows.size()), rows);
        QCOMPARE(table.rows.back().first(), QString("minimum"));

        // Projector theme: thicker lines, bigger fonts, same data.
        view.setTheme(ChartTheme::projector());
        QCOMPARE(view.resourceGraph(3)->pen().widthF(), ChartTheme::projector().highlightWidth);
        QVERIFY(view.plot()->legend->font().pointSizeF() > 15);
        QCOMPARE(view.resourceGraph(3)->dataCount(), int(s.cdf(3).staircase().size()));

        view.clear();
        QVERIFY(!view.hasData());
        QVERIFY(!view.resourceGraph(0));
        QCOMPARE(view.plot()->graphCount(), 0);
        QCOMPARE(view.dataTable().rows.size(), 0);
    }

    void cdfHoverShowsTheValueUnderThePointer() {
        const RegionBoundsSeries s = sampleSeries();
        CdfView view;
        view.setSeries(s);
        layOut(view);
        QSignalSpy spy(&view, &ChartView::hovered);
        const Cdf& cdf = s.cdf(3);
        const float value = cdf.sortedValues()[20]; // the 21st smallest ALU bound
        const double fraction = cdf.evaluate(value);
        QCPGraph* graph = view.resourceGraph(3);
        const QPointF pos(graph->keyAxis()->coordToPixel(value) + 1,
                          graph->valueAxis()->coordToPixel(fraction));
        hover(view.plot(), pos);
        QCOMPARE(spy.count(), 1);
        const QString text = view.lastHoverText();
        QVERIFY2(text.startsWith("ALU issue: bound \u2264 " + ChartFormat::ipc(value)),
                 qPrintable(text));
        QVERIFY2(text.contains(ChartFormat::percent(fraction) + " of windows"), qPrintable(text));
        QVERIFY2(text.contains("binds 75.0 %"), qPrintable(text));
        // Outside the axis rect: nothing.
        hover(view.plot(), QPointF(2, 2));
        QVERIFY(view.lastHoverText().isEmpty());
    }

    void timeseriesPlotsEveryWindowAndTheBindingBand() {
        const RegionBoundsSeries s = sampleSeries();
        TimeseriesView view;
        view.setWindowSize(400);
        view.setSeries(s);
        QVERIFY(!view.referenceGraph()); // no labels yet
        for (int r = 0; r < int(s.resourceCount()); ++r) {
            QCOMPARE(view.resourceGraph(r)->dataCount(), kWindows);
            QCOMPARE(view.resourceGraph(r)->data()->at(5)->value,
                     double(s.bound(std::size_t(r))[5]));
        }
        QCOMPARE(view.minimumGraph()->dataCount(), kWindows);
        for (int w = 0; w < kWindows; ++w)
            QCOMPARE(view.minimumGraph()->data()->at(w)->value,
                     double(s.minimum()[std::size_t(w)]));
        // The minimum is highlighted: drawn on top, in the foreground colour, with the area
        // under it shaded.
        QCOMPARE(view.minimumGraph()->layer()->name(), QString("highlight"));
        QCOMPARE(view.minimumGraph()->pen().color(), ChartTheme::light().foreground);
        QVERIFY(view.minimumGraph()->brush().style() != Qt::NoBrush);
        // The band: one cell per window, in its binding resource's colour.
        QVERIFY(view.bandRect());
        QVERIFY(view.band());
        QCOMPARE(view.band()->data()->keySize(), kWindows);
        for (int w = 0; w < kWindows; ++w)
            QCOMPARE(view.bandColourAt(std::size_t(w)),
                     ChartTheme::light().palette.colour(int(s.binding()[std::size_t(w)])));
        QCOMPARE(view.bandColourAt(0), ChartTheme::light().palette.colour(3)); // ALU binds w 0

        // The simulated IPC where labels exist (NaN elsewhere, a gap in the line).
        std::vector<float> reference(kWindows, std::numeric_limits<float>::quiet_NaN());
        reference[2] = 0.1f;
        reference[3] = 0.11f;
        view.setReference(reference, "exact configuration, preset:n1-like");
        QVERIFY(view.referenceGraph());
        QCOMPARE(view.referenceGraph()->dataCount(), kWindows);
        QVERIFY(std::abs(view.referenceGraph()->data()->at(2)->value - 0.1) < 1e-6);
        QVERIFY(std::isnan(view.referenceGraph()->data()->at(10)->value));
        QCOMPARE(view.referenceGraph()->name(), QString("Simulated IPC"));
        QVERIFY(view.caption().contains("preset:n1-like"));

        // Hover over window 2: its binding resource and bound, and the simulated IPC.
        layOut(view);
        QCPGraph* minimum = view.minimumGraph();
        const QPointF pos(minimum->keyAxis()->coordToPixel(2.0),
                          minimum->valueAxis()->coordToPixel(s.minimum()[2]));
        hover(view.plot(), pos);
        const QString text = view.lastHoverText();
        QVERIFY2(text.startsWith("window 2"), qPrintable(text));
        QVERIFY2(text.contains("instructions 800\u20131.2 k"), qPrintable(text));
        QVERIFY2(text.contains("binding: ALU issue " + ChartFormat::ipc(s.minimum()[2]) + " IPC"),
                 qPrintable(text));
        QVERIFY2(text.contains("simulated: 0.10 IPC"), qPrintable(text));

        const ChartTable table = view.dataTable();
        QCOMPARE(table.rows.size(), kWindows);
        QCOMPARE(table.header.first(), QString("window"));
        QVERIFY(table.header.contains("rob"));
        QVERIFY(table.header.contains("pipes_upper"));
        QCOMPARE(table.header.mid(table.header.size() - 3),
                 QStringList({"minimum", "binding_resource", "simulated_ipc"}));
        QCOMPARE(table.rows[2].at(table.header.indexOf("binding_resource")), QString("alu_issue"));
        QCOMPARE(table.rows[2].at(table.header.indexOf("first_instruction")), QString("800"));
        QCOMPARE(table.rows[10].last(), QString()); // no simulation there
    }

    void timeseriesShowsRegionsOfAProgram() {
        const std::vector<RegionBoundsSeries> parts = {sampleSeries("prog region 0"),
                                                       sampleSeries("prog region 1")};
        const auto joined = RegionBoundsSeries::concatenate(parts, "prog");
        TimeseriesView view;
        view.setSeries(joined);
        QCOMPARE(view.minimumGraph()->dataCount(), 2 * kWindows);
        const ChartTable table = view.dataTable();
        QCOMPARE(table.rows[kWindows].at(1), QString("prog region 1"));
        QCOMPARE(table.rows[kWindows].at(2), QString("0")); // first instruction of region 1
        QCPAxis* top = view.minimumGraph()->keyAxis()->axisRect()->axis(QCPAxis::atTop);
        QVERIFY(top->visible());
        auto ticker = top->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        QCOMPARE(ticker->ticks().values(), QList<QString>({"r0", "r1"}));
    }

    void timeseriesSummarisesManyWindowsAndShowsEveryWindowZoomedIn() {
        const RegionBoundsSeries s = manyWindows();
        TimeseriesView view;
        view.setSeries(s);
        layOut(view);
        QCPGraph* minimum = view.minimumGraph();
        QCPAxis* x = minimum->keyAxis();
        const int pixels = x->axisRect()->width();
        QVERIFY(pixels > 500 && pixels < kManyWindows / 4);

        // All 16,000 windows: a summary of at most a point per pixel, and the dip is still
        // there as the lower end of the minimum's range.
        QVERIFY(view.summarised());
        QVERIFY(minimum->dataCount() <= pixels);
        for (int r = 0; r < int(s.resourceCount()); ++r)
            QVERIFY(view.resourceGraph(r)->dataCount() <= pixels);
        QVERIFY(view.minimumRangeGraph());
        QVERIFY(view.minimumRangeGraph()->dataCount() <= 3 * pixels);
        QCOMPARE(lowestPlotted(view.minimumRangeGraph()), double(0.02f));
        // The line through the summary is each bucket's IPC as a whole: above the dip.
        QVERIFY(lowestPlotted(minimum) > 0.1);

        // Zoomed in to 100 windows around the dip: every window, exactly, as a step line.
        x->setRange(kDip - 50.5, kDip + 49.5);
        QVERIFY(!view.summarised());
        QCOMPARE(minimum->lineStyle(), QCPGraph::lsStepCenter);
        QVERIFY(minimum->dataCount() >= 100 && minimum->dataCount() <= 100 + 4);
        std::set<int> keys;
        for (auto it = minimum->data()->constBegin(); it != minimum->data()->constEnd(); ++it) {
            const auto w = std::size_t(it->key);
            QCOMPARE(it->key, double(w));
            QCOMPARE(it->value, double(s.minimum()[w]));
            keys.insert(int(w));
        }
        for (int w = kDip - 50; w < kDip + 50; ++w)
            QVERIFY(keys.count(w));
        QCOMPARE(view.resourceGraph(3)->dataCount(), minimum->dataCount());
        QCOMPARE(view.resourceGraph(3)->data()->at(kDip - int(minimum->data()->at(0)->key))->value,
                 double(0.02f));
        QCOMPARE(view.minimumRangeGraph()->dataCount(), 0);
        QCOMPARE(view.bandColourAt(kDip),
                 ChartTheme::light().palette.colour(3)); // ALU binds the dip
        view.plot()->replot();                           // the layout keeps the zoomed data
        QVERIFY(!view.summarised());
        QCOMPARE(minimum->data()->at(kDip - int(minimum->data()->at(0)->key))->value,
                 double(0.02f));

        // Back out: the summary again.
        x->setRange(-0.5, kManyWindows - 0.5);
        QVERIFY(view.summarised());
        QVERIFY(minimum->dataCount() <= pixels);
        QCOMPARE(lowestPlotted(view.minimumRangeGraph()), double(0.02f));
    }

    void timeseriesBandAgreesWithTheCsv() {
        // As on gzip: ROB (0) binds two windows in three and the load queue (1) the third,
        // interleaved, over more windows than pixels. A band painted by each pixel's majority
        // is ROB from end to end; it must show the load queue's third.
        constexpr int n = 6000;
        std::vector<std::vector<float>> bounds(BoundResources::count());
        for (std::size_t r = 0; r < bounds.size(); ++r)
            bounds[r].assign(n, 4.0f + float(r));
        for (int w = 0; w < n; ++w) {
            bounds[0][std::size_t(w)] = w % 3 == 0 ? 0.9f : 0.5f;
            bounds[1][std::size_t(w)] = w % 3 == 0 ? 0.5f : 0.9f;
        }
        TimeseriesView view;
        view.setSeries(RegionBoundsSeries::fromBounds(std::move(bounds), "gzip region 0"));
        layOut(view);
        QVERIFY(view.summarised());

        // What the CSV says binds.
        QTemporaryDir dir;
        const QString csv = dir.filePath("timeseries.csv");
        QVERIFY(ChartExporter::exportView(view, csv));
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList header = QString::fromUtf8(file.readLine()).trimmed().split(',');
        const int column = int(header.indexOf("binding_resource"));
        QVERIFY(column >= 0);
        std::map<QString, int> windows;
        int rows = 0;
        while (!file.atEnd()) {
            ++windows[QString::fromUtf8(file.readLine()).trimmed().split(',').at(column)];
            ++rows;
        }
        QCOMPARE(rows, n);
        QCOMPARE(windows.size(), std::size_t(2));

        // What the band shows, window by window, against it: every resource's share of the
        // band within one cell in 24, and the load queue visible in every column that holds
        // one of its windows.
        std::vector<double> shown(BoundResources::count());
        for (int w = 0; w < n; ++w) {
            const std::vector<double> shares = view.bandSharesAt(std::size_t(w));
            QCOMPARE(shares.size(), shown.size());
            for (std::size_t r = 0; r < shares.size(); ++r)
                shown[r] += shares[r] / n;
            if (w % 3 == 0)
                QVERIFY2(shares[1] > 0, qPrintable(QString("window %1").arg(w)));
        }
        for (std::size_t r = 0; r < shown.size(); ++r) {
            const QString name = QString::fromStdString(BoundResources::blocks()[r]);
            const double csvShare = windows.count(name) ? double(windows[name]) / n : 0.0;
            QVERIFY2(
                std::abs(shown[r] - csvShare) <= 1.0 / 24,
                qPrintable(QString("%1: band %2, CSV %3").arg(name).arg(shown[r]).arg(csvShare)));
        }
        QVERIFY(shown[1] > 0.3);
    }

    void timeseriesDetailFollowsThePlotWidth() {
        TimeseriesView view;
        view.setSeries(manyWindows());
        view.resize(800, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.plot()->replot();
        const int narrow = view.minimumGraph()->dataCount();
        view.resize(1800, 600);
        view.plot()->replot();
        const int wide = view.minimumGraph()->dataCount();
        QVERIFY2(wide > narrow * 3 / 2,
                 qPrintable(QStringLiteral("%1 -> %2").arg(narrow).arg(wide)));
        QVERIFY(wide <= view.minimumGraph()->keyAxis()->axisRect()->width());
    }

    void timeseriesKeepsTheZoomForNewDataOfTheSameProgram() {
        TimeseriesView view;
        view.setSeries(manyWindows());
        layOut(view);
        QCPAxis* x = view.minimumGraph()->keyAxis();
        x->setRange(1000, 1200);
        // A slider step: same windows, other bounds; the zoom stays, every window plotted.
        const RegionBoundsSeries other = manyWindows(2.0f);
        view.setSeries(other);
        x = view.minimumGraph()->keyAxis();
        QCOMPARE(x->range().lower, 1000.0);
        QVERIFY(!view.summarised());
        QCOMPARE(view.minimumGraph()->data()->at(5)->value,
                 double(other.minimum()[std::size_t(view.minimumGraph()->data()->at(5)->key)]));
        // Another program, even of as many windows: the whole of it.
        view.setSeries(manyWindows(1.0f, "other"));
        QCOMPARE(view.minimumGraph()->keyAxis()->range().lower, -0.5);
        x = view.minimumGraph()->keyAxis();
        x->setRange(1000, 1200);
        view.setSeries(sampleSeries());
        QCOMPARE(view.minimumGraph()->keyAxis()->range().upper, kWindows - 0.5);
    }

    void timeseriesProjectorDrawsThickLines() {
        TimeseriesView view;
        view.setTheme(ChartTheme::projector());
        view.setSeries(manyWindows());
        layOut(view);
        const ChartTheme projector = ChartTheme::projector();
        QVERIFY(view.summarised());
        QCOMPARE(view.minimumGraph()->pen().widthF(), projector.highlightWidth);
        QCOMPARE(view.resourceGraph(0)->pen().widthF(), projector.lineWidth);
        QCOMPARE(view.minimumGraph()->pen().style(), Qt::SolidLine);
        for (int r = 0; r < int(BoundResources::count()); ++r)
            QCOMPARE(view.resourceGraph(r)->pen().style(), Qt::SolidLine); // dense: solid
        // Zoomed in to windows of ten pixels, the palette's dashes come back.
        QCPAxis* x = view.minimumGraph()->keyAxis();
        x->setRange(100, 100 + x->axisRect()->width() / 10.0);
        QCOMPARE(view.minimumGraph()->pen().widthF(), projector.highlightWidth);
        QCOMPARE(view.resourceGraph(9)->pen().style(), projector.palette.lineStyle(9));
    }

    void shapleyStacksEveryProgramSortedByChange() {
        const AttributionReport report = sampleReport();
        ShapleyView view;
        view.setConfigNames("little", "big");
        view.setReport(report);
        // Sorted by total change, largest first: gamma +0.75, alpha +0.25, beta −0.40.
        QCOMPARE(view.categories(), QStringList({"gamma", "alpha", "beta"}));
        QVERIFY(view.playerBars(0));
        QCOMPARE(view.playerBars(0)->dataCount(), 3);
        QCOMPARE(view.playerBars(0)->data()->at(0)->value, 0.50);  // gamma
        QCOMPARE(view.playerBars(0)->data()->at(2)->value, -0.40); // beta: stacks downwards
        QVERIFY(!view.playerBars(9));                              // zero everywhere: not drawn
        QVERIFY(!view.playerBars(3));
        QCOMPARE(view.playerBars(0)->name(), QString("window"));
        QCOMPARE(view.playerBars(2)->name(), QString("ldst queues"));
        // Players stack in player order: 0, 1, 2, 8.
        QCOMPARE(view.playerBars(1)->barBelow(), view.playerBars(0));
        QCOMPARE(view.playerBars(2)->barBelow(), view.playerBars(1));
        QCOMPARE(view.playerBars(8)->barBelow(), view.playerBars(2));
        QCOMPARE(view.totalGraph()->dataCount(), 3);
        QVERIFY(std::abs(view.totalGraph()->data()->at(0)->value - 0.75) < 1e-12);
        QVERIFY(std::abs(view.totalGraph()->data()->at(2)->value + 0.40) < 1e-12);
        QCOMPARE(view.playerBars(0)->valueAxis()->label(),
                 QString("CPI change, little \u2192 big"));

        // Hover over gamma's "window" segment (0 .. 0.5).
        layOut(view);
        QCPBars* window = view.playerBars(0);
        const QPointF pos(window->keyAxis()->coordToPixel(0),
                          window->valueAxis()->coordToPixel(0.25));
        hover(view.plot(), pos);
        QVERIFY2(
            view.lastHoverText().contains("gamma \u00b7 window: +0.500 CPI (66.7 % of the change)"),
            qPrintable(view.lastHoverText()));
        // Beta's negative "window" segment (−0.40 .. 0) below zero.
        const QPointF below(window->keyAxis()->coordToPixel(2),
                            window->valueAxis()->coordToPixel(-0.2));
        hover(view.plot(), below);
        QVERIFY2(view.lastHoverText().contains("beta \u00b7 window: \u22120.400 CPI"),
                 qPrintable(view.lastHoverText()));

        // Clicking a program's column asks for its regions.
        QSignalSpy spy(&view, &ShapleyView::programActivated);
        QTest::mouseClick(view.plot(), Qt::LeftButton, {}, pos.toPoint());
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toString(), QString("gamma"));

        const ChartTable table = view.dataTable();
        QCOMPARE(table.header, QStringList({"program", "region", "player", "cpi_change",
                                            "baseline_cpi", "target_cpi"}));
        QCOMPARE(table.rows.size(), int(3 * report.players.size()));
        QCOMPARE(table.rows[0].mid(0, 4), QStringList({"gamma", "all", "window", "0.5"}));
    }

    void shapleyPerRegionOfOneProgram() {
        ShapleyView view;
        view.setReport(sampleReport());
        view.setMode(ShapleyView::Mode::Regions);
        view.setProgram("beta");
        QCOMPARE(view.program(), QString("beta"));
        QCOMPARE(view.categories(), QStringList({"0", "1"}));
        QCOMPARE(view.playerBars(0)->dataCount(), 2);
        QVERIFY(std::abs(view.playerBars(0)->data()->at(1)->value + 0.60) < 1e-12); // −0.4 × 1.5
        QVERIFY(std::abs(view.playerBars(1)->data()->at(0)->value - 0.10) < 1e-12);
        const ChartTable table = view.dataTable();
        QCOMPARE(table.rows[0].mid(0, 3), QStringList({"beta", "0", "window"}));
        view.setProgram("unknown"); // falls back to the first program
        QCOMPARE(view.program(), QString("alpha"));
        view.clear();
        QVERIFY(!view.hasData());
        QVERIFY(view.categories().isEmpty());
    }

    void shapleyOneRegionBesideItsProgram() {
        ShapleyView view;
        view.setConfigNames("little", "big");
        view.setReport(sampleReport());
        view.setMode(ShapleyView::Mode::Region);
        view.setProgram("beta");
        view.setRegion("1");
        QVERIFY(view.hasData());
        QVERIFY(view.shownRegion());
        QCOMPARE(view.shownRegion()->region, std::string("1"));
        QCOMPARE(view.categories(), QStringList({"beta region 1", "beta, whole program"}));
        // Beta's region 1 is 1.5 × the program: window −0.60, player 1 +0.30, player 8 −0.30;
        // the rows go largest first (ties keep player order).
        QCOMPARE(view.playerRows(), QVector<int>({0, 1, 8}));
        // Each player's bars: its segment of the region's stack (row 0), of the program's stack
        // (row 1), and its own row (3 + its rank), on horizontal bars.
        QCPBars* window = view.playerBars(0);
        QVERIFY(window);
        QCOMPARE(window->keyAxis()->orientation(), Qt::Vertical);
        QCOMPARE(window->dataCount(), 3);
        QVERIFY(std::abs(window->data()->at(0)->value + 0.60) < 1e-12);
        QVERIFY(std::abs(window->data()->at(1)->value + 0.40) < 1e-12);
        QCOMPARE(window->data()->at(2)->key, 3.0);
        QCOMPARE(view.playerBars(8)->data()->at(2)->key, 5.0);
        QVERIFY(!view.playerBars(2)); // zero in beta
        QCOMPARE(view.totalGraph()->dataCount(), 2);
        QVERIFY(std::abs(view.totalGraph()->data()->at(0)->value + 0.60) < 1e-12);
        QVERIFY(std::abs(view.totalGraph()->data()->at(1)->value + 0.40) < 1e-12);
        QCOMPARE(window->valueAxis()->label(), QString("CPI change, little \u2192 big"));

        // The values are written beside the bars: the two net changes, then one per player.
        QStringList labels;
        QList<QCPItemText*> items;
        for (int i = 0; i < view.plot()->itemCount(); ++i)
            if (auto* text = qobject_cast<QCPItemText*>(view.plot()->item(i)))
                if (text->objectName() == "shapley_value_label") {
                    labels << text->text();
                    items << text;
                }
        QCOMPARE(labels, QStringList({"net \u22120.600", "net \u22120.400", "\u22120.600", "+0.300",
                                      "\u22120.300"}));
        // ...and fit inside the plot once it is laid out.
        layOut(view);
        const QRect rect = window->keyAxis()->axisRect()->rect();
        for (const QCPItemText* text : std::as_const(items)) {
            const double x = text->position->pixelPosition().x();
            const double width = QFontMetricsF(text->font()).horizontalAdvance(text->text());
            if (text->positionAlignment() & Qt::AlignLeft)
                QVERIFY2(x + width <= rect.right() + 1, qPrintable(text->text()));
            else
                QVERIFY2(x - width >= rect.left() - 1, qPrintable(text->text()));
        }

        // Hover over the window row: the region's value and the program's beside it.
        const QPointF row(window->valueAxis()->coordToPixel(-0.3),
                          window->keyAxis()->coordToPixel(3));
        hover(view.plot(), row);
        QVERIFY2(view.lastHoverText().contains("beta region 1 \u00b7 window: \u22120.600 CPI"),
                 qPrintable(view.lastHoverText()));
        QVERIFY2(view.lastHoverText().contains("beta, whole program: \u22120.400 CPI"),
                 qPrintable(view.lastHoverText()));
        // Over the region's stack: its segment, and the region's own CPIs.
        hover(view.plot(),
              QPointF(window->valueAxis()->coordToPixel(-0.3), window->keyAxis()->coordToPixel(0)));
        QVERIFY2(view.lastHoverText().contains("beta region 1 \u00b7 window"),
                 qPrintable(view.lastHoverText()));
        QVERIFY2(view.lastHoverText().contains("CPI 2.000 \u2192 1.400"),
                 qPrintable(view.lastHoverText()));

        // The CSV: the region's rows, then the whole program's.
        const std::size_t players = view.report()->players.size();
        const ChartTable table = view.dataTable();
        QCOMPARE(table.rows.size(), int(2 * players));
        QCOMPARE(table.rows[0].mid(0, 4), QStringList({"beta", "1", "window", "-0.6"}));
        QCOMPARE(table.rows[int(players)].mid(0, 4),
                 QStringList({"beta", "all", "window", "-0.4"}));

        // A region the report does not have: nothing to show.
        view.setRegion("7");
        QVERIFY(!view.hasData());
        QVERIFY(view.dataTable().rows.isEmpty());
    }

    void phasesColourRegionsAndEmitTheClickedOne() {
        PhasesView view;
        view.setTimeline(sampleTimeline());
        QVERIFY(view.hasData());
        QCOMPARE(view.phaseBars(0)->dataCount(), 2); // regions 0 and 2
        QCOMPARE(view.phaseBars(1)->dataCount(), 1);
        QCOMPARE(view.phaseBars(2)->dataCount(), 1);
        QCOMPARE(view.phaseBars(-1)->dataCount(), 1); // region 4 has no phase
        QCOMPARE(view.phaseBars(2)->data()->at(0)->key, 3.0);
        QCOMPARE(view.phaseBars(2)->data()->at(0)->value, 1.75);
        QVERIFY(view.phaseBars(0)->brush().color() != view.phaseBars(1)->brush().color());
        QVERIFY(view.programCpiGraph());
        QCOMPARE(view.programCpiGraph()->data()->at(0)->value, 1.5); // equal weights
        QCOMPARE(view.selectedRegion(), -1);
        QVERIFY(!view.selectionMark());

        layOut(view);
        QSignalSpy spy(&view, &PhasesView::regionActivated);
        QCPAxis* x = view.phaseBars(2)->keyAxis();
        QCPAxis* y = view.phaseBars(2)->valueAxis();
        const QPoint bar3(int(x->coordToPixel(3)), int(y->coordToPixel(1.0)));
        QCOMPARE(view.regionAt(bar3), 3);
        hover(view.plot(), bar3);
        QVERIFY2(view.lastHoverText().contains("prog region 3 \u00b7 phase 2"),
                 qPrintable(view.lastHoverText()));
        QVERIFY2(view.lastHoverText().contains("predicted CPI 1.750"),
                 qPrintable(view.lastHoverText()));
        QTest::mouseClick(view.plot(), Qt::LeftButton, {}, bar3);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toInt(), 3);
        QCOMPARE(view.selectedRegion(), 3);
        QVERIFY(view.selectionMark());
        // A click beside the bars does nothing; setSelectedRegion(-1) is the back action.
        QTest::mouseClick(view.plot(), Qt::LeftButton, {}, QPoint(3, 3));
        QCOMPARE(spy.count(), 1);
        view.setSelectedRegion(-1);
        QVERIFY(!view.selectionMark());
        QCOMPARE(spy.count(), 1);

        const ChartTable table = view.dataTable();
        QCOMPARE(table.header.last(), QString("predicted_cpi"));
        QCOMPARE(table.rows.size(), 5);
        QCOMPARE(table.rows[4].at(5), QString()); // no phase
        QCOMPARE(table.rows[3].at(3), QString("3000000"));
    }

    void phasesWithoutModelStillShowRegions() {
        ProgramTimeline t = sampleTimeline();
        for (auto& e : t.entries)
            e.cpi = std::numeric_limits<double>::quiet_NaN();
        PhasesView view;
        view.setTimeline(t);
        QVERIFY(!view.programCpiGraph());
        QCOMPARE(view.phaseBars(0)->data()->at(0)->value, 1.0); // equal bars
        QVERIFY(view.phaseBars(0)->valueAxis()->label().contains("no CPI model"));
    }

    void emptyViewsSayWhy() {
        CdfView cdf;
        TimeseriesView timeseries;
        ShapleyView shapley;
        PhasesView phases;
        for (ChartView* view :
             std::initializer_list<ChartView*>{&cdf, &timeseries, &shapley, &phases}) {
            QVERIFY(!view->hasData());
            QVERIFY(!view->dataTable().header.isEmpty());
            QVERIFY(view->dataTable().rows.isEmpty());
            bool message = false;
            for (int i = 0; i < view->plot()->itemCount(); ++i)
                message = message || view->plot()->item(i)->objectName() == "empty_message";
            QVERIFY2(message, qPrintable(view->viewName()));
            QVERIFY(view->hoverTextAt(QPointF(100, 100)).isEmpty());
        }
    }
};

QTEST_MAIN(ChartViewsTest)
#include "ChartViewsTest.moc"
