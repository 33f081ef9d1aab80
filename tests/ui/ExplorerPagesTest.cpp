// The chart pages wired into the explorer window: opening a database fills the CDF and
// timeseries pages, dragging a slider changes what they plot, clicking a region in the phases
// page drills every page into it (the Shapley page then attributes that region) and Back
// returns, phases are clustered off the UI thread, the headless export renders all five views,
// and "export all for review" writes one file per view and format.
#include "../support/ExplorerTestSession.h"
#include "../support/TinyExplorerDatabase.h"
#include "CdfPage.h"
#include "CdfView.h"
#include "ChartFormat.h"
#include "ChartTable.h"
#include "ComparisonPage.h"
#include "ComparisonView.h"
#include "ExplorerBounds.h"
#include "HeadlessExport.h"
#include "MainWindow.h"
#include "OverviewView.h"
#include "PhasesPage.h"
#include "PhasesView.h"
#include "SensitivityPage.h"
#include "SensitivityView.h"
#include "Session.h"
#include "ShapleyPage.h"
#include "ShapleyPanel.h"
#include "ShapleyView.h"
#include "SweepPage.h"
#include "SweepView.h"
#include "TimeseriesPage.h"
#include "TimeseriesView.h"
#include "ValidationPage.h"
#include "ValidationView.h"
#include "ViewCatalog.h"
#include "ViewPage.h"
#include "ViewTabs.h"
#include "explore/BoundResources.h"
#include "explore/ConfigChecker.h"
#include "explore/ExplorerModel.h"
#include "explore/ParameterSweep.h"
#include "explore/PhaseSummary.h"
#include "params/PresetLibrary.h"
#include "pipeline/DatabaseBuilder.h"
#include "pipeline/DatabasePhases.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDeadlineTimer>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSlider>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextStream>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <map>
#include <qcustomplot.h>

using namespace concorde;
using concorde::ui::CdfPage;
using concorde::ui::ChartFormat;
using concorde::ui::ChartPage;
using concorde::ui::ChartTable;
using concorde::ui::ComparisonPage;
using concorde::ui::ComparisonView;
using concorde::ui::ExplorerBounds;
using concorde::ui::HeadlessExport;
using concorde::ui::MainWindow;
using concorde::ui::OverviewView;
using concorde::ui::PhasesPage;
using concorde::ui::SensitivityPage;
using concorde::ui::SensitivityView;
using concorde::ui::Session;
using concorde::ui::ShapleyPage;
using concorde::ui::ShapleyView;
using concorde::ui::SweepPage;
using concorde::ui::SweepView;
using concorde::ui::TimeseriesPage;
using concorde::ui::ValidationPage;
using concorde::ui::ValidationView;
using concorde::ui::ViewCatalog;
using concorde::ui::ViewPage;

namespace {

QString titleOf(const ChartPage& page) {
    return page.findChild<QLabel*>(QStringLiteral("page_title"))->text();
}

/// Phase per region index of `program` in the database at `path`, clustered directly.
std::map<std::uint32_t, std::int64_t> clusteredPhases(const QString& path,
                                                      const std::string& program) {
    FeatureDatabase database = FeatureDatabase::openReadOnly(path.toStdString());
    const auto result = DatabasePhases::compute(database, program, DatabasePhases::Options{});
    std::map<std::uint32_t, std::int64_t> phases;
    for (std::size_t i = 0; i < result.regionIndices.size(); ++i)
        phases[result.regionIndices[i]] = std::int64_t(result.clusters.phaseOf[i]);
    return phases;
}

/// Phase per region index as the phases page shows it (-1: none).
std::map<std::uint32_t, std::int64_t> shownPhases(const ProgramTimeline& timeline) {
    std::map<std::uint32_t, std::int64_t> phases;
    for (const auto& entry : timeline.entries)
        phases[entry.regionIndex] = entry.phase.value_or(-1);
    return phases;
}

QByteArray head(const QString& path, int n) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.read(n);
}

} // namespace

class ExplorerPagesTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString database_;
    PresetLibrary presets_ = PresetLibrary::loadDefault();

    /// Another database: "alpha" alone, with four regions instead of three.
    QString buildOtherDatabase() {
        const std::filesystem::path folder = dir_.filePath(QStringLiteral("other")).toStdString();
        std::filesystem::create_directories(folder);
        const auto alpha = folder / "alpha.ctrace";
        testing::writeTinyProgram(alpha, {{"stride-load", {{"ws_kb", "64"}}, 5},
                                          {"branch-random", {{"warmup", "64"}}, 800},
                                          {"rob-knee", {{"fillers", "32"}}, 60},
                                          {"chain-int-alu", {}, 70}});
        DatabaseBuilder::Options options;
        options.traces = {alpha};
        options.grid = testing::tinyExplorerGrid();
        options.windowSize = 100;
        options.jobs = 2;
        const auto path = folder / "other.sqlite";
        FeatureDatabase db = FeatureDatabase::openForWriting(path);
        DatabaseBuilder::build(db, options);
        db.writeModel(testing::tinyRandomModel(db));
        db.close();
        return QString::fromStdString(path.string());
    }

    /// Shows the window, opens the tiny database in it and waits for its first prediction and
    /// bounds.
    bool showAndOpen(Session& session, MainWindow& window) {
        window.show();
        if (!QTest::qWaitForWindowExposed(&window))
            return false;
        window.openDatabase(database_);
        return QTest::qWaitFor(
            [&] { return session.prediction() != nullptr && window.bounds().bounds() != nullptr; },
            30000);
    }
    template <typename T>
    static T* page(const MainWindow& window) {
        for (ViewPage* p : window.views().pages())
            if (auto* t = qobject_cast<T*>(p))
                return t;
        return nullptr;
    }

private slots:
    // The overview's value labels ("1.215  (-61.1 %)") fit beside their bars however narrow
    // the plot: at 1024x768 the longest ones were cut at the plot's right edge.
    void overviewLabelsFitBesideTheirBars() {
        std::unique_ptr<Session> session(testing::newTinySession());
        MainWindow window(*session, presets_);
        window.resize(1400, 900);
        QVERIFY(showAndOpen(*session, window));
        auto* overview = window.findChild<OverviewView*>(QStringLiteral("overview_view"));
        QVERIFY(overview);
        QTRY_VERIFY(overview->hasData());
        for (const int width : {1400, 900, 700}) {
            window.resize(width, 700);
            QTest::qWait(50);
            overview->plot()->replot(QCustomPlot::rpImmediateRefresh);
            const QRectF area = overview->plot()->axisRect()->rect();
            int labels = 0;
            for (int i = 0; i < overview->plot()->itemCount(); ++i) {
                auto* text = qobject_cast<QCPItemText*>(overview->plot()->item(i));
                if (!text)
                    continue;
                ++labels;
                const QRectF box(text->topLeft->pixelPosition(),
                                 text->bottomRight->pixelPosition());
                QVERIFY2(box.right() <= area.right() + 1,
                         qPrintable(QStringLiteral("at %1 px: '%2' ends at %3, the plot at %4")
                                        .arg(width)
                                        .arg(text->text())
                                        .arg(box.right())
                                        .arg(area.right())));
            }
            QCOMPARE(labels, overview->rows().size());
        }
    }

    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        database_ = dir_.filePath(QStringLiteral("tiny.sqlite"));
        testing::buildTinyExplorerDatabase(database_.toStdString());
    }

    void openingFillsThePagesAndDraggingChangesThem() {
        std::unique_ptr<Session> session(testing::newTinySession());
        MainWindow window(*session, presets_);
        QVERIFY(showAndOpen(*session, window));
        auto* cdf = page<CdfPage>(window);
        auto* series = page<TimeseriesPage>(window);
        QVERIFY(cdf && series);
        // Background tabs wait until shown; each fills when its tab is selected.
        auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("view_tabs"));
        QVERIFY(tabs);
        tabs->setCurrentWidget(series);
        QTRY_VERIFY(series->view()->hasData());
        const QString seriesBefore = series->view()->dataTable().toCsv();
        tabs->setCurrentWidget(cdf);
        QTRY_VERIFY(cdf->view()->hasData());
        QVERIFY(cdf->view()->highlightedResource() >= 0);
        const QString cdfBefore = cdf->view()->dataTable().toCsv();

        auto* slider = window.findChild<QSlider*>(QStringLiteral("slider_rob"));
        QVERIFY(slider);
        QTest::mousePress(slider, Qt::LeftButton, {}, testing::sliderHandleCentre(slider));
        QTest::mouseMove(slider, QPoint(slider->width() / 2, slider->height() / 2));
        QTest::mouseMove(slider, QPoint(slider->width() - 3, slider->height() / 2));
        QTRY_COMPARE(session->config().rob(), 128);
        // While the button is still down the visible chart follows; the hidden one catches up
        // when its tab is shown.
        QTRY_VERIFY(cdf->view()->dataTable().toCsv() != cdfBefore);
        QCOMPARE(series->view()->dataTable().toCsv(), seriesBefore);
        tabs->setCurrentWidget(series);
        QTRY_VERIFY(series->view()->dataTable().toCsv() != seriesBefore);
        QTest::mouseRelease(slider, Qt::LeftButton, {},
                            QPoint(slider->width() - 3, slider->height() / 2));
    }

    void theSeriesIsComputedOffTheUiThreadAndRequestsCoalesce() {
        std::unique_ptr<Session> session(testing::newTinySession());
        MainWindow window(*session, presets_);
        QVERIFY(showAndOpen(*session, window));
        auto* cdf = page<CdfPage>(window);
        window.findChild<QTabWidget*>(QStringLiteral("view_tabs"))->setCurrentWidget(cdf);
        ExplorerBounds& bounds = window.bounds();
        QTRY_VERIFY(cdf->view()->hasData() && bounds.isSeriesCurrent());
        const auto* before = cdf->view()->series();
        QCOMPARE(before, bounds.series().get());
        int ready = 0;
        connect(&bounds, &ExplorerBounds::seriesReady, this, [&] { ++ready; });

        // Five steps without the event loop: none is computed on this thread; the first starts a
        // computation and the other four coalesce into one more, from the latest state.
        const auto& robs = session->grid().values(ParamId::Rob);
        QVERIFY(robs.size() >= 2);
        const double start = session->config().rob();
        for (int i = 1; i <= 5; ++i)
            session->setParameter(ParamId::Rob, robs[std::size_t(i) % robs.size()] == start
                                                    ? robs[std::size_t(i + 1) % robs.size()]
                                                    : robs[std::size_t(i) % robs.size()]);
        QCOMPARE(cdf->view()->series(), before);
        QVERIFY(!bounds.isSeriesCurrent());
        QVERIFY(bounds.isComputingSeries());
        QTRY_VERIFY(bounds.isSeriesCurrent() && !bounds.isComputingSeries());
        QVERIFY2(ready >= 1 && ready <= 2, qPrintable(QString::number(ready)));
        QCOMPARE(cdf->view()->series(), bounds.series().get());
        // What is shown is the latest configuration's series.
        const auto expected = ExplorerBounds::computeSeries(bounds.currentSelection());
        QVERIFY(expected);
        QCOMPARE(bounds.seriesSelection().config, session->explorer()->snap(session->config()));
        for (std::size_t r = 0; r < expected->resourceCount(); ++r)
            QVERIFY(std::ranges::equal(cdf->view()->series()->bound(r), expected->bound(r)));

        // An export does not wait for the event loop: ensureCurrent() computes it here.
        session->setParameter(ParamId::Rob,
                              robs.front() == session->config().rob() ? robs.back() : robs.front());
        QVERIFY(!bounds.isSeriesCurrent());
        cdf->ensureCurrent();
        QVERIFY(bounds.isSeriesCurrent());
        QCOMPARE(cdf->view()->series(), bounds.series().get());

        // A result computed on bounds since replaced is dropped.
        session->setParameter(ParamId::Rob,
                              robs.front() == session->config().rob() ? robs.back() : robs.front());
        bounds.requestSeries();
        QVERIFY(bounds.isComputingSeries());
        QVERIFY(bounds.loadNow()); // new bounds (the same file) while the old ones compute
        QTRY_VERIFY(!bounds.isComputingSeries());
        QVERIFY(!bounds.series() || bounds.seriesSelection().bounds == bounds.bounds());
        QTRY_VERIFY(bounds.isSeriesCurrent() && bounds.series() != nullptr);
        QCOMPARE(bounds.seriesSelection().bounds, bounds.bounds());
    }

    // The Sensitivity tab as a user meets it: a tornado of every parameter with more than one
    // grid value, largest change first, equal to SensitivityRanking at the sliders; it follows a
    // slider, switches to the geometric mean with its check box, and a click on a row names that
    // parameter.
    void sensitivityTabFollowsTheSlidersAndThePrograms() {
        std::unique_ptr<Session> session(testing::newTinySession());
        MainWindow window(*session, presets_);
        window.resize(1400, 900);
        QVERIFY(showAndOpen(*session, window));
        auto* sensitivity = page<SensitivityPage>(window);
        QVERIFY(sensitivity);
        window.findChild<QTabWidget*>(QStringLiteral("view_tabs"))->setCurrentWidget(sensitivity);
        SensitivityView* view = sensitivity->view();
        QTRY_VERIFY(view->hasData());
        const auto expected = SensitivityRanking::rank(*session->explorer(), session->config(),
                                                       session->program().toStdString());
        QCOMPARE(view->ranking().size(), expected.size());
        for (std::size_t k = 0; k < expected.size(); ++k) {
            QCOMPARE(view->ranking()[k].parameter, expected[k].parameter);
            QCOMPARE(view->ranking()[k].upperCpi, expected[k].upperCpi);
        }
        // The CSV: one row per parameter and direction, each equal to the ranking's step.
        const ChartTable table = view->dataTable();
        qsizetype steps = 0;
        for (const ParameterSensitivity& s : expected)
            steps += (s.lowerValue ? 1 : 0) + (s.upperValue ? 1 : 0);
        QCOMPARE(table.rows.size(), steps);
        QCOMPARE(table.header.at(1), QStringLiteral("direction"));
        for (const QStringList& row : table.rows) {
            const auto s = std::find_if(expected.begin(), expected.end(), [&](const auto& e) {
                return QString::fromStdString(ParameterSpace::spec(e.parameter).key) == row[0];
            });
            QVERIFY2(s != expected.end(), qPrintable(row[0]));
            const double cpi = row[1] == "up" ? s->upperCpi : s->lowerCpi;
            QVERIFY2(std::abs(row[5].toDouble() - cpi) <= 1e-6 * cpi, qPrintable(row.join(',')));
        }
        QVERIFY(view->title().contains(session->program()));
        // Only steps of half a percent or more carry a value label (small ones piled up).
        qsizetype labelled = 0, expectedLabels = 0;
        for (const ParameterSensitivity& s : view->ranking())
            for (const bool up : {false, true})
                if ((up ? s.upperValue : s.lowerValue) &&
                    std::abs((up ? s.upperChange() : s.lowerChange()) * 100.0) >= 0.5)
                    ++expectedLabels;
        for (int i = 0; i < view->plot()->itemCount(); ++i)
            labelled += qobject_cast<QCPItemText*>(view->plot()->item(i)) != nullptr;
        QCOMPARE(labelled, expectedLabels);

        // A slider moves: the ranking is taken at the new value.
        const auto robRow = [&] {
            for (const ParameterSensitivity& s : view->ranking())
                if (s.parameter == ParamId::Rob)
                    return s;
            return ParameterSensitivity{};
        };
        const std::vector<double>& robs = session->explorer()->grid().values(ParamId::Rob);
        const double other = robRow().value == robs.front() ? robs.back() : robs.front();
        session->setParameter(ParamId::Rob, other);
        QTRY_COMPARE(robRow().value, other);

        // All programs: the geometric mean, said in the title.
        sensitivity->allProgramsBox()->setChecked(true);
        QTRY_VERIFY(view->title().contains(QStringLiteral("geometric mean")));
        const auto mean = SensitivityRanking::rank(*session->explorer(), session->config());
        QCOMPARE(view->ranking().front().parameter, mean.front().parameter);

        // A click on the top row names its parameter.
        QSignalSpy activated(view, &SensitivityView::parameterActivated);
        QCustomPlot* plot = view->plot();
        QTRY_VERIFY(plot->isVisible());
        plot->replot();
        QCPAxis* rows = plot->axisRect()->axis(QCPAxis::atLeft);
        const int n = int(view->ranking().size());
        const QPoint top(plot->axisRect()->center().x(), int(rows->coordToPixel(n)));
        QTest::mouseClick(plot, Qt::LeftButton, {}, top);
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.first().at(0).toInt(), int(view->ranking().front().parameter));

        // ... and opens that parameter's sweep.
        auto* sweep = page<SweepPage>(window);
        QCOMPARE(session->sweptParameter(), view->ranking().front().parameter);
        QCOMPARE(session->view(), sweep->objectName());
        QTRY_VERIFY(sweep->isVisible() && sweep->view()->hasData());
        QCOMPARE(sweep->view()->sweep().parameter, view->ranking().front().parameter);
    }

    // The A/B tab: the baseline (A) against the target (B) for every program and their
    // geometric mean on top, named by the presets they equal; a slider makes B "the sliders";
    // the Shapley button opens the attribution of exactly this change.
    void comparisonTabNamesBothSidesAndLinksShapley() {
        std::unique_ptr<Session> session(testing::newTinySession());
        MainWindow window(*session, presets_);
        QVERIFY(showAndOpen(*session, window));
        const Preset* big = presets_.find("big");
        const Preset* little = presets_.find("little");
        QVERIFY(big && little);
        session->applyPresetAsBaseline(*big);
        session->applyPreset(*little);
        auto* comparison = page<ComparisonPage>(window);
        window.views().showView(QStringLiteral("comparison"));
        ComparisonView* view = comparison->view();
        QTRY_VERIFY(view->hasData() && session->prediction() &&
                    session->prediction()->target == little->config &&
                    session->prediction()->baseline == big->config);
        QTRY_VERIFY(view->title().contains(QStringLiteral("B = little against A = big")));
        const ExplorerPrediction& p = *session->prediction();
        QCOMPARE(view->rows().size(), qsizetype(p.programs.size() + 1));
        QVERIFY(view->rows().front().program.isEmpty());
        const auto near = [](double a, double b) { return std::abs(a - b) <= 1e-9 * std::abs(b); };
        QVERIFY(near(view->rows().front().cpiA, ParameterSweep::geometricMean(p.baselineCpi)));
        QVERIFY(near(view->rows().front().cpiB, ParameterSweep::geometricMean(p.targetCpi)));
        for (int i = 2; i < view->rows().size(); ++i)
            QVERIFY(view->rows()[i - 1].speedup() >= view->rows()[i].speedup());
        QCOMPARE(view->dataTable().rows.size(), view->rows().size());

        session->setParameter(ParamId::Rob, session->config().value(ParamId::Rob) == 64 ? 128 : 64);
        QTRY_VERIFY(view->title().contains(QStringLiteral("B = the sliders")));
        QTest::mouseClick(comparison->shapleyButton(), Qt::LeftButton);
        QCOMPARE(session->view(), QStringLiteral("view_shapley"));
    }

    // The A/B tab on the shipped database (47 programs) in a 1280x800 window: the program axis
    // kept only every other name (a reviewer could not tell which bar was which); the chart now
    // grows until every program is named, and the page scrolls instead of the window growing.
    void comparisonTabNamesEveryProgramAt1280x800() {
        const QString shipped = QString(CONCORDE_SOURCE_DIR) + "/data/default.sqlite";
        if (!QFile::exists(shipped))
            QSKIP("data/default.sqlite is not in the checkout");
        const QString copy = dir_.filePath(QStringLiteral("shipped.sqlite"));
        QVERIFY(QFile::copy(shipped, copy));
        Session session;
        MainWindow window(session, presets_);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.openDatabase(copy);
        // The first prediction on the shipped database: seconds in a release build, but under
        // ASan on a busy 2-core machine it once took over 60 s. The wait ends when it arrives.
        QVERIFY(QTest::qWaitFor([&] { return session.prediction() != nullptr; }, 300000));
        QVERIFY(window.views().showView(QStringLiteral("comparison")));
        ComparisonView* view = page<ComparisonPage>(window)->view();
        QTRY_VERIFY(view->hasData());
        const int rows = int(view->rows().size());
        QVERIFY2(rows >= 41, qPrintable(QString::number(rows)));
        for (int pass = 0; pass < 3; ++pass) { // the chart grows once it knows its rows
            QTest::qWait(50);
            QApplication::processEvents();
            view->plot()->replot();
        }
        QVERIFY2(window.height() <= 800, qPrintable(QString::number(window.height())));
        const QCPAxis* names = view->plot()->axisRect()->axis(QCPAxis::atLeft);
        const QVector<QString> labels = names->tickVectorLabels();
        QVERIFY2(labels.size() == rows,
                 qPrintable(QStringLiteral("%1 of %2 rows named, chart %3 px high")
                                .arg(labels.size())
                                .arg(rows)
                                .arg(view->height())));
        for (const ComparisonView::Row& row : view->rows())
            if (!row.program.isEmpty())
                QVERIFY2(labels.contains(row.program), qPrintable(row.program));
        // The shipped ensemble's band comes with every program's CPI at A and at B, and the
        // hover text shows it (issue 17, item 6).
        int banded = 0;
        for (const ComparisonView::Row& row : view->rows()) {
            if (row.program.isEmpty())
                continue;
            QVERIFY(row.lowA <= row.cpiA && row.cpiA <= row.highA);
            QVERIFY(row.lowB <= row.cpiB && row.cpiB <= row.highB);
            banded += row.lowB < row.cpiB && row.cpiB < row.highB ? 1 : 0;
        }
        QCOMPARE(banded, rows - 1);
        const ChartTable table = view->dataTable();
        QCOMPARE(table.header.size(), 8);
        QVERIFY(table.rows.at(0).at(2).isEmpty());  // the geometric mean has no band
        QVERIFY(!table.rows.at(1).at(2).isEmpty()); // a program has one
    }

    // The Validation tab: a database without labels says how to add some; with labels, every
    // on-grid label is a point (held-out programs apart) and the title gives the errors.
    void validationTabShowsEveryLabel() {
        {
            std::unique_ptr<Session> session(testing::newTinySession());
            MainWindow window(*session, presets_);
            QVERIFY(showAndOpen(*session, window));
            auto* validation = page<ValidationPage>(window);
            window.views().showView(QStringLiteral("validation"));
            QTRY_VERIFY(validation->isVisible());
            QVERIFY(!validation->view()->hasData());
        }
        const QString labelled = dir_.filePath(QStringLiteral("labelled.sqlite"));
        QFile::remove(labelled);
        QVERIFY(QFile::copy(database_, labelled));
        const ConfigChecker checker(ParameterGrid(testing::tinyExplorerGrid()), {});
        const CoreConfig on = checker.snap(CoreConfig{});
        CoreConfig off = on;
        off.set(ParamId::Rob, 80);
        const auto written = testing::addTinyLabels(labelled.toStdString(), on, off);

        std::unique_ptr<Session> session(testing::newTinySession());
        MainWindow window(*session, presets_);
        QVERIFY(QTest::qWaitForWindowExposed(&window) || true);
        window.show();
        window.openDatabase(labelled);
        QTRY_VERIFY_WITH_TIMEOUT(session->hasDatabase(), 30000);
        window.views().showView(QStringLiteral("validation"));
        ValidationView* view = page<ValidationPage>(window)->view();
        QTRY_VERIFY(view->hasData());
        QCOMPARE(view->validation().points.size(), written.size());
        QCOMPARE(view->validation().offGrid, written.size());
        QCOMPARE(view->trainedGraph()->dataCount() + view->heldOutGraph()->dataCount(),
                 int(written.size()));
        QVERIFY(view->heldOutGraph()->dataCount() > 0); // beta is held out
        QVERIFY(view->title().contains(QStringLiteral("held-out programs")));
        QCOMPARE(view->dataTable().rows.size(), qsizetype(written.size()));
    }

    // The sweep tab as a user meets it: opened from a slider's context menu, every program over
    // the parameter's grid with the selected one highlighted and the geometric mean, the
    // current value marked; it follows the sliders, the program and its own parameter picker.
    void sweepTabFromASlidersContextMenu() {
        std::unique_ptr<Session> session(testing::newTinySession());
        MainWindow window(*session, presets_);
        window.resize(1400, 900);
        QVERIFY(showAndOpen(*session, window));
        auto* action = window.findChild<QAction*>(QStringLiteral("sweep_rob"));
        QVERIFY(action);
        action->trigger();
        auto* sweep = page<SweepPage>(window);
        QCOMPARE(window.views().currentPage(), sweep);
        SweepView* view = sweep->view();
        QTRY_VERIFY(view->hasData());
        const ParameterSweep expected =
            ParameterSweep::compute(*session->explorer(), session->config(), ParamId::Rob);
        QVERIFY(view->sweep().values == expected.values);
        QVERIFY(view->sweep().cpi == expected.cpi);
        QCOMPARE(view->sweep().current, expected.current);
        QVERIFY(view->selectedGraph() && view->meanGraph());
        QCOMPARE(view->selectedGraph()->name(), session->program());
        QCOMPARE(view->selectedGraph()->dataCount(), int(expected.values.size()));
        // The CSV: program,parameter,value,cpi,cpi_low,cpi_high for every program and value
        // (then the geometric mean), equal to the sweep; no band columns filled, none faked.
        const ChartTable table = view->dataTable();
        QCOMPARE(table.header,
                 QStringList({"program", "parameter", "value", "cpi", "cpi_low", "cpi_high"}));
        QCOMPARE(table.rows.size(),
                 qsizetype((expected.programs.size() + 1) * expected.values.size()));
        for (qsizetype r = 0; r < qsizetype(expected.programs.size() * expected.values.size());
             ++r) {
            const std::size_t p = std::size_t(r) / expected.values.size();
            const std::size_t v = std::size_t(r) % expected.values.size();
            const QStringList& row = table.rows[r];
            QCOMPARE(row[0], QString::fromStdString(expected.programs[p]));
            QCOMPARE(row[1], QStringLiteral("rob"));
            QCOMPARE(row[2].toDouble(), expected.values[v]);
            QVERIFY(std::abs(row[3].toDouble() - expected.cpi[v][p]) <= 1e-6 * expected.cpi[v][p]);
            QVERIFY(row[4].isEmpty() && row[5].isEmpty());
        }

        // A slider moves: the marker follows.
        const double other = expected.values[expected.current == 0 ? 1 : 0];
        session->setParameter(ParamId::Rob, other);
        QTRY_COMPARE(view->sweep().values[view->sweep().current], other);
        // Another program: it is the highlighted curve.
        const QString second = session->programs().last();
        QVERIFY(session->setProgram(second));
        QTRY_COMPARE(view->selectedGraph()->name(), second);
        // The picker: another parameter.
        QComboBox* picker = sweep->parameterBox();
        const int l2 = picker->findData(int(ParamId::L2Kb));
        QVERIFY(l2 >= 0);
        picker->setCurrentIndex(l2);
        emit picker->activated(l2);
        QCOMPARE(session->sweptParameter(), ParamId::L2Kb);
        QTRY_COMPARE(view->sweep().parameter, ParamId::L2Kb);
    }

    void oneProgramsBoundsAreThoseOfTheWholeDatabase() {
        // A headless export of one program reads only its bounds: the same series.
        std::unique_ptr<Session> session(testing::newTinySession());
        QVERIFY(session->openDatabaseNow(database_));
        ExplorerBounds whole(*session), one(*session);
        QVERIFY(whole.loadNow());
        QVERIFY(one.loadNow(nullptr, QStringLiteral("beta")));
        QCOMPARE(one.bounds()->programs(), std::vector<std::string>{"beta"});
        QVERIFY(one.bounds()->regions().size() < whole.bounds()->regions().size());
        const CoreConfig config = session->explorer()->snap(session->config());
        const RegionBoundsSeries a = whole.bounds()->program("beta", config);
        const RegionBoundsSeries b = one.bounds()->program("beta", config);
        QCOMPARE(b.windows(), a.windows());
        QCOMPARE(b.segmentLabels(), a.segmentLabels());
        for (std::size_t r = 0; r < a.resourceCount(); ++r)
            QVERIFY(std::equal(a.bound(r).begin(), a.bound(r).end(), b.bound(r).begin()));
        // And the page built headless for beta holds only beta's.
        QVERIFY(session->setProgram(QStringLiteral("beta")));
        TimeseriesPage page(*session, nullptr);
        page.ensureCurrent();
        QVERIFY(page.view()->series());
        QCOMPARE(page.view()->series()->windows(), a.windows());
    }

    void phasesAreDescribedByCpiBoundAndInstructionShare() {
        std::unique_ptr<Session> session(testing::newTinySession());
        MainWindow window(*session, presets_);
        window.resize(1400, 900);
        QVERIFY(showAndOpen(*session, window));
        auto* phases = page<PhasesPage>(window);
        window.findChild<QTabWidget*>(QStringLiteral("view_tabs"))->setCurrentWidget(phases);
        QTRY_VERIFY(phases->view()->hasData() && phases->view()->timeline().hasPhases());
        const ProgramTimeline& timeline = phases->view()->timeline();
        const auto& summaries = phases->view()->phaseSummaries();
        QVERIFY(!summaries.empty());
        double total = 0;
        for (const auto& entry : timeline.entries)
            total += double(entry.length);
        double shares = 0;
        for (const PhaseSummary& s : summaries) {
            // Share and CPI from the regions of the phase.
            double instructions = 0, cycles = 0;
            std::size_t regions = 0;
            for (const auto& entry : timeline.entries)
                if (entry.phase == s.phase) {
                    instructions += double(entry.length);
                    cycles += entry.cpi * double(entry.length);
                    ++regions;
                }
            QCOMPARE(s.regions, regions);
            QVERIFY(std::abs(s.instructionShare - instructions / total) < 1e-12);
            QVERIFY(std::abs(s.cpi - cycles / instructions) < 1e-9 * s.cpi);
            QVERIFY(s.dominantShare > 0 && s.dominantShare <= 1);
            shares += s.instructionShare;
            // The legend says it.
            const QString name = phases->view()->phaseBars(int(s.phase))->name();
            QVERIFY2(name.contains(QStringLiteral("CPI ") + ChartFormat::cpi(s.cpi)),
                     qPrintable(name));
            QVERIFY2(name.contains(QString::fromStdString(
                         BoundResources::labels()[s.dominantResource] + "-bound")),
                     qPrintable(name));
            QVERIFY2(name.contains(ChartFormat::percent(s.instructionShare) +
                                   QStringLiteral(" of instructions")),
                     qPrintable(name));
        }
        QVERIFY(std::abs(shares - 1.0) < 1e-9); // every tiny region has a phase
    }

    void clickingARegionDrillsInAndBackReturns() {
        std::unique_ptr<Session> session(testing::newTinySession());
        MainWindow window(*session, presets_);
        window.resize(1400, 900);
        QVERIFY(showAndOpen(*session, window));
        auto* phases = page<PhasesPage>(window);
        auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("view_tabs"));
        tabs->setCurrentWidget(phases);
        QTRY_VERIFY(phases->view()->hasData());
        // The phases arrive from the background; their legend relayouts the chart, so locate
        // the bars only after.
        QTRY_VERIFY(phases->view()->timeline().hasPhases());
        const auto& entries = phases->view()->timeline().entries;
        QCOMPARE(entries.size(), std::size_t(3)); // alpha: three regions
        QCustomPlot* plot = phases->view()->plot();
        QTRY_VERIFY(plot->isVisible());
        QPoint target;
        for (int x = 0; x < plot->width() && target.isNull(); ++x)
            if (phases->view()->regionAt(QPointF(x, plot->height() / 2)) == 1)
                target = QPoint(x + 3, plot->height() / 2);
        QVERIFY(!target.isNull());
        auto* series = page<TimeseriesPage>(window);
        tabs->setCurrentWidget(series);
        QTRY_VERIFY(series->view()->series() != nullptr);
        const std::size_t full = series->view()->series()->windows();
        tabs->setCurrentWidget(phases);
        QTest::mouseClick(plot, Qt::LeftButton, {}, target);
        QCOMPARE(window.bounds().drilledRegion(), int(entries[1].region));
        // The other pages show that region (each as its tab is shown).
        tabs->setCurrentWidget(series);
        QTRY_VERIFY(series->view()->series()->windows() < full);
        tabs->setCurrentWidget(page<CdfPage>(window));
        QVERIFY(page<CdfPage>(window)
                    ->findChild<QLabel*>(QStringLiteral("page_title"))
                    ->text()
                    .contains(QStringLiteral("region")));
        tabs->setCurrentWidget(page<ShapleyPage>(window));
        QCOMPARE(page<ShapleyPage>(window)->view()->mode(), ShapleyView::Mode::Region);
        tabs->setCurrentWidget(series);
        auto* back = window.findChild<QAction*>(QStringLiteral("action_back"));
        QVERIFY(back && back->isEnabled());
        QCOMPARE(back->shortcut(), QKeySequence(Qt::ALT | Qt::Key_Left));
        QVERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("Alt+Left")));
        back->trigger();
        QCOMPARE(window.bounds().drilledRegion(), -1);
        QVERIFY(!window.statusBar()->currentMessage().contains(QStringLiteral("Alt+Left")));
        // The program's series is computed off the UI thread and arrives a moment later.
        QTRY_COMPARE(series->view()->series()->windows(), full);
        QVERIFY(!back->isEnabled());
    }

    void phasesAreClusteredInTheBackground() {
        std::unique_ptr<Session> session(testing::newTinySession());
        QVERIFY(session->openDatabaseNow(database_));
        ExplorerBounds bounds(*session);
        QVERIFY(bounds.loadNow());
        // The tiny database stores no phases. The page shows the regions at once, without
        // phases, and says it is clustering them.
        PhasesPage page(*session, &bounds);
        QCOMPARE(session->program(), QString("alpha"));
        QVERIFY(page.view()->hasData());
        QCOMPARE(page.view()->timeline().entries.size(), std::size_t(3));
        QVERIFY(!page.view()->timeline().hasPhases());
        QVERIFY(page.isClustering());
        QVERIFY2(titleOf(page).contains(QStringLiteral("clustering phases")),
                 qPrintable(titleOf(page)));
        // Then the phases arrive and the page shows them.
        QTRY_VERIFY_WITH_TIMEOUT(page.view()->timeline().hasPhases(), 30000);
        QVERIFY(!page.isClustering());
        QVERIFY(shownPhases(page.view()->timeline()) == clusteredPhases(database_, "alpha"));
        QVERIFY2(titleOf(page).contains(QStringLiteral("phases clustered here")),
                 qPrintable(titleOf(page)));
        // Kept: showing the program again does not cluster it again.
        QVERIFY(session->setProgram(QStringLiteral("beta")));
        QVERIFY(page.isClustering());
        QVERIFY(session->setProgram(QStringLiteral("alpha")));
        QVERIFY(!page.isClustering());
        QVERIFY(page.view()->timeline().hasPhases());
        // An export does not wait for the event loop: ensureCurrent() finishes the clustering.
        QVERIFY(session->setProgram(QStringLiteral("beta")));
        QVERIFY(page.isClustering() || page.view()->timeline().hasPhases());
        page.ensureCurrent();
        QVERIFY(!page.isClustering());
        QVERIFY(page.view()->timeline().hasPhases());
        QVERIFY(shownPhases(page.view()->timeline()) == clusteredPhases(database_, "beta"));
    }

    void switchingDatabaseWhileClusteringShowsOnlyTheNewPhases() {
        const QString other = buildOtherDatabase();
        const auto expected = clusteredPhases(other, "alpha");
        QCOMPARE(expected.size(), std::size_t(4));
        std::unique_ptr<Session> session(testing::newTinySession());
        QVERIFY(session->openDatabaseNow(database_));
        ExplorerBounds bounds(*session);
        QVERIFY(bounds.loadNow());
        PhasesPage page(*session, &bounds);
        QVERIFY(page.isClustering());
        // Switch before the first database's phases can arrive (through the event loop): they
        // must be dropped, and the other database's shown once clustered.
        QVERIFY(session->openDatabaseNow(other));
        QDeadlineTimer deadline(30000);
        while (!deadline.hasExpired()) {
            const ProgramTimeline& timeline = page.view()->timeline();
            if (page.view()->hasData() && timeline.hasPhases()) {
                QVERIFY(shownPhases(timeline) == expected); // never the first database's
                if (!page.isClustering())
                    break;
            }
            QTest::qWait(2);
        }
        QCOMPARE(page.view()->timeline().entries.size(), std::size_t(4));
        QVERIFY(shownPhases(page.view()->timeline()) == expected);
        QVERIFY(!page.isClustering());
    }

    void pageAndDatabaseMayGoAwayWhileClustering() {
        std::unique_ptr<Session> session(testing::newTinySession());
        QVERIFY(session->openDatabaseNow(database_));
        auto bounds = std::make_unique<ExplorerBounds>(*session);
        QVERIFY(bounds->loadNow());
        auto page = std::make_unique<PhasesPage>(*session, bounds.get());
        QVERIFY(page->isClustering());
        page.reset();
        bounds.reset();
        session.reset(); // the job keeps the database until it ends
        QTest::qWait(300);
        QVERIFY(QThreadPool::globalInstance()->waitForDone(30000));
    }

    void drillingShowsTheRegionsShapleyAttributionAndBackReturns() {
        std::unique_ptr<Session> session(testing::newTinySession());
        MainWindow window(*session, presets_);
        window.resize(1400, 900);
        QVERIFY(showAndOpen(*session, window));
        // A baseline that differs from the target in five parameters (all on the tiny grid).
        const BoundsGrid grid = testing::tinyExplorerGrid();
        CoreConfig baseline = session->config();
        for (const ParamId id : {ParamId::Rob, ParamId::LoadQueue, ParamId::AluIssue,
                                 ParamId::L1dKb, ParamId::BpMissPct}) {
            const auto& values = grid[index(id)];
            baseline.set(id, values[0] == baseline.value(id) ? values[1] : values[0]);
        }
        session->setBaseline(baseline);
        auto* shapley = page<ShapleyPage>(window);
        auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("view_tabs"));
        tabs->setCurrentWidget(shapley);
        QCOMPARE(shapley->view()->mode(), ShapleyView::Mode::Programs);

        const auto& data = *window.bounds().bounds();
        const std::size_t k = data.regionsOf("alpha").at(1);
        window.bounds().drillInto(int(k));
        QCOMPARE(shapley->view()->mode(), ShapleyView::Mode::Region);
        QVERIFY2(titleOf(*shapley).contains(QString::fromStdString(data.regions()[k].label())),
                 qPrintable(titleOf(*shapley)));
        QSignalSpy finished(shapley->panel(), &concorde::ui::ShapleyPanel::finished);
        QTest::mouseClick(shapley->panel()->findChild<QPushButton*>(QStringLiteral("shapley_run")),
                          Qt::LeftButton);
        QVERIFY(finished.wait(30000));

        // Exactly region k: its attribution adds up to its own CPI change under the model.
        const ShapleyView& view = *shapley->view();
        QCOMPARE(view.mode(), ShapleyView::Mode::Region);
        QVERIFY(view.shownRegion());
        QCOMPARE(view.program(), QString("alpha"));
        QCOMPARE(view.shownRegion()->region, std::to_string(data.regions()[k].regionIndex));
        const ExplorerModel& explorer = *session->explorer();
        const double before =
            explorer.predictor().regionCpi(k, explorer.snap(shapley->panel()->baselineConfig()));
        const double after =
            explorer.predictor().regionCpi(k, explorer.snap(shapley->panel()->targetConfig()));
        QVERIFY(std::abs(after - before) > 1e-6); // a real change to attribute
        const Attribution& attribution = view.shownRegion()->attribution;
        QVERIFY2(std::abs(attribution.sum() - (after - before)) <= 1e-6,
                 qPrintable(QStringLiteral("%1 vs %2").arg(attribution.sum()).arg(after - before)));
        QCOMPARE(view.categories(), QStringList({QString::fromStdString(data.regions()[k].label()),
                                                 QStringLiteral("alpha, whole program")}));
        QVERIFY(!view.playerRows().isEmpty());
        // Its CSV: the region's rows (then the whole program's, for context).
        const ChartTable table = view.dataTable();
        const QString label = QString::number(data.regions()[k].regionIndex);
        int regionRows = 0;
        for (const QStringList& row : table.rows)
            if (row.at(1) == label) {
                QCOMPARE(row.at(0), QString("alpha"));
                const double value = attribution.at(row.at(2).toStdString()).value;
                QVERIFY(std::abs(row.at(3).toDouble() - value) <= 1e-8); // 9 digits in the CSV
                ++regionRows;
            }
        QCOMPARE(regionRows, int(attribution.players.size()));
        QCOMPARE(table.rows.first().at(1), label);

        // Back: the per-program view again.
        auto* back = window.findChild<QAction*>(QStringLiteral("action_back"));
        back->trigger();
        QCOMPARE(window.bounds().drilledRegion(), -1);
        QCOMPARE(view.mode(), ShapleyView::Mode::Programs);
        QCOMPARE(view.categories().size(), 2);
        QVERIFY(titleOf(*shapley).contains(QStringLiteral("per program")));
    }

    void headlessExportRendersEveryView() {
        const ViewCatalog catalog = ViewCatalog::standard();
        QCOMPARE(catalog.names(),
                 (QStringList{"overview", "comparison", "cdf", "timeseries", "shapley",
                              "sensitivity", "sweep", "phases", "validation"}));
        const struct {
            const char* extension;
            QByteArray magic;
        } formats[] = {{"png", QByteArray("\x89PNG", 4)},
                       {"svg", QByteArray("<?xml")},
                       {"pdf", QByteArray("%PDF")},
                       {"csv", QByteArray()}};
        for (const QString& view : catalog.names()) {
            for (const auto& format : formats) {
                HeadlessExport::Request request;
                request.database = database_;
                request.view = view;
                request.preset = QString();
                request.assignments = {QStringLiteral("rob=64")};
                request.output = dir_.filePath(view + QLatin1Char('.') + format.extension);
                request.size = QSize(800, 500);
                QString text;
                QTextStream err(&text);
                const int code = HeadlessExport::run(request, presets_, catalog, err);
                err.flush();
                QVERIFY2(code == 0, qPrintable(view + QStringLiteral(": ") + text));
                const QByteArray bytes = head(request.output, 4096);
                if (format.magic.isEmpty()) {
                    const QByteArray header = bytes.left(qMax(0, int(bytes.indexOf('\n'))));
                    QVERIFY2(header.contains(',') && !header.isEmpty(), qPrintable(view));
                } else {
                    QVERIFY2(bytes.startsWith(format.magic), qPrintable(request.output));
                }
            }
        }
    }

    // Every view of the registry exports from the window, through the chart interface alone.
    void everyViewExportsAsTheCurrentChart() {
        std::unique_ptr<Session> session(testing::newTinySession());
        MainWindow window(*session, presets_);
        QVERIFY(showAndOpen(*session, window));
        for (const QString& id : ViewCatalog::standard().names()) {
            QVERIFY(window.views().showView(id));
            for (const char* type : {"png", "csv"}) {
                const QString path = dir_.filePath(QStringLiteral("current-%1.%2").arg(id, type));
                QString error;
                QVERIFY2(window.exportCurrentChart(path, &error), qPrintable(id + ": " + error));
                const QByteArray bytes = head(path, 256);
                QVERIFY2(type == QLatin1String("png") ? bytes.startsWith("\x89PNG")
                                                      : bytes.contains(','),
                         qPrintable(path));
            }
        }
    }

    void exportAllWritesOneFilePerView() {
        std::unique_ptr<Session> session(testing::newTinySession());
        MainWindow window(*session, presets_);
        QVERIFY(showAndOpen(*session, window));
        QVERIFY(page<ShapleyPage>(window)->computeNow());
        const QString folder = dir_.filePath(QStringLiteral("review"));
        QString error;
        QStringList written;
        QVERIFY2(window.exportAllForReview(folder, &error, &written), qPrintable(error));
        // Every view but Validation: the tiny database has no labels, and a chart without data
        // is not written.
        QCOMPARE(written.size(), 8 * 5); // PNG, SVG, PDF, CSV and the CSV's .csv.json
        for (const char* name : {"overview", "comparison", "cdf", "timeseries", "shapley",
                                 "sensitivity", "sweep", "phases"})
            for (const char* type : {"png", "svg", "pdf", "csv"})
                QVERIFY2(written.contains(QDir(folder).filePath(QStringLiteral("%1.%2").arg(
                             QLatin1String(name), QLatin1String(type)))),
                         qPrintable(written.join(QLatin1Char(' '))));

        // The current chart exports and copies too.
        auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("view_tabs"));
        tabs->setCurrentWidget(page<CdfPage>(window));
        QVERIFY(window.exportCurrentChart(dir_.filePath(QStringLiteral("current.svg")), &error));
        QVERIFY(head(dir_.filePath(QStringLiteral("current.svg")), 5).startsWith("<?xml"));
        QVERIFY(window.copyCurrentChart());
        tabs->setCurrentIndex(0); // the overview exports and copies like every chart
        QVERIFY(window.exportCurrentChart(dir_.filePath(QStringLiteral("overview.png")), &error));
        QVERIFY(window.copyCurrentChart());
    }
};

QTEST_MAIN(ExplorerPagesTest)
#include "ExplorerPagesTest.moc"
