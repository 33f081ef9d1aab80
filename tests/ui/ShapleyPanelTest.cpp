// ShapleyPanel: baseline and target from the session or presets, a background attribution with
// progress, the result in the Shapley view, and errors shown instead of crashes. On the tiny
// explorer database (two programs, a random model).
#include "ShapleyPanel.h"

#include "ShapleyView.h"
#include "explore/DatabasePredictor.h"
#include "params/ParameterSpace.h"
#include "params/PresetLibrary.h"
#include "store/FeatureDatabase.h"
// (TinyExplorerDatabase.h needs the parameter headers first.)
#include "../support/TinyExplorerDatabase.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QProgressBar>
#include <QPushButton>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

using namespace concorde;
using namespace concorde::ui;

namespace {

CoreConfig onGrid(const BoundsGrid& grid, bool last) {
    CoreConfig config;
    for (const ParameterSpec& spec : ParameterSpace::all())
        config.set(spec.id, last ? grid[index(spec.id)].back() : grid[index(spec.id)].front());
    return config;
}

} // namespace

class ShapleyPanelTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::shared_ptr<const DatabasePredictor> predictor_;
    BoundsGrid grid_;

private slots:
    void initTestCase() {
        const std::filesystem::path path = dir_.filePath("tiny.sqlite").toStdString();
        testing::buildTinyExplorerDatabase(path);
        FeatureDatabase db = FeatureDatabase::openReadOnly(path);
        grid_ = db.buildSettings().grid;
        predictor_ = std::make_shared<const DatabasePredictor>(db, *db.readModel());
    }

    void baselineAndTargetFromSessionOrPresets() {
        const PresetLibrary presets = PresetLibrary::loadDefault();
        ShapleyPanel panel;
        panel.setPresets(presets.presets());
        const CoreConfig baseline = onGrid(grid_, true);
        const CoreConfig target = onGrid(grid_, false);
        panel.setCurrentConfigs(baseline, target);
        QCOMPARE(panel.baselineName(), QString("session baseline"));
        QCOMPARE(panel.targetName(), QString("current sliders"));
        QCOMPARE(panel.baselineConfig(), baseline);
        QCOMPARE(panel.targetConfig(), target);
        QVERIFY(panel.chooseBaseline("little"));
        QCOMPARE(panel.baselineConfig(), presets.require("little").config);
        QVERIFY(panel.chooseTarget("session baseline"));
        QCOMPARE(panel.targetConfig(), baseline);
        QVERIFY(!panel.chooseTarget("no such preset"));
        // Without a predictor nothing can run.
        auto* run = panel.findChild<QPushButton*>("shapley_run");
        QVERIFY(run);
        QVERIFY(!run->isEnabled());
        panel.start(); // ignored
        QVERIFY(!panel.running());
    }

    void computesInTheBackgroundAndShowsTheBars() {
        ShapleyPanel panel;
        panel.setPredictor(predictor_);
        panel.setCurrentConfigs(onGrid(grid_, true), onGrid(grid_, false));
        QSignalSpy started(&panel, &ShapleyPanel::started);
        QSignalSpy finished(&panel, &ShapleyPanel::finished);
        QSignalSpy failed(&panel, &ShapleyPanel::failed);
        auto* run = panel.findChild<QPushButton*>("shapley_run");
        QVERIFY(run->isEnabled());
        QTest::mouseClick(run, Qt::LeftButton);
        QCOMPARE(started.count(), 1);
        QVERIFY(finished.wait(20000));
        QCOMPARE(failed.count(), 0);
        QVERIFY(!panel.running());
        QCOMPARE(panel.progress(), 1.0);
        QVERIFY2(panel.status().contains("exact"), qPrintable(panel.status()));
        const AttributionReport* report = panel.view()->report();
        QVERIFY(report);
        QCOMPARE(report->programs.size(), std::size_t(2));
        QCOMPARE(panel.view()->categories().size(), 2);
        QVERIFY(panel.view()->totalGraph());
        QCOMPARE(panel.view()->totalGraph()->dataCount(), 2);
        // Efficiency: the bars of each program add up to its CPI change.
        for (const auto& p : report->programs)
            QVERIFY(std::abs(p.total.sum() - p.total.delta()) <=
                    1e-9 * std::abs(p.total.delta()) + 1e-12);
        QVERIFY(run->isEnabled());

        // Per region of one program.
        auto* mode = panel.findChild<QComboBox*>("shapley_mode");
        auto* program = panel.findChild<QComboBox*>("shapley_program");
        QCOMPARE(program->count(), 2);
        program->setCurrentText("beta");
        mode->setCurrentIndex(1);
        QCOMPARE(panel.view()->mode(), ShapleyView::Mode::Regions);
        QCOMPARE(panel.view()->program(), QString("beta"));
        QCOMPARE(panel.view()->categories().size(), 2); // beta has two regions
    }

    void drilledRegionBesideItsProgramAndBack() {
        ShapleyPanel panel;
        panel.setPredictor(predictor_);
        panel.setCurrentConfigs(onGrid(grid_, true), onGrid(grid_, false));
        auto* mode = panel.findChild<QComboBox*>("shapley_mode");
        QCOMPARE(mode->count(), 2); // no region chosen: no single-region entry
        panel.showRegion("alpha", "2");
        QCOMPARE(mode->count(), 3);
        QCOMPARE(mode->currentText(), QString("Region 2 of alpha"));
        QCOMPARE(panel.view()->mode(), ShapleyView::Mode::Region);
        QVERIFY(!panel.view()->hasData()); // nothing computed yet
        QSignalSpy finished(&panel, &ShapleyPanel::finished);
        panel.start();
        QVERIFY(finished.wait(20000));
        // Still the region after the run, which attributed every program.
        QCOMPARE(panel.view()->mode(), ShapleyView::Mode::Region);
        QVERIFY(panel.view()->shownRegion());
        QCOMPARE(panel.view()->shownRegion()->region, std::string("2"));
        QCOMPARE(panel.view()->program(), QString("alpha"));
        const Attribution& region = panel.view()->shownRegion()->attribution;
        QVERIFY(std::abs(region.sum() - region.delta()) <= 1e-9);
        // Another region replaces the entry; back removes it and shows every program.
        panel.showRegion("beta", "0");
        QCOMPARE(mode->count(), 3);
        QCOMPARE(mode->currentText(), QString("Region 0 of beta"));
        QCOMPARE(panel.view()->categories().first(), QString("beta region 0"));
        panel.showRegion("beta", QString());
        QCOMPARE(mode->count(), 2);
        QCOMPARE(panel.view()->mode(), ShapleyView::Mode::Programs);
        QCOMPARE(panel.view()->categories().size(), 2);
    }

    void pickersAreAsWideAsTheirEntries() {
        const PresetLibrary presets = PresetLibrary::loadDefault();
        ShapleyPanel panel;
        panel.setPresets(presets.presets());
        panel.showRegion("perl-regex", "12"); // the longest mode entry
        panel.resize(300, 400);               // narrower than the controls
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        // A larger font after the first show, as projector mode sets: the pickers grow with it.
        const QFont font = QApplication::font();
        QFont larger = font;
        larger.setPointSizeF(font.pointSizeF() * 1.6);
        QApplication::setFont(larger);
        const auto restore = qScopeGuard([&] { QApplication::setFont(font); });
        QTest::qWait(20);
        for (const char* name : {"shapley_baseline", "shapley_target", "shapley_mode"}) {
            auto* box = panel.findChild<QComboBox*>(name);
            QVERIFY(box);
            QVERIFY2(box->sizeAdjustPolicy() == QComboBox::AdjustToContents, name);
            // Laid out at least as wide as its longest entry needs: nothing is elided.
            QVERIFY2(box->width() >= box->sizeHint().width(), name);
            int widest = 0;
            for (int i = 0; i < box->count(); ++i)
                widest = std::max(widest, box->fontMetrics().horizontalAdvance(box->itemText(i)));
            QVERIFY2(box->width() > widest, name);
        }
    }

    void offGridConfigurationFailsWithAMessage() {
        ShapleyPanel panel;
        panel.setPredictor(predictor_);
        CoreConfig target = onGrid(grid_, false);
        target.set(ParamId::Rob, 512); // the tiny grid has 64 and 128
        panel.setCurrentConfigs(onGrid(grid_, true), target);
        QSignalSpy failed(&panel, &ShapleyPanel::failed);
        panel.start();
        QCOMPARE(failed.count(), 1);
        QVERIFY2(failed.at(0).at(0).toString().contains("rob"),
                 qPrintable(failed.at(0).at(0).toString()));
        QVERIFY(panel.status().startsWith("Cannot compute"));
        QVERIFY(!panel.running());
        panel.cancel(); // nothing running: a no-op
    }

    // Destroying the panel while its attribution runs cancels the run and waits for it: the
    // destructor returns promptly, the run no longer holds the model when it returns, and no
    // signal or queued end of the run reaches the panel afterwards.
    void destroyingARunningPanelIsSafe() {
        const long modelUsers = predictor_.use_count();
        auto panel = std::make_unique<ShapleyPanel>();
        panel->setPredictor(predictor_);
        panel->setCurrentConfigs(onGrid(grid_, true), onGrid(grid_, false));
        int signalsAfter = 0;
        bool destroying = false;
        QObject observer;
        for (auto signal : {&ShapleyPanel::finished, &ShapleyPanel::cancelled})
            connect(panel.get(), signal, &observer, [&] { signalsAfter += destroying ? 1 : 0; });
        connect(panel.get(), &ShapleyPanel::progressChanged, &observer,
                [&] { signalsAfter += destroying ? 1 : 0; });
        connect(panel.get(), &ShapleyPanel::failed, &observer,
                [&] { signalsAfter += destroying ? 1 : 0; });
        panel->start();
        QVERIFY(panel->running());
        QVERIFY(predictor_.use_count() > modelUsers); // the run holds the model

        QElapsedTimer clock;
        clock.start();
        destroying = true;
        panel.reset();
        QVERIFY2(clock.elapsed() < 5000, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(predictor_.use_count(), modelUsers); // the run has ended
        // Everything the run posted before it ended has been dropped with the panel.
        bool drained = false;
        QMetaObject::invokeMethod(
            &observer, [&drained] { drained = true; }, Qt::QueuedConnection);
        QTRY_VERIFY(drained);
        QCOMPARE(signalsAfter, 0);
    }
};

QTEST_MAIN(ShapleyPanelTest)
#include "ShapleyPanelTest.moc"
