// The main window fits a 1024×768 and a 1280×800 screen (issue 23, "a window that fits the
// room"): on every tab, in normal and in projector mode, its minimum size is within the screen's
// free area and the window itself within the screen. The offscreen platform gets one screen of
// the size in CONCORDE_TEST_SCREEN (default 1024x768; CTest runs this once per size).
#include "../support/ExplorerTestSession.h"
#include "../support/TinyExplorerDatabase.h"
#include "MainWindow.h"
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

using namespace concorde;
using concorde::ui::MainWindow;
using concorde::ui::Session;

namespace {

/// The parameter dock's minimum width, 0 while it is hidden.
int parametersWidth(const QMainWindow& window) {
    const auto* dock = window.findChild<QDockWidget*>(QStringLiteral("dock_parameters"));
    return dock && dock->isVisible() ? dock->minimumSizeHint().width() : 0;
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
        }
        if (projector) {
            window.findChild<QAction*>(QStringLiteral("action_projector"))->trigger();
            QTRY_VERIFY(!window.isFullScreen());
        }
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
