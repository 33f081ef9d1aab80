// The main window fits a 1024×768 and a 1280×800 screen (issue 23, "a window that fits the
// room"): on every tab, in normal and in projector mode, its minimum size is within the screen's
// free area and the window itself within the screen. The offscreen platform gets one screen of
// the size in CONCORDE_TEST_SCREEN (default 1024x768; CTest runs this once per size). The
// shown chart's legend is legible on every tab, and in projector mode the tornado names every
// one of twenty parameters at a size a projector shows.
#include "../support/ChartChecks.h"
#include "../support/ExplorerTestSession.h"
#include "../support/TinyExplorerDatabase.h"
#include "ChartView.h"
#include "MainWindow.h"
#include "SensitivityView.h"
#include "Session.h"
#include "Theme.h"
#include "ViewCatalog.h"
#include "ViewTabs.h"
#include "params/PresetLibrary.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QScreen>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <memory>
#include <qcustomplot.h>

using namespace concorde;
using concorde::ui::MainWindow;
using concorde::ui::Session;

namespace {

/// The parameter dock's minimum width, 0 while it is hidden.
int parametersWidth(const QMainWindow& window) {
    const auto* dock = window.findChild<QDockWidget*>(QStringLiteral("dock_parameters"));
    return dock && dock->isVisible() ? dock->minimumSizeHint().width() : 0;
}

/// The chart the window shows (nullptr on a tab without one).
ui::ChartView* shownChart(const QMainWindow& window) {
    for (ui::ChartView* view : window.findChildren<ui::ChartView*>())
        if (view->isVisible())
            return view;
    return nullptr;
}

} // namespace

class WindowFitTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString database_;
    PresetLibrary presets_ = PresetLibrary::loadDefault();

    /// Shows every tab of a window with the tiny database open, in projector mode or not, and
    /// checks that the window and its minimum size fit the screen on each.
    void checkEveryTab(bool projector) {
        std::unique_ptr<Session> session(testing::newTinySession());
        MainWindow window(*session, presets_);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.openDatabase(database_);
        QVERIFY(QTest::qWaitFor([&] { return session->prediction() != nullptr; }, 30000));
        if (projector) {
            window.findChild<QAction*>(QStringLiteral("action_projector"))->trigger();
            QTRY_VERIFY(window.isFullScreen());
        }
        const QScreen* screen = window.screen();
        const QRect available = screen->availableGeometry();
        QCOMPARE(screen->size(), expectedScreen());
        const ui::ViewCatalog catalog = ui::ViewCatalog::standard();
        for (const auto& view : catalog.views()) {
            QVERIFY(window.views().showView(view.id));
            QTest::qWait(100); // the page refreshes and lays out when shown
            QApplication::processEvents();
            const QSize minimum = window.minimumSizeHint().expandedTo(window.minimumSize());
            const QString where = QStringLiteral("%1 tab, %2 mode, %3x%4 screen: ")
                                      .arg(view.id, projector ? "projector" : "normal")
                                      .arg(available.width())
                                      .arg(available.height());
            QVERIFY2(
                minimum.width() <= available.width() && minimum.height() <= available.height(),
                qPrintable(where + QStringLiteral("minimum size %1x%2 (parameters %3, "
                                                  "charts %4 wide)")
                                       .arg(minimum.width())
                                       .arg(minimum.height())
                                       .arg(parametersWidth(window))
                                       .arg(window.centralWidget()->minimumSizeHint().width())));
            QVERIFY2(screen->geometry().contains(window.frameGeometry()),
                     qPrintable(where + QStringLiteral("window %1x%2 at %3,%4")
                                            .arg(window.frameGeometry().width())
                                            .arg(window.frameGeometry().height())
                                            .arg(window.frameGeometry().x())
                                            .arg(window.frameGeometry().y())));
            if (ui::ChartView* chart = shownChart(window)) {
                chart->plot()->replot();
                const QString problem = testing::legendProblem(*chart->plot());
                QVERIFY2(problem.isEmpty(), qPrintable(where + problem));
            }
        }
        if (projector)
            checkTornadoNamesEveryParameter(window);
        if (projector) {
            window.findChild<QAction*>(QStringLiteral("action_projector"))->trigger();
            QTRY_VERIFY(!window.isFullScreen());
        }
    }

    /// The sensitivity tab with a ranking of all twenty parameters: each row has its name, in
    /// at least 12 points, and no two value labels overlap (the chart scrolls if need be).
    void checkTornadoNamesEveryParameter(MainWindow& window) {
        QVERIFY(window.views().showView(QStringLiteral("sensitivity")));
        auto* tornado = window.findChild<ui::SensitivityView*>();
        QVERIFY(tornado);
        tornado->setRanking(testing::tornadoOfEveryParameter(), QStringLiteral("gzip"));
        for (int pass = 0; pass < 3; ++pass) { // the chart may grow once it knows its rows
            QApplication::processEvents();
            tornado->plot()->replot();
        }
        const QCPAxis* rows = tornado->plot()->axisRect()->axis(QCPAxis::atLeft);
        const auto names = rows->tickVectorLabels();
        QVERIFY2(names.size() == 20, qPrintable(QStringLiteral("%1 of 20 parameters named, chart "
                                                               "%2 px high")
                                                    .arg(names.size())
                                                    .arg(tornado->height())));
        QVERIFY2(rows->tickLabelFont().pointSizeF() >= 12.0 - 1e-9,
                 qPrintable(QStringLiteral("parameter names in %1 pt")
                                .arg(rows->tickLabelFont().pointSizeF())));
        std::vector<QRectF> values;
        for (int i = 0; i < tornado->plot()->itemCount(); ++i)
            if (auto* text = qobject_cast<QCPItemText*>(tornado->plot()->item(i))) {
                const QRectF box(text->topLeft->pixelPosition(),
                                 text->bottomRight->pixelPosition());
                for (const QRectF& other : values)
                    QVERIFY2(!other.adjusted(1, 1, -1, -1).intersects(box),
                             qPrintable(text->text() + QStringLiteral(" overlaps another value")));
                values.push_back(box);
            }
        QVERIFY(values.size() >= 10);
        const QString problem = testing::legendProblem(*tornado->plot());
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

public:
    static QSize expectedScreen() {
        const QString text = qEnvironmentVariable("CONCORDE_TEST_SCREEN", "1024x768");
        const QStringList parts = text.split(QLatin1Char('x'));
        return parts.size() == 2 ? QSize(parts[0].toInt(), parts[1].toInt()) : QSize();
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        database_ = dir_.filePath(QStringLiteral("tiny.sqlite"));
        testing::buildTinyExplorerDatabase(database_.toStdString());
    }

    void everyTabFitsTheScreen() { checkEveryTab(false); }
    void everyTabFitsTheScreenInProjectorMode() { checkEveryTab(true); }
};

int main(int argc, char** argv) {
    // One offscreen screen of the size under test (the platform reads it when it starts).
    QTemporaryDir config;
    const QSize size = WindowFitTest::expectedScreen();
    const QString path = config.filePath(QStringLiteral("screens.json"));
    QFile file(path);
    if (!size.isValid() || !file.open(QIODevice::WriteOnly))
        return 2;
    file.write(QStringLiteral("{\"screens\": [{\"name\": \"test\", \"x\": 0, \"y\": 0, "
                              "\"width\": %1, \"height\": %2, \"logicalDpi\": 96}]}")
                   .arg(size.width())
                   .arg(size.height())
                   .toUtf8());
    file.close();
    qputenv("QT_QPA_PLATFORM", QStringLiteral("offscreen:configfile=%1").arg(path).toUtf8());
    QApplication app(argc, argv);
    WindowFitTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "WindowFitTest.moc"
