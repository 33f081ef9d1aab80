// `concorde validate-db`, `predict` and the explorer's headless export on a copy of the shipped
// database with damaged data (issue 19, item 5): the damage is named, the damaged regions are
// skipped, and every other program predicts exactly what it predicts on the intact database.
#include "../support/CompleteRegions.h"
#include "../support/ConcordeProcess.h"
#include "../support/DamagedDatabase.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <map>

using namespace concorde;
using concorde::test::runConcorde;

namespace {

const QString kShipped = QString(CONCORDE_SOURCE_DIR) + "/data/default.sqlite";

/// program → its JSON object in `predict --all --json` output.
std::map<QString, QJsonObject> byProgram(const QJsonObject& result) {
    std::map<QString, QJsonObject> programs;
    for (const QJsonValue& p : result["programs"].toArray())
        programs[p.toObject()["program"].toString()] = p.toObject();
    return programs;
}

QJsonObject parse(const QString& text) {
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError)
        qWarning("not JSON: %s", qPrintable(text.left(400)));
    return doc.object();
}

/// Complete regions of a program in the shipped database.
int shippedRegionsOf(const std::string& program) {
    return static_cast<int>(testing::completeRegionsOf(kShipped.toStdString(), {program}));
}

} // namespace

class DamagedDatabaseCliTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString damaged_; ///< gzip region 4's rob group cut in half
    QString lost_;    ///< additionally every bzip2 region's lq group zeroed

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        damaged_ = dir_.filePath("damaged.sqlite");
        testing::copyDatabase(kShipped.toStdString(), damaged_.toStdString());
        testing::truncateSeriesBlob(damaged_.toStdString(), "gzip", 4, "rob");
        lost_ = dir_.filePath("lost.sqlite");
        testing::copyDatabase(damaged_.toStdString(), lost_.toStdString());
        testing::zeroSeriesBlobs(lost_.toStdString(), "bzip2", "lq");
    }

    void validateDbNamesTheDamage() {
        const auto run = runConcorde({"validate-db", damaged_});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("gzip region 4") && run.err.contains("series group rob"),
                 qPrintable(run.err));
        QVERIFY2(run.err.contains("series blob is"), qPrintable(run.err)); // why
        const int gzipRegions = shippedRegionsOf("gzip");
        QVERIFY(gzipRegions >= 2);
        QVERIFY2(run.err.contains("gzip: region 4 damaged") &&
                     run.err.contains(
                         QString("use the other %1 of %2").arg(gzipRegions - 1).arg(gzipRegions)),
                 qPrintable(run.err));
        const auto lost = runConcorde({"validate-db", lost_});
        QVERIFY2(lost.err.contains("bzip2: every region"), qPrintable(lost.err));
    }

    void predictSkipsTheDamagedRegionOnly() {
        const auto good = runConcorde({"predict", "--db", kShipped, "--all", "--json"});
        QCOMPARE(good.exitCode, 0);
        const auto bad = runConcorde({"predict", "--db", damaged_, "--all", "--json"});
        QVERIFY2(bad.exitCode == 0, qPrintable(bad.err));
        QVERIFY2(bad.err.contains("1 damaged region skipped") && bad.err.contains("gzip region 4"),
                 qPrintable(bad.err));
        const QJsonObject result = parse(bad.out);
        const QJsonArray damaged = result["damaged_regions"].toArray();
        QCOMPARE(damaged.size(), 1);
        QCOMPARE(damaged[0].toObject()["program"].toString(), QStringLiteral("gzip"));
        QCOMPARE(damaged[0].toObject()["index"].toInt(), 4);
        QCOMPARE(damaged[0].toObject()["part"].toString(), QStringLiteral("series group rob"));
        QVERIFY(!damaged[0].toObject()["problem"].toString().isEmpty());

        const auto before = byProgram(parse(good.out));
        const auto after = byProgram(result);
        QCOMPARE(after.size(), before.size());
        for (const auto& [name, program] : before) {
            const QJsonObject& now = after.at(name);
            if (name == "gzip") {
                QCOMPARE(now["skipped_regions"].toArray(), QJsonArray{4});
                QCOMPARE(now["regions"].toArray().size(), program["regions"].toArray().size() - 1);
                // its other regions are unchanged
                for (const QJsonValue& region : now["regions"].toArray())
                    for (const QJsonValue& old : program["regions"].toArray())
                        if (old.toObject()["index"] == region.toObject()["index"])
                            QCOMPARE(region.toObject()["cpi"].toDouble(),
                                     old.toObject()["cpi"].toDouble());
                continue;
            }
            QVERIFY(now["skipped_regions"].toArray().isEmpty());
            QCOMPARE(now["cpi"].toDouble(), program["cpi"].toDouble());
        }
    }

    void predictFailsClearlyWhenNothingIsLeft() {
        const auto run = runConcorde({"predict", "--db", lost_, "--program", "bzip2"});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("nothing left to predict") && run.err.contains("bzip2 region 0"),
                 qPrintable(run.err));
        // Every other program still predicts from the same database.
        const auto all = runConcorde({"predict", "--db", lost_, "--all"});
        QCOMPARE(all.exitCode, 0);
        QVERIFY(!all.out.contains("bzip2"));
        // gzip's one and every bzip2 region
        const int skipped = 1 + shippedRegionsOf("bzip2");
        QVERIFY2(all.err.contains(QString("%1 damaged regions skipped").arg(skipped)),
                 qPrintable(all.err));
    }

    void headlessExportWarnsAndExports() {
        const QString binary = QString(CONCORDE_BINARY_DIR) + "/bin/concorde-explorer";
        if (!QFile::exists(binary))
            QSKIP("built without the GUI");
        const QString csv = dir_.filePath("overview.csv");
        QProcess explorer;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("QT_QPA_PLATFORM", "offscreen");
        explorer.setProcessEnvironment(env);
        explorer.start(binary, {damaged_, "--export", "overview", "-o", csv});
        QVERIFY(explorer.waitForFinished(300'000));
        const QString err = QString::fromUtf8(explorer.readAllStandardError());
        QVERIFY2(explorer.exitCode() == 0, qPrintable(err));
        QVERIFY2(err.contains("warning") && err.contains("gzip region 4"), qPrintable(err));
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().contains("\ngzip,"));
    }
};

QTEST_GUILESS_MAIN(DamagedDatabaseCliTest)
#include "DamagedDatabaseCliTest.moc"
