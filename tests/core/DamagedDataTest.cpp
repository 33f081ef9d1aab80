// Damaged data degrades, it does not refuse (issue 19, item 5): a damaged series blob or regions
// row leaves its region out, named, and everything else predicts exactly as on the intact
// database. Each test damages a copy of the tiny explorer database.
#include "../support/DamagedDatabase.h"
#include "../support/TinyExplorerDatabase.h"
#include "common/ConcordeError.h"
#include "explore/ConfigChecker.h"
#include "explore/DatabasePredictor.h"
#include "explore/ExplorerModel.h"
#include "store/DatabaseValidator.h"
#include "store/FeatureDatabase.h"
#include "store/RegionCatalog.h"

#include <QTemporaryDir>
#include <QtTest>
#include <memory>

using namespace concorde;

namespace {

CoreConfig onTinyGrid() {
    return ConfigChecker(ParameterGrid(testing::tinyExplorerGrid()), {}).snap(CoreConfig{});
}

std::size_t programIndex(const ExplorerModel& model, const std::string& name) {
    const auto& names = model.programs();
    return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
}

} // namespace

class DamagedDataTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::filesystem::path intact_;
    int copies_ = 0;

    std::filesystem::path copy() {
        return testing::copyDatabase(
            intact_,
            dir_.filePath(QStringLiteral("damaged-%1.sqlite").arg(++copies_)).toStdString());
    }

private slots:
    void initTestCase() {
        intact_ = dir_.filePath(QStringLiteral("tiny.sqlite")).toStdString();
        testing::buildTinyExplorerDatabase(intact_);
    }

    // One truncated series blob: the explorer opens, names the region and the group, and every
    // other region predicts what it predicts on the intact database.
    void damagedSeriesBlobSkipsOnlyItsRegion() {
        const auto damaged = copy();
        testing::truncateSeriesBlob(damaged, "alpha", 1, "rob");
        const auto good = ExplorerModel::open(intact_);
        std::unique_ptr<ExplorerModel> model;
        try {
            model = ExplorerModel::open(damaged);
        } catch (const std::exception& e) {
            QFAIL(qPrintable(QStringLiteral("the damaged database was refused: %1").arg(e.what())));
        }
        QCOMPARE(model->damaged().size(), std::size_t(1));
        const RegionCatalog::Damage& d = model->damaged().front();
        QCOMPARE(d.program, std::string("alpha"));
        QCOMPARE(d.regionIndex, std::int64_t(1));
        QCOMPARE(d.part, std::string("series group rob"));
        QVERIFY2(d.problem.find("series blob") != std::string::npos, d.problem.c_str());
        QCOMPARE(model->programs(), good->programs());
        QCOMPARE(model->regionCount("alpha"), std::size_t(2));
        QCOMPARE(model->regionCount("beta"), std::size_t(2));

        const CoreConfig config = onTinyGrid();
        const std::vector<double> cpis = model->programCpis(config);
        const std::vector<double> goodCpis = good->programCpis(config);
        // beta is untouched: the same number to the last bit.
        QCOMPARE(cpis[programIndex(*model, "beta")], goodCpis[programIndex(*good, "beta")]);
        // alpha is the instruction-weighted mean of its two intact regions on the good database.
        double weighted = 0, total = 0;
        const DatabasePredictor& predictor = good->predictor();
        for (const std::size_t r : predictor.regionsOf("alpha")) {
            if (predictor.regions()[r].regionIndex == 1)
                continue;
            const auto w = static_cast<double>(predictor.regions()[r].length);
            weighted += w * predictor.regionCpi(r, config);
            total += w;
        }
        QVERIFY(std::abs(cpis[programIndex(*model, "alpha")] - weighted / total) <=
                1e-12 * weighted / total);
        QVERIFY(cpis[programIndex(*model, "alpha")] != goodCpis[programIndex(*good, "alpha")]);

        // The snapshot the views show carries the damage.
        const ExplorerPrediction p = model->predict(config, config, "alpha");
        QVERIFY(p.programDamage.at(programIndex(*model, "alpha")).find("1 of 3 regions") !=
                std::string::npos);
        QVERIFY(p.programDamage.at(programIndex(*model, "beta")).empty());
        QVERIFY(p.damageSummary.find("alpha region 1") != std::string::npos);
        QVERIFY(p.lostPrograms.empty());
    }

    // Impossible values in a regions row, and a basic-block vector that no longer decodes: the
    // catalog leaves those regions out and says why instead of refusing every region.
    void damagedRegionRowsAreListedNotFatal() {
        const auto damaged = copy();
        testing::damage(damaged, "UPDATE regions SET warmup = -5 WHERE id = " +
                                     testing::regionIdSql("alpha", 0));
        testing::damage(damaged, "UPDATE regions SET bbv = randomblob(40) WHERE id = " +
                                     testing::regionIdSql("beta", 1));
        FeatureDatabase db = FeatureDatabase::openReadOnly(damaged);
        const RegionCatalog catalog = RegionCatalog::read(db);
        QCOMPARE(catalog.regions().size(), std::size_t(3));
        QCOMPARE(catalog.damaged().size(), std::size_t(2));
        QCOMPARE(catalog.damaged()[0].program, std::string("alpha"));
        QCOMPARE(catalog.damaged()[0].part, std::string("regions row"));
        QVERIFY2(catalog.damaged()[0].problem.find("warmup") != std::string::npos,
                 catalog.damaged()[0].problem.c_str());
        QCOMPARE(catalog.damaged()[1].program, std::string("beta"));
        QCOMPARE(catalog.damaged()[1].regionIndex, std::int64_t(1));
        QVERIFY2(catalog.damaged()[1].problem.find("basic-block vector") != std::string::npos,
                 catalog.damaged()[1].problem.c_str());
        QCOMPARE(catalog.damagedPrograms(), (std::vector<std::string>{"alpha", "beta"}));
        // The strict reader still refuses the row (writers and validate-db use it).
        QVERIFY_THROWS_EXCEPTION(ConcordeError, db.regions());
        const auto model = ExplorerModel::open(damaged);
        QCOMPARE(model->regionCount("alpha"), std::size_t(2));
        QCOMPARE(model->regionCount("beta"), std::size_t(1));
    }

    // A program whose every region is damaged has nothing to predict: the others do, the
    // program is named as lost, and asking for it alone is an error naming the damage.
    void programWithEveryRegionDamaged() {
        const auto damaged = copy();
        testing::zeroSeriesBlobs(damaged, "beta", "lq");
        const auto model = ExplorerModel::open(damaged);
        QCOMPARE(model->programs(), std::vector<std::string>{"alpha"});
        QCOMPARE(model->damaged().size(), std::size_t(2));
        const ExplorerPrediction p = model->predict(onTinyGrid(), onTinyGrid(), "alpha");
        QCOMPARE(p.lostPrograms.size(), std::size_t(1));
        QCOMPARE(p.lostPrograms.front().first, std::string("beta"));
        QVERIFY(p.lostPrograms.front().second.find("series group lq") != std::string::npos);

        FeatureDatabase db = FeatureDatabase::openReadOnly(damaged);
        try {
            DatabasePredictor(db, *db.readModel(), {"beta"});
            QFAIL("predicting a program with nothing left did not fail");
        } catch (const ConcordeError& e) {
            QCOMPARE(e.kind(), ErrorKind::BadInput);
            const std::string message = e.what();
            QVERIFY2(message.find("nothing left to predict") != std::string::npos, e.what());
            QVERIFY2(message.find("beta region 0") != std::string::npos, e.what());
        }
        // With another program asked for too, the damaged one is skipped and the rest predicts.
        const DatabasePredictor both(db, *db.readModel(), {"alpha", "beta"});
        QCOMPARE(both.programs(), std::vector<std::string>{"alpha"});
        QCOMPARE(both.damaged().size(), std::size_t(2));
    }

    // validate-db's check names the damaged region, the part and why, and per program what
    // predictions still have.
    void validatorSumsUpWhatIsLeft() {
        const auto damaged = copy();
        testing::truncateSeriesBlob(damaged, "alpha", 2, "lq");
        testing::damage(damaged, "UPDATE regions SET length = 0 WHERE id = " +
                                     testing::regionIdSql("beta", 0));
        const DatabaseValidator::Report report = DatabaseValidator::validate(damaged);
        QVERIFY(!report.clean());
        QCOMPARE(report.damagedRegions, std::size_t(2));
        bool named = false;
        for (const std::string& problem : report.problems)
            named = named || (problem.find("alpha region 2") != std::string::npos &&
                              problem.find("series group lq") != std::string::npos);
        QVERIFY(named);
        QCOMPARE(report.damagedPrograms.size(), std::size_t(2));
        QVERIFY2(report.damagedPrograms[0].find("alpha: region 2 damaged") == 0 &&
                     report.damagedPrograms[0].find("other 2 of 3") != std::string::npos,
                 report.damagedPrograms[0].c_str());
        QVERIFY2(report.damagedPrograms[1].find("beta: region 0 damaged") == 0,
                 report.damagedPrograms[1].c_str());
        // The intact database has none.
        const DatabaseValidator::Report clean = DatabaseValidator::validate(intact_);
        QCOMPARE(clean.damagedRegions, std::size_t(0));
        QVERIFY(clean.damagedPrograms.empty());
    }
};

QTEST_GUILESS_MAIN(DamagedDataTest)
#include "DamagedDataTest.moc"
