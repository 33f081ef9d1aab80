// `concorde shapley` and `concorde phases` through the real executable, on a small database built
// from two real sample traces with a tiny trained model: the CSV and JSON formats, efficiency
// against `concorde predict` in exact and sampling mode, null players, the ordered ablation,
// phases stored in the database (from basic-block vectors and from feature vectors), and the
// error messages.
#include "../support/ConcordeProcess.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <map>
#include <sqlite3.h>

namespace {

const QString kSamples = QString(CONCORDE_SOURCE_DIR) + "/data/samples/";

/// `concorde predict` evaluates one configuration at a time (the model's matrix-vector path),
/// the attribution evaluates batches (matrix-matrix): the float rounding of the two differs by
/// a few 1e-7 of the CPI, so sums are compared with predict to 1e-6 and with the attribution's
/// own baseline and target CPIs (the same evaluations) to 1e-12.
constexpr double kPredictTolerance = 1e-6;

using concorde::test::ConcordeRun;
using concorde::test::runConcorde;

struct CsvRow {
    QString program;
    QString region;
    QString player;
    double attribution = 0;
    double stderr_ = 0;
    QString rawAttribution;
};

void writeFile(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(bytes);
}

/// Parses the CSV (no field of these runs needs quoting); fails the test on a malformed line.
QList<CsvRow> parseCsv(const QString& text, QString* header) {
    QList<CsvRow> rows;
    const QStringList lines = text.split('\n', Qt::SkipEmptyParts);
    if (lines.isEmpty())
        return rows;
    *header = lines.front();
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QStringList f = lines[i].split(',');
        if (f.size() != 5) {
            qWarning("malformed CSV line: %s", qPrintable(lines[i]));
            return {};
        }
        bool ok1 = false, ok2 = false;
        CsvRow row{f[0], f[1], f[2], f[3].toDouble(&ok1), f[4].toDouble(&ok2), f[3]};
        if (!ok1 || !ok2) {
            qWarning("non-numeric CSV line: %s", qPrintable(lines[i]));
            return {};
        }
        rows << row;
    }
    return rows;
}

QJsonObject parseJson(const QString& text) {
    return QJsonDocument::fromJson(text.toUtf8()).object();
}

} // namespace

class ShapleyCliTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString db_;      ///< gzip-decompress and perl-regex on a two-point grid, with a model
    QString noModel_; ///< the same database before training
    QString bigTage_; ///< the "big" preset with the TAGE predictor: all twenty parameters differ
                      ///< from "little"

    QString path(const QString& name) const { return dir_.filePath(name); }

    ConcordeRun concorde(const QStringList& args) const {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("XDG_CONFIG_HOME", path("config")); // no user presets
        return runConcorde(args, env);
    }

    /// `concorde predict --json` of a program for a preset name or a configuration file.
    QJsonObject predictJson(const QString& program, const QString& config) {
        QStringList args = {"predict", "--db", db_, "--program", program, "--json"};
        if (config.endsWith(".json")) {
            QJsonObject parameters = parseJson([&] {
                QFile file(config);
                file.open(QIODevice::ReadOnly);
                return QString::fromUtf8(file.readAll());
            }());
            if (parameters.contains("parameters")) // a preset file
                parameters = parameters["parameters"].toObject();
            for (auto it = parameters.begin(); it != parameters.end(); ++it)
                args << "--set"
                     << it.key() + "=" +
                            (it.value().isString() ? it.value().toString()
                                                   : QString::number(it.value().toDouble()));
        } else {
            args << "--preset" << config;
        }
        const ConcordeRun run = concorde(args);
        if (run.exitCode != 0)
            qWarning("predict failed: %s", qPrintable(run.err));
        return parseJson(run.out);
    }

    /// `concorde predict --json` program CPI for a preset name or a configuration file.
    double predictCpi(const QString& program, const QString& config) {
        return predictJson(program, config)["cpi"].toDouble(std::nan(""));
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QDir().mkpath(path("config"));
        // Two values per parameter, those of the "little" and "big" presets (and both branch
        // predictors), so both presets are on the grid and every parameter can differ.
        const QString grid = path("grid.json");
        writeFile(grid, R"({"rob": [16, 512], "commit_width": [2, 12], "lq": [8, 128],
            "sq": [8, 128], "alu_issue": [2, 8], "fp_issue": [1, 8], "ls_issue": [1, 8],
            "ls_pipes": [1, 4], "load_pipes": [0, 4], "fetch_width": [2, 16],
            "decode_width": [2, 16], "rename_width": [2, 16], "fetch_buffers": [2, 32],
            "icache_fills": [1, 32], "bp": ["simple", "tage"], "bp_miss_pct": [0, 5],
            "l1d_kb": [32, 128], "l1i_kb": [32, 128], "l2_kb": [512, 2048],
            "pf_degree": [0, 2]})");
        bigTage_ = path("big-tage.json");
        writeFile(bigTage_, R"({"rob": 512, "commit_width": 12, "lq": 128, "sq": 128,
            "alu_issue": 8, "fp_issue": 8, "ls_issue": 8, "ls_pipes": 4, "load_pipes": 4,
            "fetch_width": 16, "decode_width": 16, "rename_width": 16, "fetch_buffers": 32,
            "icache_fills": 32, "bp": "tage", "bp_miss_pct": 0, "l1d_kb": 128, "l1i_kb": 128,
            "l2_kb": 2048, "pf_degree": 2})");

        db_ = path("db.sqlite");
        const ConcordeRun build =
            concorde({"build-db", "--out", db_, "--grid", grid, "--jobs", "2",
                      kSamples + "gzip-decompress.ctrace", kSamples + "perl-regex.ctrace"});
        QVERIFY2(build.exitCode == 0, qPrintable(build.err));
        noModel_ = path("no-model.sqlite");
        QVERIFY(QFile::copy(db_, noModel_));

        // A tiny model: enough for predictions with interactions, trained in seconds.
        const QString dataset = path("dataset.sqlite");
        const ConcordeRun data =
            concorde({"dataset", "--db", db_, "--samples", "300", "--out", dataset, "--jobs", "2"});
        QVERIFY2(data.exitCode == 0, qPrintable(data.err));
        // Two members, so that predictions carry a band that differs from the CPI.
        const ConcordeRun train = concorde({"train", "--dataset", dataset, "--db", db_, "--hidden",
                                            "16", "--epochs", "5", "--members", "2"});
        QVERIFY2(train.exitCode == 0, qPrintable(train.err));
    }

    // Exact mode with the ten default groups: the CSV format, and the program rows (region
    // "all") add up to the CPI change predict reports.
    void csvExactWithDefaultGroups() {
        const ConcordeRun run =
            concorde({"shapley", "--db", db_, "--program", "gzip-decompress", "--baseline",
                      "little", "--target", "big", "--groups", "default", "--csv"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QString header;
        const QList<CsvRow> rows = parseCsv(run.out, &header);
        QCOMPARE(header, QString("program,region,player,attribution,stderr"));
        QCOMPARE(rows.size(), 5 * 10); // "all" + four regions, ten players each
        std::map<QString, double> sums;
        std::map<QString, int> counts;
        for (const CsvRow& row : rows) {
            QCOMPARE(row.program, QString("gzip-decompress"));
            QCOMPARE(row.stderr_, 0.0); // exact
            sums[row.region] += row.attribution;
            ++counts[row.region];
        }
        QCOMPARE(rows.front().region, QString("all"));
        QCOMPARE(counts.size(), std::size_t(5));
        for (const char* region : {"all", "0", "1", "2", "3"})
            QCOMPARE(counts[region], 10);
        QVERIFY(rows.front().player == "window"); // the default groups, in parameter order
        const double delta =
            predictCpi("gzip-decompress", "big") - predictCpi("gzip-decompress", "little");
        QVERIFY2(
            std::abs(sums["all"] - delta) <= kPredictTolerance,
            qPrintable(
                QString("sum %1, predict %2").arg(sums["all"], 0, 'g', 17).arg(delta, 0, 'g', 17)));
        QVERIFY(std::abs(delta) > 1e-4); // the test means something
    }

    // Exact mode with individual parameters when at most twelve differ: parameters equal in
    // baseline and target get exactly 0; JSON carries baseline and target CPIs per program and
    // region and its sums match them to rounding.
    void jsonExactIndividualParameters() {
        const QString target = path("little-plus.json");
        writeFile(target, R"({"name": "little-plus", "description": "little, bigger back end",
            "parameters": {"rob": 512, "commit_width": 12, "lq": 128, "sq": 8, "alu_issue": 8,
            "fp_issue": 1, "ls_issue": 1, "ls_pipes": 1, "load_pipes": 0, "fetch_width": 2,
            "decode_width": 2, "rename_width": 2, "fetch_buffers": 2, "icache_fills": 1,
            "bp": "simple", "bp_miss_pct": 5, "l1d_kb": 128, "l1i_kb": 32, "l2_kb": 512,
            "pf_degree": 0}})");
        const ConcordeRun run = concorde({"shapley", "--db", db_, "--all", "--baseline", "little",
                                          "--target", target, "--json"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const QJsonObject doc = parseJson(run.out);
        QCOMPARE(doc["method"].toString(), QString("exact"));
        QCOMPARE(doc["target_name"].toString(), target);
        const QJsonArray programs = doc["programs"].toArray();
        QCOMPARE(programs.size(), 2);
        const QStringList changed = {"rob", "commit_width", "lq", "alu_issue", "l1d_kb"};
        for (const auto& value : programs) {
            const QJsonObject program = value.toObject();
            const QJsonObject all = program["all"].toObject();
            QCOMPARE(program["baseline_cpi"].toDouble(), all["baseline_cpi"].toDouble());
            QCOMPARE(all["method"].toString(), QString("exact"));
            double sum = 0;
            const QJsonArray players = all["players"].toArray();
            QCOMPARE(players.size(), 20);
            for (const auto& p : players) {
                const QJsonObject player = p.toObject();
                sum += player["attribution"].toDouble();
                if (!changed.contains(player["player"].toString())) {
                    QCOMPARE(player["attribution"].toDouble(), 0.0);
                    QCOMPARE(player["active"].toBool(), false);
                }
            }
            const double delta = all["target_cpi"].toDouble() - all["baseline_cpi"].toDouble();
            QVERIFY(std::abs(sum - delta) <= 1e-12);
            const QString name = program["program"].toString();
            // The programs' CPIs carry predict's band at both ends (issue 17, item 6).
            const QJsonObject atTarget = predictJson(name, target);
            const QJsonObject atBaseline = predictJson(name, "little");
            for (const auto& [prefix, predicted] :
                 {std::pair{QString("target_cpi"), atTarget},
                  std::pair{QString("baseline_cpi"), atBaseline}}) {
                const double low = program[prefix + "_low"].toDouble(-1);
                const double high = program[prefix + "_high"].toDouble(-1);
                const double cpi = program[prefix].toDouble();
                QVERIFY2(
                    low > 0 && low < cpi && cpi < high,
                    qPrintable(name +
                               QString(" %1: %2 %3 %4").arg(prefix).arg(low).arg(cpi).arg(high)));
                QVERIFY(std::abs(low - predicted["cpi_low"].toDouble()) <= kPredictTolerance);
                QVERIFY(std::abs(high - predicted["cpi_high"].toDouble()) <= kPredictTolerance);
            }
            const double predicted = atTarget["cpi"].toDouble() - atBaseline["cpi"].toDouble();
            QVERIFY2(std::abs(sum - predicted) <= kPredictTolerance,
                     qPrintable(name + QString(": sum %1, predict %2").arg(sum).arg(predicted)));
            const QJsonArray regions = program["regions"].toArray();
            QCOMPARE(regions.size(), 4);
            for (const auto& r : regions) {
                const QJsonObject region = r.toObject();
                QVERIFY(region["baseline_cpi"].toDouble() > 0);
                QVERIFY(region["target_cpi"].toDouble() > 0);
                double regionSum = 0;
                for (const auto& p : region["players"].toArray())
                    regionSum += p.toObject()["attribution"].toDouble();
                QVERIFY(std::abs(regionSum - region["delta"].toDouble()) <= 1e-12);
            }
        }
    }

    // Sampling mode with all twenty parameters as players: within 4 × the summed standard
    // errors of predict's change (in fact to rounding: permutations telescope), reproducible
    // for a seed, and --permutations is obeyed.
    void samplingTwentyPlayers() {
        const QStringList args = {"shapley",    "--db",   db_,        "--program", "perl-regex",
                                  "--baseline", "little", "--target", bigTage_,    "--permutations",
                                  "60",         "--seed", "7",        "--csv"};
        const ConcordeRun run = concorde(args);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QString header;
        const QList<CsvRow> rows = parseCsv(run.out, &header);
        QCOMPARE(header, QString("program,region,player,attribution,stderr"));
        QCOMPARE(rows.size(), 5 * 20);
        double sum = 0, errors = 0;
        int withError = 0;
        for (const CsvRow& row : rows)
            if (row.region == "all") {
                sum += row.attribution;
                errors += row.stderr_;
                withError += row.stderr_ > 0 ? 1 : 0;
            }
        QVERIFY(withError > 10); // sampling: standard errors are reported
        const double delta =
            predictCpi("perl-regex", bigTage_) - predictCpi("perl-regex", "little");
        QVERIFY2(
            std::abs(sum - delta) <= std::max(4 * errors, kPredictTolerance),
            qPrintable(
                QString("sum %1, predict %2, 4 x stderr %3").arg(sum).arg(delta).arg(4 * errors)));
        QVERIFY(std::abs(sum - delta) <= kPredictTolerance);
        QCOMPARE(concorde(args).out, run.out); // same seed, same bits

        const ConcordeRun json =
            concorde({"shapley", "--db", db_, "--program", "perl-regex", "--baseline", "little",
                      "--target", bigTage_, "--permutations", "60", "--seed", "7", "--json"});
        QVERIFY2(json.exitCode == 0, qPrintable(json.err));
        const QJsonObject doc = parseJson(json.out);
        QCOMPARE(doc["method"].toString(), QString("sampling"));
        QCOMPARE(doc["permutations"].toInt(), 60);
    }

    // The ordered ablation: steps in the order given (then the other players that differ),
    // a parameter equal in baseline and target is absent and has Shapley value 0, and the steps
    // add up to the same total as the Shapley values.
    void ablationOrder() {
        const ConcordeRun run =
            concorde({"shapley", "--db", db_, "--program", "gzip-decompress", "--baseline",
                      "little", "--target", "big", "--ablation-order", "l1d_kb,lq", "--json"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const QJsonObject program = parseJson(run.out)["programs"].toArray()[0].toObject();
        const QJsonObject all = program["all"].toObject();
        double shapleySum = 0;
        for (const auto& p : all["players"].toArray()) {
            const QJsonObject player = p.toObject();
            shapleySum += player["attribution"].toDouble();
            if (player["player"].toString() == "bp") { // simple in both presets
                QCOMPARE(player["attribution"].toDouble(), 0.0);
                QCOMPARE(player["stderr"].toDouble(), 0.0);
            }
        }
        const QJsonObject ablation = program["ablation"].toObject();
        const QJsonArray steps = ablation["steps"].toArray();
        QCOMPARE(steps.size(), 19);
        QCOMPARE(steps[0].toObject()["player"].toString(), QString("l1d_kb"));
        QCOMPARE(steps[1].toObject()["player"].toString(), QString("lq"));
        QCOMPARE(steps[2].toObject()["player"].toString(), QString("rob"));
        double stepSum = 0;
        for (const auto& s : steps) {
            QVERIFY(s.toObject()["player"].toString() != "bp");
            stepSum += s.toObject()["delta"].toDouble();
        }
        const double delta = all["target_cpi"].toDouble() - all["baseline_cpi"].toDouble();
        QVERIFY(std::abs(stepSum - delta) <= 1e-9);
        QVERIFY(std::abs(shapleySum - delta) <= 1e-9);
        const double predicted =
            predictCpi("gzip-decompress", "big") - predictCpi("gzip-decompress", "little");
        QVERIFY(std::abs(stepSum - predicted) <= kPredictTolerance);

        // The CSV keeps its columns; the steps follow as rows of region "ablation".
        const ConcordeRun csv =
            concorde({"shapley", "--db", db_, "--program", "gzip-decompress", "--baseline",
                      "little", "--target", "big", "--ablation-order", "l1d_kb,lq", "--csv"});
        QVERIFY2(csv.exitCode == 0, qPrintable(csv.err));
        QString header;
        const QList<CsvRow> rows = parseCsv(csv.out, &header);
        QCOMPARE(header, QString("program,region,player,attribution,stderr"));
        QList<CsvRow> ablationRows;
        for (const CsvRow& row : rows) {
            if (row.region == "ablation")
                ablationRows << row;
            if (row.player == "bp")
                QCOMPARE(row.rawAttribution, QString("0")); // exactly zero
        }
        QCOMPARE(ablationRows.size(), 19);
        QCOMPARE(ablationRows[0].player, QString("l1d_kb"));

        // The table shows both side by side.
        const ConcordeRun text = concorde({"shapley", "--db", db_, "--program", "gzip-decompress",
                                           "--baseline", "little", "--target", "big", "--groups",
                                           "default", "--ablation-order", "caches,window"});
        QVERIFY2(text.exitCode == 0, qPrintable(text.err));
        QVERIFY(text.out.contains("Shapley values, exact over 10 players"));
        QVERIFY(text.out.contains("Ordered ablation"));
        QVERIFY(text.out.contains("caches"));
        QVERIFY(text.out.contains("region 3"));
    }

    // A grouping file in the format PlayerSet documents.
    void groupsFile() {
        const QString groups = path("groups.json");
        writeFile(groups, R"({"groups": {"caches": ["l1d_kb", "l1i_kb", "l2_kb"],
                                         "queues": ["lq", "sq"]}})");
        const ConcordeRun run =
            concorde({"shapley", "--db", db_, "--program", "perl-regex", "--baseline", "little",
                      "--target", "big", "--groups", groups, "--csv"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QString header;
        const QList<CsvRow> rows = parseCsv(run.out, &header);
        QCOMPARE(rows.size(), 5 * 17); // 20 parameters, 5 of them in 2 groups
        QVERIFY(std::any_of(rows.begin(), rows.end(),
                            [](const CsvRow& r) { return r.player == "caches"; }));
    }

    // Phases: every region gets one, stored in the database, k ≥ 1; from basic-block vectors,
    // and from feature vectors when a region has none.
    void phases() {
        const ConcordeRun run = concorde({"phases", "--db", db_, "--all", "--json"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const QJsonArray programs = parseJson(run.out)["programs"].toArray();
        QCOMPARE(programs.size(), 2);
        for (const auto& p : programs) {
            const QJsonObject program = p.toObject();
            QCOMPARE(program["space"].toString(), QString("bbv"));
            QVERIFY(program["k"].toInt() >= 1);
            QVERIFY(program["k"].toInt() <= 2); // at most regions / 2
            QCOMPARE(program["regions"].toArray().size(), 4);
            QCOMPARE(program["regions"].toArray()[0].toObject()["phase"].toInt(), 0);
        }
        const ConcordeRun info = concorde({"info", "--json", db_});
        QVERIFY2(info.exitCode == 0, qPrintable(info.err));
        const QJsonArray regions = parseJson(info.out)["regions"].toArray();
        QCOMPARE(regions.size(), 8);
        for (const auto& r : regions)
            QVERIFY2(!r.toObject()["phase"].isNull(),
                     qPrintable(QJsonDocument(r.toObject()).toJson()));

        const ConcordeRun text = concorde({"phases", "--db", db_, "--program", "gzip-decompress"});
        QVERIFY2(text.exitCode == 0, qPrintable(text.err));
        QVERIFY(text.out.contains("gzip-decompress: "));
        QVERIFY(text.out.contains("basic-block vectors"));
        QVERIFY(text.out.contains("phase 0: regions 0"));

        // Without basic-block vectors (an empty one stored for region 1), the feature vectors.
        const QString copy = path("no-bbv.sqlite");
        QVERIFY(QFile::copy(db_, copy));
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(copy.toUtf8().constData(), &db), SQLITE_OK);
        const QByteArray emptyBbv(8, '\0'); // count 0, CRC-32 of nothing
        sqlite3_stmt* stmt = nullptr;
        QCOMPARE(sqlite3_prepare_v2(db,
                                    "UPDATE regions SET bbv = ?1, phase = NULL WHERE region_index "
                                    "= 1 AND program_id = (SELECT id FROM programs WHERE name = "
                                    "'gzip-decompress')",
                                    -1, &stmt, nullptr),
                 SQLITE_OK);
        sqlite3_bind_blob(stmt, 1, emptyBbv.constData(), 8, SQLITE_TRANSIENT);
        QCOMPARE(sqlite3_step(stmt), SQLITE_DONE);
        QCOMPARE(sqlite3_changes(db), 1);
        sqlite3_finalize(stmt);
        sqlite3_close(db);
        const ConcordeRun features =
            concorde({"phases", "--db", copy, "--program", "gzip-decompress", "--json"});
        QVERIFY2(features.exitCode == 0, qPrintable(features.err));
        const QJsonObject program = parseJson(features.out)["programs"].toArray()[0].toObject();
        QCOMPARE(program["space"].toString(), QString("features"));
        QVERIFY(program["k"].toInt() >= 1);
        QCOMPARE(program["regions"].toArray().size(), 4);
        const ConcordeRun info2 = concorde({"info", "--json", copy});
        for (const auto& r : parseJson(info2.out)["regions"].toArray())
            QVERIFY(!r.toObject()["phase"].isNull());
    }

    // Clear messages and non-zero exit codes.
    void errors() {
        const ConcordeRun unknownProgram =
            concorde({"shapley", "--db", db_, "--program", "nonesuch", "--baseline", "little",
                      "--target", "big"});
        QCOMPARE(unknownProgram.exitCode, 2);
        QVERIFY2(unknownProgram.err.contains("no program 'nonesuch'"),
                 qPrintable(unknownProgram.err));
        QVERIFY(unknownProgram.err.contains("gzip-decompress"));

        const QString offGrid = path("off-grid.json");
        writeFile(offGrid, R"({"rob": 512, "commit_width": 12, "lq": 128, "sq": 128,
            "alu_issue": 8, "fp_issue": 8, "ls_issue": 8, "ls_pipes": 4, "load_pipes": 4,
            "fetch_width": 16, "decode_width": 16, "rename_width": 16, "fetch_buffers": 32,
            "icache_fills": 32, "bp": "tage", "bp_miss_pct": 0, "l1d_kb": 64, "l1i_kb": 128,
            "l2_kb": 2048, "pf_degree": 2})");
        const ConcordeRun off = concorde(
            {"shapley", "--db", db_, "--all", "--baseline", "little", "--target", offGrid});
        QCOMPARE(off.exitCode, 2);
        QVERIFY2(off.err.contains("--target") && off.err.contains("l1d_kb = 64") &&
                     off.err.contains("not on the grid"),
                 qPrintable(off.err));

        const ConcordeRun noModel = concorde(
            {"shapley", "--db", noModel_, "--all", "--baseline", "little", "--target", "big"});
        QCOMPARE(noModel.exitCode, 2);
        QVERIFY2(noModel.err.contains("no CPI model") && noModel.err.contains("concorde train"),
                 qPrintable(noModel.err));

        const ConcordeRun unknownPreset =
            concorde({"shapley", "--db", db_, "--all", "--baseline", "huge", "--target", "big"});
        QCOMPARE(unknownPreset.exitCode, 2);
        QVERIFY2(unknownPreset.err.contains("no preset") && unknownPreset.err.contains("little"),
                 qPrintable(unknownPreset.err));

        const ConcordeRun badOrder =
            concorde({"shapley", "--db", db_, "--all", "--baseline", "little", "--target", "big",
                      "--ablation-order", "rob,nonesuch"});
        QCOMPARE(badOrder.exitCode, 2);
        QVERIFY2(badOrder.err.contains("unknown player 'nonesuch'"), qPrintable(badOrder.err));

        const ConcordeRun both =
            concorde({"shapley", "--db", db_, "--all", "--program", "perl-regex", "--baseline",
                      "little", "--target", "big"});
        QCOMPARE(both.exitCode, 2);

        const ConcordeRun phases = concorde({"phases", "--db", db_, "--program", "nonesuch"});
        QCOMPARE(phases.exitCode, 2);
        QVERIFY2(phases.err.contains("no program 'nonesuch'"), qPrintable(phases.err));
    }
};

QTEST_GUILESS_MAIN(ShapleyCliTest)
#include "ShapleyCliTest.moc"
