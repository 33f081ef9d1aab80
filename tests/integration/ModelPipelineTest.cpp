// The whole modelling pipeline through the real `concorde` executable, as a user runs it:
// real sample traces → feature database → dataset → training → evaluation → predictions, on a
// small grid so that it fits in CI. The model must beat the min-of-bounds baseline on regions
// it never saw, and predictions must follow the documented JSON contract.
#include "../support/ConcordeProcess.h"
#include "store/DatasetFile.h"
#include "store/SqliteConnection.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

using concorde::test::ConcordeRun;
using concorde::test::runConcorde;

namespace {

const QString kSamples = QString(CONCORDE_SOURCE_DIR) + "/data/samples/";

QJsonObject json(const ConcordeRun& run) {
    return QJsonDocument::fromJson(run.out.toUtf8()).object();
}

/// Why `value` (at `where`) is not a number a user can trust, or empty: no NaN or infinity
/// (spelled out, or as JSON null, which is how nlohmann writes NaN), and no CPI of 0 or less.
/// Null is allowed only for the fields documented as optional ("phase": not clustered yet).
QString untrustworthy(const QJsonValue& value, const QString& where) {
    static const QStringList kMayBeNull = {"phase"};
    if (value.isNull() && !kMayBeNull.contains(where.section('.', -1)))
        return where + " is null (NaN?)";
    if (value.isDouble()) {
        const double v = value.toDouble();
        if (!std::isfinite(v))
            return where + " is not finite";
        const QString key = where.section('.', -1).toLower();
        if ((key == "cpi" || key.endsWith("_cpi")) && !(v > 0))
            return where + " is a CPI of " + QString::number(v);
    }
    if (value.isArray()) {
        const QJsonArray array = value.toArray();
        for (qsizetype i = 0; i < array.size(); ++i)
            if (QString why = untrustworthy(array[i], QString("%1[%2]").arg(where).arg(i));
                !why.isEmpty())
                return why;
    }
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end(); ++it)
            if (QString why = untrustworthy(it.value(), where + "." + it.key()); !why.isEmpty())
                return why;
    }
    return {};
}

/// A command's --json output: exit 0, valid JSON, no nan or inf in the text or the values.
QString checkJsonOutput(const ConcordeRun& run, const QString& command) {
    if (run.exitCode != 0)
        return command + " exited " + QString::number(run.exitCode) + ": " + run.err;
    static const QRegularExpression word(R"(\b-?(nan|inf|infinity)\b)",
                                         QRegularExpression::CaseInsensitiveOption);
    if (const auto match = word.match(run.out); match.hasMatch())
        return command + " printed " + match.captured(0);
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(run.out.toUtf8(), &error);
    if (document.isNull())
        return command + " printed no JSON: " + error.errorString();
    return untrustworthy(document.isObject() ? QJsonValue(document.object())
                                             : QJsonValue(document.array()),
                         command);
}

} // namespace

class ModelPipelineTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString db_, dataset_;

    QString path(const QString& name) const { return dir_.filePath(name); }
    /// predict on the test grid (the default configuration is off it), ROB size `rob`.
    ConcordeRun predict(const QString& program, int rob, QStringList extra = {}) const {
        QStringList args = {"predict", "--db", db_, "--program", program};
        for (const QString& assignment :
             {QString("rob=%1").arg(rob), QString("lq=64"), QString("sq=32"), QString("l1d_kb=32"),
              QString("l1i_kb=64"), QString("l2_kb=2048"), QString("pf_degree=2"),
              QString("fetch_buffers=8"), QString("icache_fills=4"), QString("bp_miss_pct=5")})
            args << "--set" << assignment;
        return runConcorde(args + extra);
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        db_ = path("progs.sqlite");
        dataset_ = path("train.dataset");
        // Two values for the parameters that matter most, one for the rest: 8 memory
        // configurations keep build-db at a second or two per region.
        QFile grid(path("grid.json"));
        QVERIFY(grid.open(QIODevice::WriteOnly));
        grid.write(R"({"rob": [64, 256], "lq": [16, 64], "sq": [32], "l1d_kb": [32, 128],
                       "l1i_kb": [64], "l2_kb": [512, 2048], "pf_degree": [0, 2],
                       "fetch_buffers": [2, 8], "icache_fills": [4], "bp_miss_pct": [0, 5]})");
        grid.close();
        const ConcordeRun build =
            runConcorde({"build-db", "--out", db_, "--grid", grid.fileName(),
                         kSamples + "gzip-decompress.ctrace", kSamples + "xz-compress.ctrace",
                         kSamples + "perl-regex.ctrace"});
        QVERIFY2(build.exitCode == 0, qPrintable(build.err));
    }

    void datasetIsDrawnAndResumable() {
        const ConcordeRun first =
            runConcorde({"dataset", "--db", db_, "--samples", "1200", "--out", dataset_});
        QVERIFY2(first.exitCode == 0, qPrintable(first.err));
        QVERIFY2(first.out.contains("1200 drawn, 0 already present"), qPrintable(first.out));
        // More draws later: only the new ones are simulated.
        const ConcordeRun more =
            runConcorde({"dataset", "--db", db_, "--samples", "1500", "--out", dataset_});
        QVERIFY2(more.exitCode == 0, qPrintable(more.err));
        QVERIFY2(more.out.contains("300 drawn, 1200 already present, 1500 in the file"),
                 qPrintable(more.out));
        // A resumed run must ask for the same draws.
        const ConcordeRun otherSeed = runConcorde(
            {"dataset", "--db", db_, "--samples", "1500", "--out", dataset_, "--seed", "9"});
        QCOMPARE(otherSeed.exitCode, 2);
        QVERIFY2(otherSeed.err.contains("different seed"), qPrintable(otherSeed.err));

        // Issue 23: resume appended onto damaged rows (a crash, a damaged file), which train
        // then refused. Resume checks the rows there, removes the damaged ones, draws exactly
        // those again and says so.
        {
            concorde::SqliteConnection connection(dataset_.toStdString(),
                                                  concorde::SqliteConnection::Mode::ReadWrite);
            connection.exec("UPDATE samples SET features = x'00' WHERE id = 3", "damaging");
            connection.exec("UPDATE samples SET cpi = 0 WHERE id = 7", "damaging");
            connection.exec(R"(UPDATE samples SET config_json = '{"rob": null' WHERE id = 9)",
                            "damaging");
        }
        const QStringList again = {"dataset", "--db", db_, "--samples", "1500", "--out", dataset_};
        const ConcordeRun repaired = runConcorde(again);
        QVERIFY2(repaired.exitCode == 0, qPrintable(repaired.err));
        QVERIFY2(repaired.out.contains("3 damaged samples removed and drawn again") &&
                     repaired.out.contains("sample 3") &&
                     repaired.out.contains("3 drawn, 1497 already present, 1500 in the file"),
                 qPrintable(repaired.out));
        QCOMPARE(concorde::DatasetFile::openReadOnly(dataset_.toStdString()).samples().size(),
                 std::size_t(1500));
        const ConcordeRun clean = runConcorde(again);
        QVERIFY2(clean.exitCode == 0 && !clean.out.contains("damaged") &&
                     clean.out.contains("0 drawn, 1500 already present"),
                 qPrintable(clean.out));
    }

    void trainedModelBeatsMinOfBoundsOnUnseenRegions() {
        const ConcordeRun train =
            runConcorde({"train", "--dataset", dataset_, "--db", db_, "--hidden", "32", "--epochs",
                         "200", "--batch", "32", "--patience", "30", "--json"});
        QVERIFY2(train.exitCode == 0, qPrintable(train.err));
        const QString trainCheck = checkJsonOutput(train, "train");
        QVERIFY2(trainCheck.isEmpty(), qPrintable(trainCheck));
        const QJsonObject metrics = json(train);
        QVERIFY(metrics["training"].toObject()["epochs_run"].toInt() >= 1);

        const ConcordeRun evaluate =
            runConcorde({"evaluate", "--dataset", dataset_, "--db", db_, "--json"});
        QVERIFY2(evaluate.exitCode == 0, qPrintable(evaluate.err));
        const QJsonObject result = json(evaluate);
        QCOMPARE(result["split"].toString(), QString("test"));
        const double model = result["mean_rel_error"].toDouble(-1);
        const QJsonObject baselines = result["baselines"].toObject();
        const double minOfBounds =
            baselines["min_of_bounds"].toObject()["mean_rel_error"].toDouble(-1);
        const double linear = baselines["linear"].toObject()["mean_rel_error"].toDouble(-1);
        qInfo("test split: model %.2f %%, min of bounds %.2f %%, linear %.2f %%", 100 * model,
              100 * minOfBounds, 100 * linear);
        QVERIFY(model > 0 && minOfBounds > 0 && linear > 0);
        QVERIFY2(model < minOfBounds, "the model must beat the min-of-bounds baseline");
        const double over = result["frac_over_10pct"].toDouble(-1);
        QVERIFY(over >= 0 && over <= 1);
        // Region 3 of each program is the test split: every program is in it.
        QCOMPARE(result["per_program"].toObject().keys(),
                 (QStringList{"gzip-decompress", "perl-regex", "xz-compress"}));
        // Per parameter value: every value of the grid's two-valued rob appears.
        QCOMPARE(result["per_parameter"].toObject()["rob"].toObject().keys(),
                 (QStringList{"256", "64"}));
    }

    void predictFollowsTheJsonContract() {
        const ConcordeRun large = predict("gzip-decompress", 256, {"--json"});
        QVERIFY2(large.exitCode == 0, qPrintable(large.err));
        const QJsonObject result = json(large);
        const double cpi = result["cpi"].toDouble(-1);
        QVERIFY(cpi > 0.05 && cpi < 50);
        const QJsonArray regions = result["regions"].toArray();
        QCOMPARE(regions.size(), 4);
        double weighted = 0, total = 0;
        for (const auto& value : regions) {
            const QJsonObject r = value.toObject();
            weighted += r["cpi"].toDouble() * r["instructions"].toDouble();
            total += r["instructions"].toDouble();
        }
        QVERIFY(std::abs(weighted / total - cpi) < 1e-9 * cpi);
        // The model sees the parameter.
        const ConcordeRun small = predict("gzip-decompress", 64, {"--json"});
        QCOMPARE(small.exitCode, 0);
        QVERIFY(json(small)["cpi"].toDouble() != cpi);
    }

    void predictRejectsBadRequests() {
        const ConcordeRun offGrid = predict("gzip-decompress", 128);
        QCOMPARE(offGrid.exitCode, 2);
        QVERIFY2(offGrid.err.contains("'rob'") && offGrid.err.contains("not on the grid"),
                 qPrintable(offGrid.err));
        const ConcordeRun outOfRange = predict("gzip-decompress", 99999);
        QCOMPARE(outOfRange.exitCode, 2);
        QVERIFY2(outOfRange.err.contains("rob"), qPrintable(outOfRange.err));
        const ConcordeRun unknown = runConcorde({"predict", "--db", db_, "--program", "doom"});
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY2(unknown.err.contains("no program 'doom'") && unknown.err.contains("perl-regex"),
                 qPrintable(unknown.err));
        const ConcordeRun missing =
            runConcorde({"predict", "--db", path("absent.sqlite"), "--program", "x"});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY2(missing.err.contains("no such database file"), qPrintable(missing.err));
    }

    // Labels from `concorde label`, and the model of another database checked on them.
    void evaluateOnDatabaseLabelsAndWithAnotherDatabasesModel() {
        const ConcordeRun label =
            runConcorde({"label", "--db", db_, "--configs", "3", "--seed", "4"});
        QVERIFY2(label.exitCode == 0, qPrintable(label.err));
        const ConcordeRun own = runConcorde({"evaluate", "--db", db_, "--json"});
        QVERIFY2(own.exitCode == 0, qPrintable(own.err));
        const QJsonObject ownResult = json(own);
        QCOMPARE(ownResult["samples"].toInt(), 3 * 12);
        QVERIFY(ownResult["mean_rel_error"].toDouble(-1) >= 0);
        QVERIFY(ownResult["baselines"].toObject().contains("min_of_bounds"));

        // A copy of the database without its model evaluates with --model-from the original.
        const QString copy = path("copy.sqlite");
        QVERIFY(QFile::copy(db_, copy));
        const ConcordeRun noModel = runConcorde({"evaluate", "--db", copy, "--model", "nope"});
        QCOMPARE(noModel.exitCode, 2);
        QVERIFY2(noModel.err.contains("no model called 'nope'"), qPrintable(noModel.err));
        const ConcordeRun other =
            runConcorde({"evaluate", "--db", copy, "--model-from", db_, "--json"});
        QVERIFY2(other.exitCode == 0, qPrintable(other.err));
        QCOMPARE(json(other)["mean_rel_error"].toDouble(), ownResult["mean_rel_error"].toDouble());
        QCOMPARE(json(other)["model_from"].toString(), db_);

        // --record keeps the measured accuracy with the model.
        QCOMPARE(runConcorde({"evaluate", "--db", db_, "--record"}).exitCode, 0);
        const ConcordeRun info = runConcorde({"info", db_, "--json"});
        QVERIFY2(info.exitCode == 0, qPrintable(info.err));
        const auto recorded = [&] {
            const ConcordeRun run = runConcorde({"info", db_, "--json"});
            return json(run)["models"].toArray()[0].toObject()["accuracy"].toObject();
        };
        QVERIFY(recorded().contains("labels"));

        // --record-never-seen keeps the model's accuracy on programs it never saw, in the
        // database the model comes from. Labels of its own training programs are refused by
        // name and leave the model as it was.
        const QStringList neverSeen = {"evaluate",     "--db", copy,
                                       "--model-from", db_,    "--record-never-seen"};
        const ConcordeRun trainedOn = runConcorde(neverSeen);
        QCOMPARE(trainedOn.exitCode, 2);
        QVERIFY2(trainedOn.err.contains("trained on 'gzip-decompress'") &&
                     trainedOn.err.contains("nothing recorded"),
                 qPrintable(trainedOn.err));
        QVERIFY(!recorded().contains("never_seen"));
        const ConcordeRun noModelFrom =
            runConcorde({"evaluate", "--db", copy, "--record-never-seen"});
        QCOMPARE(noModelFrom.exitCode, 2);
        QVERIFY2(noModelFrom.err.contains("needs --db and --model-from"),
                 qPrintable(noModelFrom.err));
        // The same regions under other names stand for a user's own programs here.
        concorde::SqliteConnection(copy.toStdString(), concorde::SqliteConnection::Mode::ReadWrite)
            .exec("UPDATE programs SET name = 'own-' || name", "renaming the programs");
        const ConcordeRun userOwn = runConcorde(neverSeen);
        QVERIFY2(userOwn.exitCode == 0, qPrintable(userOwn.err));
        const QJsonObject stored = recorded()["never_seen"].toObject();
        QCOMPARE(stored["samples"].toInt(), 3 * 12);
        QVERIFY(std::abs(stored["mean_rel_error"].toDouble(-1) -
                         ownResult["mean_rel_error"].toDouble()) < 1e-12);
        // The database still validates and its model still predicts.
        const ConcordeRun valid = runConcorde({"validate-db", db_});
        QVERIFY2(valid.exitCode == 0, qPrintable(valid.err));
    }

    // Issue 23: validate-db said OK on a database whose model could not be loaded (its parts
    // disagree), which the explorer then refused. It loads and runs every model now.
    void validateDbLoadsAndRunsTheModel() {
        const ConcordeRun good = runConcorde({"validate-db", db_});
        QVERIFY2(good.exitCode == 0, qPrintable(good.err));
        QVERIFY2(good.out.contains("1 model checked"), qPrintable(good.out));
        const QString broken = path("broken-model.sqlite");
        QVERIFY(QFile::copy(db_, broken));
        {
            concorde::SqliteConnection connection(broken.toStdString(),
                                                  concorde::SqliteConnection::Mode::ReadWrite);
            connection.exec(
                R"(UPDATE models SET normalisation_json = '{"mean": [0], "scale": [1]}')",
                "damaging the model");
        }
        const ConcordeRun bad = runConcorde({"validate-db", broken});
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.err.contains("model '") && bad.err.contains("cannot be loaded"),
                 qPrintable(bad.err));
        // The explorer's loader refuses it too, which is what validate-db must foresee.
        QCOMPARE(runConcorde({"predict", "--db", broken, "--program", "xz-compress"}).exitCode, 2);
        // An accuracy record the explorer would silently not show is a problem too.
        const QString unreadable = path("unreadable-accuracy.sqlite");
        QVERIFY(QFile::copy(db_, unreadable));
        concorde::SqliteConnection(unreadable.toStdString(),
                                   concorde::SqliteConnection::Mode::ReadWrite)
            .exec(R"(UPDATE models SET metrics_json =
                         json_set(metrics_json, '$.accuracy.test.mean_rel_error', 'low'))",
                  "damaging the accuracy");
        const ConcordeRun accuracy = runConcorde({"validate-db", unreadable});
        QCOMPARE(accuracy.exitCode, 1);
        QVERIFY2(accuracy.err.contains("\"test\" has no valid \"mean_rel_error\""),
                 qPrintable(accuracy.err));
    }

    // Issue 23: no command may print nan, inf or a CPI of 0 and exit 0. Every command with
    // --json, on the database and model built above; train's output is checked where it runs.
    void everyJsonOutputIsFinite() {
        const QString trace = kSamples + "gzip-decompress.ctrace";
        // Shapley between two configurations on the test grid, as predict prints them.
        const auto configFile = [&](int rob) {
            const ConcordeRun run = predict("xz-compress", rob, {"--json"});
            const QString why = checkJsonOutput(run, "predict");
            const QString file = path(QString("config-%1.json").arg(rob));
            QFile out(file);
            if (why.isEmpty() && out.open(QIODevice::WriteOnly))
                out.write(QJsonDocument(json(run)["config"].toObject()).toJson());
            return why.isEmpty() ? file : why;
        };
        const QString small = configFile(64), large = configFile(256);
        QVERIFY2(small.endsWith(".json") && large.endsWith(".json"),
                 qPrintable(small + " " + large));
        QStringList all = {"predict", "--db", db_, "--all", "--json"};
        const QJsonObject smallConfig = [&] {
            QFile in(small);
            return in.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(in.readAll()).object()
                                                : QJsonObject();
        }();
        for (auto it = smallConfig.begin(); it != smallConfig.end(); ++it)
            all << "--set" << it.key() + "=" + it.value().toVariant().toString();
        const QList<QStringList> commands = {
            {"info", "--json", trace},
            {"info", "--json", db_},
            {"simulate", trace, "--region", "0", "--preset", "little", "--json"},
            {"bounds", trace, "--region", "0", "--preset", "n1-like", "--json"},
            {"diagnose", "--group", "latency", "--json"},
            all,
            {"evaluate", "--dataset", dataset_, "--db", db_, "--json"},
            {"evaluate", "--db", db_, "--json"},
            {"shapley", "--db", db_, "--program", "gzip-decompress", "--baseline", small,
             "--target", large, "--json"},
            {"phases", "--db", db_, "--all", "--json"},
        };
        for (const QStringList& args : commands) {
            const QString why = checkJsonOutput(runConcorde(args), args.join(' '));
            QVERIFY2(why.isEmpty(), qPrintable(why));
        }
        // The check itself catches what it is for.
        QVERIFY(!checkJsonOutput({0, R"({"cpi": NaN})", {}}, "x").isEmpty());
        QVERIFY(!checkJsonOutput({0, R"({"a": {"cpi": 0}})", {}}, "x").isEmpty());
        QVERIFY(!checkJsonOutput({0, R"({"a": [1, null]})", {}}, "x").isEmpty());
        QVERIFY(!checkJsonOutput({0, R"({"err": "12 inf %"})", {}}, "x").isEmpty());
        QVERIFY(
            checkJsonOutput({0, R"({"information": 1, "min_bound_cpi": 0.5})", {}}, "x").isEmpty());
    }
};

QTEST_GUILESS_MAIN(ModelPipelineTest)
#include "ModelPipelineTest.moc"
