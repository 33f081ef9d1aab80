// The explorer on a database with damaged regions (issue 19, item 5): it opens, predicts every
// intact program exactly as on the intact database, and shows what it skipped — a banner over
// the overview, ⚠ on the damaged programs' rows with hover text, a caption, rows without bars for
// programs with nothing left, a header warning for the selected program and a status message.
#include "../support/DamagedDatabase.h"

#include "../support/ExplorerTestSession.h"
#include "MainWindow.h"
#include "OverviewPage.h"
#include "OverviewView.h"
#include "PredictionHeader.h"
#include "Session.h"
#include "params/PresetLibrary.h"

#include <QLabel>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>
#include <memory>
#include <qcustomplot.h>

using namespace concorde;
using concorde::ui::OverviewView;
using concorde::ui::Session;

namespace {

const OverviewView::Row* rowOf(const OverviewView& view, const QString& program) {
    for (const OverviewView::Row& row : view.rows())
        if (row.program == program)
            return &row;
    return nullptr;
}

/// The plot's point of the middle of row `program`'s bars.
QPointF rowCentre(const OverviewView& view, const QString& program) {
    const int n = int(view.rows().size());
    for (int i = 0; i < n; ++i)
        if (view.rows()[i].program == program) {
            QCPAxis* keys = view.targetBars()->keyAxis();
            QCPAxis* values = view.targetBars()->valueAxis();
            return {values->coordToPixel(values->range().upper * 0.05),
                    keys->coordToPixel(double(n - i))};
        }
    return {};
}

} // namespace

class DamagedDatabaseTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString intact_, damaged_, lost_;

private slots:
    void initTestCase() {
        intact_ = dir_.filePath("tiny.sqlite");
        testing::buildTinyExplorerDatabase(intact_.toStdString());
        damaged_ = dir_.filePath("damaged.sqlite");
        testing::copyDatabase(intact_.toStdString(), damaged_.toStdString());
        testing::truncateSeriesBlob(damaged_.toStdString(), "alpha", 1, "rob");
        lost_ = dir_.filePath("lost.sqlite");
        testing::copyDatabase(damaged_.toStdString(), lost_.toStdString());
        testing::zeroSeriesBlobs(lost_.toStdString(), "beta", "lq");
    }

    void opensAndPredictsTheRest() {
        std::unique_ptr<Session> good(testing::newTinySession());
        QVERIFY(good->openDatabaseNow(intact_));
        good->recomputeNow();
        std::unique_ptr<Session> session(testing::newTinySession());
        QString error;
        QVERIFY2(session->openDatabaseNow(damaged_, &error), qPrintable(error));
        QVERIFY(session->setProgram("alpha"));
        session->recomputeNow();
        QVERIFY(session->prediction());
        const auto& p = *session->prediction();
        const auto& g = *good->prediction();
        QCOMPARE(p.programs, g.programs);
        // beta is intact: exactly the intact database's prediction; alpha lost a region.
        QCOMPARE(p.targetCpi[1], g.targetCpi[1]);
        QCOMPARE(p.baselineCpi[1], g.baselineCpi[1]);
        QVERIFY(p.targetCpi[0] != g.targetCpi[0]);
        QCOMPARE(p.regions.size(), std::size_t(2));

        const QString warning = session->damageWarning();
        QVERIFY2(warning.contains("1 damaged region skipped") && warning.contains("alpha region 1"),
                 qPrintable(warning));
        QVERIFY(session->damageDetails().contains("series group rob"));
        QVERIFY(good->damageWarning().isEmpty());
    }

    void overviewMarksTheDamage() {
        std::unique_ptr<Session> session(testing::newTinySession());
        QVERIFY(session->openDatabaseNow(damaged_));
        session->recomputeNow();
        ui::OverviewPage page(*session);
        page.resize(1000, 600);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QLabel* banner = page.findChild<QLabel*>("damage_banner");
        QVERIFY(banner);
        QVERIFY(banner->isVisible());
        QVERIFY2(banner->text().startsWith(QStringLiteral("⚠")) &&
                     banner->text().contains("alpha region 1"),
                 qPrintable(banner->text()));
        QVERIFY(banner->toolTip().contains("series group rob"));

        OverviewView& view = *page.view();
        const OverviewView::Row* alpha = rowOf(view, "alpha");
        const OverviewView::Row* beta = rowOf(view, "beta");
        QVERIFY(alpha && beta);
        QVERIFY2(alpha->damage.contains("1 of 3 regions"), qPrintable(alpha->damage));
        QVERIFY(beta->damage.isEmpty());
        QVERIFY(view.caption().contains("Damaged data"));
        const QString hover = view.hoverTextAt(rowCentre(view, "alpha"));
        QVERIFY2(hover.contains("Damaged data") && hover.contains("series group rob"),
                 qPrintable(hover));
        QVERIFY(!view.hoverTextAt(rowCentre(view, "beta")).contains("Damaged"));
        // The program axis names the damaged program with the warning sign.
        QCPAxis* names = view.targetBars()->keyAxis();
        bool marked = false;
        for (const QString& label : names->tickVectorLabels())
            marked = marked || (label.contains(QStringLiteral("⚠")) && label.contains("alpha"));
        QVERIFY(marked);

        // The same page on the intact database shows none of it.
        std::unique_ptr<Session> good(testing::newTinySession());
        QVERIFY(good->openDatabaseNow(intact_));
        good->recomputeNow();
        ui::OverviewPage clean(*good);
        QVERIFY(!clean.damageBanner()->isVisibleTo(&clean));
        QVERIFY(clean.view()->caption().isEmpty());
    }

    void programWithNothingLeftStaysVisible() {
        std::unique_ptr<Session> session(testing::newTinySession());
        QVERIFY(session->openDatabaseNow(lost_));
        session->recomputeNow();
        QCOMPARE(session->programs(), QStringList{"alpha"});
        ui::OverviewPage page(*session);
        const OverviewView::Row* beta = rowOf(*page.view(), "beta");
        QVERIFY(beta);
        QVERIFY(beta->lost);
        QCOMPARE(page.view()->rows().back().program, QStringLiteral("beta"));
        // No CPI for it in the CSV.
        for (const auto& row : page.view()->dataTable().rows)
            QVERIFY(row.front() != "beta");
        QVERIFY(session->damageWarning().contains("3 damaged regions skipped"));
    }

    void headerAndStatusBarWarn() {
        std::unique_ptr<Session> session(testing::newTinySession());
        QVERIFY(session->openDatabaseNow(damaged_));
        QVERIFY(session->setProgram("alpha"));
        session->recomputeNow();
        ui::PredictionHeader header(*session);
        header.show();
        QVERIFY(header.warningLabel()->isVisibleTo(&header));
        QVERIFY2(header.warningLabel()->toolTip().contains("regions damaged and skipped"),
                 qPrintable(header.warningLabel()->toolTip()));

        std::unique_ptr<Session> windowSession(testing::newTinySession());
        ui::MainWindow window(*windowSession, PresetLibrary::loadDefault());
        QVERIFY(windowSession->openDatabaseNow(damaged_));
        QVERIFY2(window.statusBar()->currentMessage().contains("damaged region"),
                 qPrintable(window.statusBar()->currentMessage()));
    }
};

QTEST_MAIN(DamagedDatabaseTest)
#include "DamagedDatabaseTest.moc"
