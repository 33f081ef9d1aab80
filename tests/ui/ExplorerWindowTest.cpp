// The explorer window with a database open: dragging a slider updates the CPI readout and the
// overview while dragging, undo/redo, session save and load, unreadable files, drag and drop,
// recent files, warnings, the model's accuracy, themes and projector mode.
#include "../support/ExplorerTestSession.h"
#include "../support/TinyExplorerDatabase.h"
#include "MainWindow.h"
#include "OverviewView.h"
#include "ParameterHistory.h"
#include "PredictionHeader.h"
#include "Session.h"
#include "SessionFile.h"
#include "Theme.h"
#include "explore/ConfigChecker.h"
#include "explore/ExplorerModel.h"
#include "params/PresetLibrary.h"

#include <QComboBox>
#include <QDropEvent>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>
#include <fstream>
#include <qcustomplot.h>
#include <random>

using namespace concorde;
using concorde::ui::MainWindow;
using concorde::ui::OverviewView;
using concorde::ui::Session;

namespace {

QVector<double> values(const QCPBars* bars) {
    QVector<double> out;
    for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
        out << it->value;
    return out;
}

} // namespace

class ExplorerWindowTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString database_;
    PresetLibrary presets_ = PresetLibrary::loadDefault();

    QString file(const char* name) const { return dir_.filePath(QString::fromLatin1(name)); }

    /// A window with the tiny database open and its first prediction shown.
    bool open(Session& session, MainWindow& window) {
        window.openDatabase(database_);
        return QTest::qWaitFor([&] { return session.prediction() != nullptr; }, 30000);
    }

    template <typename T>
    static T* child(const QObject& parent, const char* name) {
        return parent.findChild<T*>(QLatin1String(name));
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true); // recent files go to a test location
        QSettings().clear();
        database_ = file("tiny.sqlite");
        testing::buildTinyExplorerDatabase(database_.toStdString());
    }

    void opensAndShowsThePrediction() {
        std::unique_ptr<Session> session(testing::newTinySession());
        MainWindow window(*session, presets_);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* stack = child<QStackedWidget>(window, "central_stack");
        window.openDatabase(database_);
        QCOMPARE(stack->currentWidget()->objectName(), QStringLiteral("loading_page"));
        QTRY_VERIFY_WITH_TIMEOUT(session->prediction() != nullptr, 30000);
        QCOMPARE(stack->currentWidget()->objectName(), QStringLiteral("explorer_content"));

        const auto* cpi = child<QLabel>(window, "cpi_label");
        QVERIFY(cpi && cpi->isVisible());
        QCOMPARE(cpi->text(),
                 QStringLiteral("CPI %1").arg(session->prediction()->selectedCpi(), 0, 'f', 3));
        QCOMPARE(
            child<QLabel>(window, "ipc_label")->text(),
            QStringLiteral("IPC %1").arg(1.0 / session->prediction()->selectedCpi(), 0, 'f', 3));
        const QString delta = child<QLabel>(window, "delta_label")->text();
        QVERIFY2(delta.contains(QStringLiteral("% vs baseline")) ||
                     delta.startsWith(QStringLiteral("= baseline")),
                 qPrintable(delta));
        // A baseline that is a preset is named: which baseline is never left to guess.
        const CoreConfig customBaseline = session->baseline();
        session->setBaseline(presets_.require("little").config);
        QTRY_VERIFY(child<QLabel>(window, "delta_label")->text().contains("baseline little ("));
        session->setBaseline(customBaseline);
        QTRY_VERIFY(!child<QLabel>(window, "delta_label")->text().contains("little"));
        QCOMPARE(
            child<QLabel>(window, "accuracy_label")->text(),
            QStringLiteral("model error 4.0 % on unseen regions, 13.5 % on held-out programs"));
        QVERIFY(!child<QLabel>(window, "warning_label")->isVisible()); // on grid, trained

        auto* selector = child<QComboBox>(window, "program_selector");
        QCOMPARE(selector->count(), 2);
        QCOMPARE(selector->currentText(), QStringLiteral("alpha"));
        auto* overview = child<OverviewView>(window, "overview_view");
        QCOMPARE(overview->rows().size(), 2);
        QVERIFY(child<QLabel>(window, "database_status")->text().contains("tiny.sqlite"));

        // The program selector selects.
        selector->setCurrentIndex(1);
        emit selector->activated(1);
        QTRY_COMPARE(session->prediction()->program, std::string("beta"));
        QVERIFY(std::any_of(overview->rows().begin(), overview->rows().end(), [](const auto& r) {
            return r.selected && r.program == QLatin1String("beta");
        }));
        QVERIFY(child<QLabel>(window, "warning_label")->isVisible()); // beta was held out
        QVERIFY(child<QLabel>(window, "warning_label")->text().contains("not among the programs"));
    }

    // Dragging the ROB slider with the mouse: the CPI label and the overview's bars change
    // while the button is still down, and the drag is one undo step.
    void draggingASliderUpdatesCpiAndOverviewLive() {
        std::unique_ptr<Session> session(testing::newTinySession());
        MainWindow window(*session, presets_);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(open(*session, window));

        auto* slider = child<QSlider>(window, "slider_rob");
        auto* cpi = child<QLabel>(window, "cpi_label");
        auto* overview = child<OverviewView>(window, "overview_view");
        QCOMPARE(slider->maximum(), 1); // the database's grid: 64, 128
        QCOMPARE(slider->value(), 0);
        const QString before = cpi->text();
        const QVector<double> barsBefore = values(overview->targetBars());
        const QVector<double> baselineBefore = values(overview->baselineBars());
        QUndoStack* undo = window.history().stack();
        const int steps = undo->count();

        QTest::mousePress(slider, Qt::LeftButton, {}, testing::sliderHandleCentre(slider));
        QTest::mouseMove(slider, QPoint(slider->width() / 2, slider->height() / 2));
        QTest::mouseMove(slider, QPoint(slider->width() - 3, slider->height() / 2));
        QTRY_COMPARE(session->config().rob(), 128);
        QVERIFY(slider->isSliderDown()); // still dragging
        QTRY_VERIFY(cpi->text() != before);
        QTRY_VERIFY(values(overview->targetBars()) != barsBefore);
        QCOMPARE(values(overview->baselineBars()), baselineBefore); // the baseline did not move
        QCOMPARE(child<QLabel>(window, "value_rob")->text(), QStringLiteral("128 entries"));
        // ROB 128 is on the database grid but the model was trained on 64 only.
        auto* warning = child<QLabel>(window, "warning_label");
        QTRY_VERIFY(warning->isVisible());
        QVERIFY2(warning->text().contains("outside what the model was trained on"),
                 qPrintable(warning->text()));
        QTest::mouseMove(slider, QPoint(3, slider->height() / 2)); // back and forth...
        QTRY_COMPARE(session->config().rob(), 64);
        QTest::mouseMove(slider, QPoint(slider->width() - 3, slider->height() / 2));
        QTRY_COMPARE(session->config().rob(), 128);
        QTest::mouseRelease(slider, Qt::LeftButton, {},
                            QPoint(slider->width() - 3, slider->height() / 2));
        QCOMPARE(undo->count(), steps + 1); // ...is one step

        undo->undo();
        QCOMPARE(session->config().rob(), 64);
        QCOMPARE(slider->value(), 0);
        QTRY_COMPARE(cpi->text(), before);
        QTRY_COMPARE(values(overview->targetBars()), barsBefore);
        QTRY_VERIFY(!warning->isVisible());
        undo->redo();
        QCOMPARE(slider->value(), 1);
        QTRY_VERIFY(cpi->text() != before);
    }

    void undoAndRedoRestoreSliders() {
        std::unique_ptr<Session> session(testing::newTinySession());
        MainWindow window(*session, presets_);
        QVERIFY(open(*session, window));
        auto* rob = child<QSlider>(window, "slider_rob");
        auto* alu = child<QSlider>(window, "slider_alu_issue");
        auto* undo = child<QAction>(window, "action_undo");
        auto* redo = child<QAction>(window, "action_redo");
        QVERIFY(undo && redo);
        QVERIFY(!undo->isEnabled());

        const CoreConfig start = session->config();
        QTest::keyClick(rob, Qt::Key_Right);
        QTest::keyClick(alu, alu->value() == 0 ? Qt::Key_Right : Qt::Key_Left);
        const CoreConfig end = session->config();
        QCOMPARE(end.rob(), 128);
        QVERIFY(end.aluIssue() != start.aluIssue());
        QVERIFY(undo->isEnabled());
        QVERIFY2(undo->text().contains(QStringLiteral("ALU")), qPrintable(undo->text()));

        undo->trigger();
        QCOMPARE(session->config().aluIssue(), start.aluIssue());
        QCOMPARE(alu->value(), 0 + (start.aluIssue() == 4 ? 1 : 0));
        QCOMPARE(rob->value(), 1);
        undo->trigger();
        QCOMPARE(session->config(), start);
        QCOMPARE(rob->value(), 0);
        QVERIFY(!undo->isEnabled());
        redo->trigger();
        redo->trigger();
        QCOMPARE(session->config(), end);
        QCOMPARE(rob->value(), 1);

        // A preset is one step too, and so is a new baseline.
        window.findChild<QAction*>(QStringLiteral("preset_little"))->trigger();
        QCOMPARE(session->config(), presets_.require("little").config);
        window.findChild<QAction*>(QStringLiteral("baseline_from_target"))->trigger();
        undo->trigger();
        QVERIFY(session->baseline() != session->config());
        undo->trigger();
        QCOMPARE(session->config(), end);
    }

    void sessionRoundTripsThroughJson() {
        const QString path = file("saved-session.json");
        {
            std::unique_ptr<Session> session(testing::newTinySession());
            MainWindow window(*session, presets_);
            QVERIFY(open(*session, window));
            CoreConfig target = session->config();
            target.set(ParamId::Rob, 128);
            target.set(ParamId::L2Kb, 1024);
            session->setConfig(target);
            session->setBaseline(presets_.require("little").config);
            QVERIFY(session->setProgram(QStringLiteral("beta")));
            session->theme().setScheme(ui::Theme::Scheme::Dark);
            QVERIFY(window.saveSession(path));
        }
        const QString written = [&] {
            QFile f(path);
            f.open(QIODevice::ReadOnly);
            return QString::fromUtf8(f.readAll());
        }();
        QVERIFY(written.contains(QStringLiteral("\"format\": \"concorde-explorer-session\"")));
        QVERIFY(written.contains(QStringLiteral("\"program\": \"beta\"")));

        Session session;
        MainWindow window(session, presets_);
        QVERIFY(window.loadSession(path));
        QTRY_VERIFY_WITH_TIMEOUT(session.hasDatabase() && session.prediction(), 30000);
        QCOMPARE(session.databasePath(), QFileInfo(database_).absoluteFilePath());
        QCOMPARE(session.config().rob(), 128);
        QCOMPARE(session.baseline(), presets_.require("little").config);
        QCOMPARE(session.program(), QStringLiteral("beta"));
        QTRY_COMPARE(session.prediction()->program, std::string("beta"));
        QCOMPARE(session.theme().scheme(), ui::Theme::Scheme::Dark);
        QCOMPARE(session.view(), QStringLiteral("view_overview"));
        QCOMPARE(child<QComboBox>(window, "program_selector")->currentText(),
                 QStringLiteral("beta"));
        QCOMPARE(child<QSlider>(window, "slider_rob")->value(), 1);
        QCOMPARE(ui::SessionFile::toJson(session).dump(), [&] {
            QFile f(path);
            f.open(QIODevice::ReadOnly);
            return nlohmann::json::parse(f.readAll().toStdString()).dump();
        }());
        session.theme().setScheme(ui::Theme::Scheme::Light);

        // A broken session file changes nothing and says why.
        const QString broken = file("broken.json");
        std::ofstream(broken.toStdString())
            << R"({"format": "concorde-explorer-session", "version": 1, "config": {"rob": 5000}})";
        const CoreConfig before = session.config();
        QVERIFY(!window.loadSession(broken));
        QCOMPARE(session.config(), before);
        auto* box = window.findChild<QMessageBox*>(QStringLiteral("error_box"));
        QVERIFY(box);
        QVERIFY2(box->text().contains(QStringLiteral("rob")), qPrintable(box->text()));
        box->close();
        std::ofstream(file("other.json").toStdString()) << R"({"hello": 1})";
        QString message;
        QVERIFY(!ui::SessionFile::load(session, file("other.json"), &message));
        QVERIFY(message.contains(QStringLiteral("not a Concorde Explorer session")));
    }

    // Random bytes and a text file: an error box, and the window goes on working.
    void corruptFilesShowAnErrorAndTheWindowStaysUsable() {
        const QString noise = file("noise.sqlite");
        {
            std::ofstream out(noise.toStdString(), std::ios::binary);
            std::mt19937 rng(11);
            for (int i = 0; i < 65536; ++i)
                out.put(static_cast<char>(rng()));
        }
        const QString text = file("readme.sqlite");
        std::ofstream(text.toStdString()) << "SQLite format 3 but not really\n";

        std::unique_ptr<Session> session(testing::newTinySession());
        MainWindow window(*session, presets_);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        for (const QString& bad : {noise, text}) {
            window.openDatabase(bad);
            QTRY_VERIFY_WITH_TIMEOUT(window.findChild<QMessageBox*>(QStringLiteral("error_box")),
                                     10000);
            auto* box = window.findChild<QMessageBox*>(QStringLiteral("error_box"));
            QVERIFY2(box->text().contains(QFileInfo(bad).fileName()), qPrintable(box->text()));
            QVERIFY(!session->hasDatabase());
            QCOMPARE(child<QStackedWidget>(window, "central_stack")->currentWidget()->objectName(),
                     QStringLiteral("empty_no_database"));
            box->close();
            QTRY_VERIFY(!window.findChild<QMessageBox*>(QStringLiteral("error_box")));
            // Still usable: sliders move the session.
            const int rob = session->config().rob();
            QTest::keyClick(child<QSlider>(window, "slider_rob"), Qt::Key_Right);
            QVERIFY(session->config().rob() != rob);
            QTest::keyClick(child<QSlider>(window, "slider_rob"), Qt::Key_Left);
        }
        // ...and a good database still opens; a bad one after it leaves it open.
        QVERIFY(open(*session, window));
        window.openDatabase(noise);
        QTRY_VERIFY_WITH_TIMEOUT(window.findChild<QMessageBox*>(QStringLiteral("error_box")),
                                 10000);
        QVERIFY(window.findChild<QMessageBox*>(QStringLiteral("error_box"))
                    ->text()
                    .contains(QStringLiteral("tiny.sqlite stays open")));
        QVERIFY(session->hasDatabase());
        QCOMPARE(child<QStackedWidget>(window, "central_stack")->currentWidget()->objectName(),
                 QStringLiteral("explorer_content"));
    }

    void droppingADatabaseOpensIt() {
        std::unique_ptr<Session> session(testing::newTinySession());
        MainWindow window(*session, presets_);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(database_)});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton,
                              Qt::NoModifier);
        QApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &drop);
        QVERIFY(drop.isAccepted());
        QTRY_VERIFY_WITH_TIMEOUT(session->hasDatabase(), 30000);

        QMimeData other;
        other.setUrls({QUrl::fromLocalFile(file("picture.png"))});
        QDragEnterEvent refused(QPoint(10, 10), Qt::CopyAction, &other, Qt::LeftButton,
                                Qt::NoModifier);
        QApplication::sendEvent(&window, &refused);
        QVERIFY(!refused.isAccepted());
    }

    void recentFilesAreRemembered() {
        QSettings().clear();
        std::unique_ptr<Session> session(testing::newTinySession());
        {
            MainWindow window(*session, presets_);
            QVERIFY(open(*session, window));
        }
        Session second;
        MainWindow window(second, presets_);
        auto* recent = window.findChild<QAction*>(QStringLiteral("recent_0"));
        QVERIFY(recent);
        QCOMPARE(recent->toolTip(),
                 QDir::toNativeSeparators(QFileInfo(database_).absoluteFilePath()));
        QVERIFY(recent->isEnabled());
        recent->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(second.hasDatabase(), 30000);
        window.findChild<QAction*>(QStringLiteral("recent_clear"))->trigger();
        QVERIFY(!window.findChild<QAction*>(QStringLiteral("recent_0")) ||
                !window.findChild<QMenu*>(QStringLiteral("menu_recent"))
                     ->actions()
                     .contains(window.findChild<QAction*>(QStringLiteral("recent_0"))));
    }

    void themesAndProjectorMode() {
        std::unique_ptr<Session> session(testing::newTinySession());
        MainWindow window(*session, presets_);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(open(*session, window));
        auto* dark = window.findChild<QAction*>(QStringLiteral("theme_dark"));
        auto* projector = window.findChild<QAction*>(QStringLiteral("action_projector"));
        QVERIFY(dark && projector);
        const double normalSize = QApplication::font().pointSizeF();

        dark->trigger();
        QCOMPARE(session->theme().scheme(), ui::Theme::Scheme::Dark);
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() < 100);
        auto* plot = child<QCustomPlot>(window, "overview_plot");
        QVERIFY(plot->axisRect()->backgroundBrush().color().lightness() < 100);

        window.setGeometry(40, 30, 900, 640);
        const QRect before = window.geometry();
        projector->trigger();
        QVERIFY(session->theme().projector());
        QVERIFY(QApplication::font().pointSizeF() > normalSize * 1.5);
        QTRY_VERIFY(window.isFullScreen());
        // The whole screen, even where no window manager acts on the full-screen request.
        QTRY_COMPARE(window.geometry(), window.screen()->geometry());
        QVERIFY(plot->xAxis->tickLabelFont().pointSizeF() > normalSize * 1.5);
        QVERIFY(child<QLabel>(window, "cpi_label")->font().pointSizeF() > normalSize * 2.5);
        QVERIFY(plot->xAxis->basePen().widthF() >= 1.5); // thick axes, as on every chart
        // Value labels still fit their text at the projector size.
        auto* value = child<QLabel>(window, "value_rob");
        QTRY_VERIFY(value->minimumWidth() >= value->fontMetrics().horizontalAdvance(value->text()));

        projector->trigger();
        QTRY_VERIFY(!window.isFullScreen());
        QTRY_COMPARE(window.geometry(), before);
        QCOMPARE(QApplication::font().pointSizeF(), normalSize);
        window.findChild<QAction*>(QStringLiteral("theme_light"))->trigger();
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() > 200);
    }

    void aboutGivesVersionProvenanceAndAccuracy() {
        std::unique_ptr<Session> session(testing::newTinySession());
        MainWindow window(*session, presets_);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(open(*session, window));
        window.findChild<QAction*>(QStringLiteral("action_about"))->trigger();
        auto* about = window.findChild<QMessageBox*>(QStringLiteral("about_box"));
        QVERIFY(about && about->isVisible());
        const QString text = about->text();
        QVERIFY(text.contains(QStringLiteral(CONCORDE_VERSION)));
        QVERIFY(text.contains(database_));                                // the file
        QVERIFY2(text.contains(QStringLiteral("2 (")), qPrintable(text)); // two programs
        QVERIFY(text.contains(QString::fromStdString(session->explorer()->model().name)));
        QVERIFY(text.contains(
            QStringLiteral("model error 4.0 % on unseen regions, 13.5 % on held-out programs")));
        about->close();
    }

    void clickingAnOverviewRowSelectsTheProgram() {
        std::unique_ptr<Session> session(testing::newTinySession());
        MainWindow window(*session, presets_);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(open(*session, window));
        auto* overview = child<OverviewView>(window, "overview_view");
        QCustomPlot* plot = overview->plot();
        plot->replot();
        int row = -1;
        for (int i = 0; i < overview->rows().size(); ++i)
            if (!overview->rows()[i].selected)
                row = i;
        QVERIFY(row >= 0);
        const QString program = overview->rows()[row].program;
        const double key = double(overview->rows().size() - row);
        const QPoint pos(int(plot->xAxis->coordToPixel(0.01)), int(plot->yAxis->coordToPixel(key)));
        QVERIFY(overview->hoverTextAt(pos).startsWith(program));
        QTest::mouseClick(plot, Qt::LeftButton, {}, pos);
        QCOMPARE(session->program(), program);
        QTRY_VERIFY(std::any_of(overview->rows().begin(), overview->rows().end(),
                                [&](const auto& r) { return r.selected && r.program == program; }));
    }
};

QTEST_MAIN(ExplorerWindowTest)
#include "ExplorerWindowTest.moc"
