// `concorde check-monotone` run as a user would: usage errors exit 2 naming the option, a model
// that is monotone by construction exits 0 and one that is not exits 1 naming the parameter
// (hand-set models given with --model-from), and the shipped model's JSON counts every
// prediction.
#include "../support/CompleteRegions.h"
#include "../support/ConcordeProcess.h"
#include "../support/OneParameterModel.h"
#include "explore/MonotonicityCheck.h"
#include "store/FeatureDatabase.h"

#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>
#include <set>

using namespace concorde;
using concorde::test::ConcordeRun;
using concorde::test::runConcorde;

namespace {

const QString kShipped = QString(CONCORDE_SOURCE_DIR) + "/data/default.sqlite";

/// Complete regions of `programs` in the shipped database.
std::size_t shippedRegionsOf(const std::set<std::string>& programs) {
    return testing::completeRegionsOf(kShipped.toStdString(), programs);
}

/// Grid points of one base's sweeps: the sum of the checked parameters' grid sizes.
std::size_t gridPointsPerBase() {
    FeatureDatabase db = FeatureDatabase::openReadOnly(kShipped.toStdString());
    const BoundsGrid grid = db.buildSettings().grid;
    std::size_t points = 0;
    for (const auto& p : MonotonicityCheck::checkedParameters())
        points += grid[index(p.id)].size();
    return points;
}

nlohmann::json parse(const ConcordeRun& run) {
    return nlohmann::json::parse(run.out.toStdString());
}

} // namespace

class CheckMonotoneCliTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void helpListsTheOptions() {
        const ConcordeRun help = runConcorde({"help", "check-monotone"});
        QCOMPARE(help.exitCode, 0);
        for (const char* entry :
             {"--db DB", "--model-from DB2", "--bases N", "default: 200", "--seed S",
              "--tolerance PCT", "default: 0.5", "--program P", "--json", "Exits 0"})
            QVERIFY2(help.out.contains(entry), qPrintable(QString(entry) + " in\n" + help.out));
        QVERIFY(runConcorde({"--help"}).out.contains("check-monotone"));
    }

    void usageErrorsExitTwo() {
        const struct {
            QStringList args;
            QString message;
        } cases[] = {
            {{}, "--db is required"},
            {{"--db", kShipped, "--bases", "0"}, "--bases: 0 is out of range 1–1000000"},
            {{"--db", kShipped, "--bases", "-3"}, "--bases: expects a whole number"},
            {{"--db", kShipped, "--tolerance", "-1"}, "--tolerance: -1 is out of range 0–100"},
            {{"--db", kShipped, "--tolerance", "half"}, "--tolerance: expects a number"},
            {{"--db", kShipped, "--program", "nosuch", "--bases", "1"},
             "the database has no program 'nosuch'"},
            {{"--db", dir_.filePath("missing.sqlite")}, "missing.sqlite"},
        };
        for (const auto& c : cases) {
            const ConcordeRun run = runConcorde(QStringList{"check-monotone"} + c.args);
            QVERIFY2(run.exitCode == 2,
                     qPrintable(c.args.join(' ') + ": exit " + QString::number(run.exitCode)));
            QVERIFY2(run.err.contains(c.message), qPrintable(c.message + " not in\n" + run.err));
        }
    }

    // Known answers through --model-from: CPI falling with ROB passes, rising fails on rob.
    void exitCodeFollowsTheModel() {
        const QString models = dir_.filePath("models.sqlite");
        {
            FeatureDatabase db = FeatureDatabase::openForWriting(models.toStdString());
            db.writeModel(testing::oneParameterModel(ParamId::Rob, -1.0f, "falling"));
            db.writeModel(testing::oneParameterModel(ParamId::Rob, 1.0f, "rising"));
            db.close();
        }
        const QStringList common = {"check-monotone", "--db", kShipped,    "--model-from", models,
                                    "--bases",        "3",    "--program", "gzip,lua"};

        const ConcordeRun falling = runConcorde(common + QStringList{"--model", "falling"});
        QVERIFY2(falling.exitCode == 0, qPrintable(falling.err));
        const std::size_t regions = shippedRegionsOf({"gzip", "lua"});
        QVERIFY(regions >= 2);
        QVERIFY2(falling.out.contains(
                     QString("%1 regions of 2 programs at 3 base configurations").arg(regions)),
                 qPrintable(falling.out));
        QVERIFY(falling.out.contains("total"));
        QVERIFY(!falling.out.contains("worst steps"));

        const ConcordeRun rising = runConcorde(common + QStringList{"--model", "rising", "--json"});
        QCOMPARE(rising.exitCode, 1);
        QVERIFY2(rising.err.contains("the model is not monotone"), qPrintable(rising.err));
        const nlohmann::json json = parse(rising);
        QCOMPARE(json["monotone"].get<bool>(), false);
        QCOMPARE(json["model"].get<std::string>(), std::string("rising"));
        const std::size_t robSteps = regions * 3 * 9; // every step of the 10-value ROB grid
        QCOMPARE(json["violations"].get<std::size_t>(), robSteps);
        QCOMPARE(json["program_violations"].get<std::size_t>(), std::size_t(2 * 3 * 9));
        for (const auto& [key, tally] : json["per_parameter"].items())
            QCOMPARE(tally["violations"].get<std::size_t>(), key == "rob" ? robSteps : 0);
        QCOMPARE(json["worst"].size(), std::size_t(10));
        for (const auto& v : json["worst"])
            QCOMPARE(v["parameter"].get<std::string>(), std::string("rob"));
    }

    // The shipped model: whatever it finds, the JSON counts every region's predictions and
    // the exit code agrees with it.
    void shippedModelJson() {
        const ConcordeRun run = runConcorde({"check-monotone", "--db", kShipped, "--program",
                                             "gzip", "--bases", "2", "--seed", "5", "--json"});
        QVERIFY2(run.exitCode == 0 || run.exitCode == 1, qPrintable(run.err));
        const nlohmann::json json = parse(run);
        const std::size_t regions = shippedRegionsOf({"gzip"});
        QCOMPARE(json["regions"].get<std::size_t>(), regions);
        QCOMPARE(json["evaluations"].get<std::size_t>(), regions * 2 * gridPointsPerBase());
        QCOMPARE(json["seed"].get<std::uint64_t>(), std::uint64_t(5));
        QCOMPARE(json["tolerance"].get<double>(), 0.005);
        QCOMPARE(json["monotone"].get<bool>(), run.exitCode == 0);
    }
};

QTEST_GUILESS_MAIN(CheckMonotoneCliTest)
#include "CheckMonotoneCliTest.moc"
