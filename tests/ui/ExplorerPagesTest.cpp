// The chart pages wired into the explorer window: opening a database fills the CDF and
// timeseries pages, dragging a slider changes what they plot, clicking a region in the phases
// page drills every page into it and Back returns, the headless export renders all five views,
// and "export all for review" writes one file per view and format.
#include "../support/TinyExplorerDatabase.h"
#include "CdfPage.h"
#include "CdfView.h"
#include "ChartTable.h"
#include "ExplorerBounds.h"
#include "HeadlessExport.h"
#include "MainWindow.h"
#include "PhasesPage.h"
#include "PhasesView.h"
#include "Session.h"
#include "ShapleyPage.h"
#include "ShapleyView.h"
#include "TimeseriesPage.h"
#include "TimeseriesView.h"
#include "ViewCatalog.h"
#include "params/PresetLibrary.h"
#include "store/ConfigChecker.h"

#include <QAction>
#include <QFile>
#include <QLabel>
#include <QSettings>
#include <QSlider>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextStream>
#include <QtTest>
#include <qcustomplot.h>

using namespace concorde;
using concorde::ui::CdfPage;
using concorde::ui::ChartPage;
using concorde::ui::HeadlessExport;
using concorde::ui::MainWindow;
using concorde::ui::PhasesPage;
using concorde::ui::Session;
using concorde::ui::TimeseriesPage;
using concorde::ui::ViewCatalog;

namespace {

Session* newSession() {
    CoreConfig target =
        ConfigChecker(ParameterGrid(testing::tinyExplorerGrid()), {}).snap(CoreConfig{});
    target.set(ParamId::Rob, 64);
    CoreConfig baseline = target;
    baseline.set(ParamId::AluIssue, 4);
    return new Session(target, baseline);
}

QPoint handleCentre(const QSlider* slider) {
    const int length = slider->style()->pixelMetric(QStyle::PM_SliderLength, nullptr, slider);
    const int x = QStyle::sliderPositionFromValue(slider->minimum(), slider->maximum(),
                                                  slider->value(), slider->width() - length) +
                  length / 2;
    return {x, slider->height() / 2};
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

    bool open(Session& session, MainWindow& window) {
        window.openDatabase(database_);
        return QTest::qWaitFor(
            [&] { return session.prediction() != nullptr && window.bounds().bounds() != nullptr; },
            30000);
    }
    template <typename T>
    static T* page(const MainWindow& window) {
        for (ChartPage* p : window.pages())
            if (auto* t = qobject_cast<T*>(p))
                return t;
        return nullptr;
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        database_ = dir_.filePath(QStringLiteral("tiny.sqlite"));
        testing::buildTinyExplorerDatabase(database_.toStdString());
    }

    void openingFillsThePagesAndDraggingChangesThem() {
        std::unique_ptr<Session> session(newSession());
        MainWindow window(*session, presets_);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(open(*session, window));
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
        QTest::mousePress(slider, Qt::LeftButton, {}, handleCentre(slider));
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

    void clickingARegionDrillsInAndBackReturns() {
        std::unique_ptr<Session> session(newSession());
        MainWindow window(*session, presets_);
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(open(*session, window));
        auto* phases = page<PhasesPage>(window);
        auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("view_tabs"));
        tabs->setCurrentWidget(phases);
        QTRY_VERIFY(phases->view()->hasData());
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
        tabs->setCurrentWidget(page<concorde::ui::ShapleyPage>(window));
        QCOMPARE(page<concorde::ui::ShapleyPage>(window)->view()->mode(),
                 concorde::ui::ShapleyView::Mode::Regions);
        tabs->setCurrentWidget(series);
        auto* back = window.findChild<QAction*>(QStringLiteral("action_back"));
        QVERIFY(back && back->isEnabled());
        QCOMPARE(back->shortcut(), QKeySequence(Qt::ALT | Qt::Key_Left));
        back->trigger();
        QCOMPARE(window.bounds().drilledRegion(), -1);
        QCOMPARE(series->view()->series()->windows(), full);
        QVERIFY(!back->isEnabled());
    }

    void headlessExportRendersEveryView() {
        const ViewCatalog catalog = ViewCatalog::standard();
        QCOMPARE(catalog.names(),
                 (QStringList{"overview", "cdf", "timeseries", "shapley", "phases"}));
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

    void exportAllWritesOneFilePerView() {
        std::unique_ptr<Session> session(newSession());
        MainWindow window(*session, presets_);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(open(*session, window));
        QVERIFY(page<concorde::ui::ShapleyPage>(window)->computeNow());
        const QString folder = dir_.filePath(QStringLiteral("review"));
        QString error;
        QStringList written;
        QVERIFY2(window.exportAllForReview(folder, &error, &written), qPrintable(error));
        QCOMPARE(written.size(), 5 * 4);
        for (const char* name : {"overview", "cdf", "timeseries", "shapley", "phases"})
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
        tabs->setCurrentIndex(0);
        QVERIFY(window.exportCurrentChart(dir_.filePath(QStringLiteral("overview.png")), &error));
        QVERIFY(!window.copyCurrentChart());
    }
};

QTEST_MAIN(ExplorerPagesTest)
#include "ExplorerPagesTest.moc"
