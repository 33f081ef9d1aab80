// ShapleyPanel: baseline and target from the session or presets, a background attribution with
// progress, the result in the Shapley view, and errors shown instead of crashes. On the tiny
// explorer database (two programs, a random model).
#include "ShapleyPanel.h"

#include "ShapleyView.h"
#include "params/ParameterSpace.h"
#include "params/PresetLibrary.h"
#include "store/DatabasePredictor.h"
#include "store/FeatureDatabase.h"
// (TinyExplorerDatabase.h needs the parameter headers first.)
#include "../support/TinyExplorerDatabase.h"

#include <QComboBox>
#include <QProgressBar>
#include <QPushButton>
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

    void destroyingARunningPanelIsSafe() {
        auto panel = std::make_unique<ShapleyPanel>();
        panel->setPredictor(predictor_);
        panel->setCurrentConfigs(onGrid(grid_, true), onGrid(grid_, false));
        panel->start();
        panel.reset(); // cancels and joins the job; its queued completion is dropped
        QTest::qWait(50);
    }
};

QTEST_MAIN(ShapleyPanelTest)
#include "ShapleyPanelTest.moc"
