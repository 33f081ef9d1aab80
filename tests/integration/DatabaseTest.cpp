// The feature database through the real `concorde` executable: build-db on a synthetic kernel and
// on real sample traces, the size of the default grid per region, crash and Ctrl-C resumption,
// shards and merge-db, labels against `concorde simulate`, info, validate-db, migrate-db, the
// sqlite3 shell, and a clear error for every kind of damage.
#include "../support/ConcordeProcess.h"
#include "../support/SqlRows.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>
#include <functional>
#include <sqlite3.h>

namespace {

const QString kSamples = QString(CONCORDE_SOURCE_DIR) + "/data/samples/";

using Run = concorde::test::ConcordeRun;

QProcessEnvironment environment(const QString& configHome) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    // User presets must not change what `label --presets` labels.
    env.insert("XDG_CONFIG_HOME", configHome);
    return env;
}

Run runConcorde(const QStringList& args, const QString& configHome, int timeoutMs = 600'000) {
    return concorde::test::runConcorde(args, environment(configHome), timeoutMs);
}

/// Runs SQL through the sqlite3 C API (tests/support/SqlRows.h).
bool sql(const QString& path, const QString& statement, bool readOnly,
         const std::function<void(const QStringList&)>& onRow = {}, QString* error = nullptr) {
    return concorde::test::runSql(path, statement, readOnly, onRow, error);
}

/// The single value of a query, or -1 if it fails (e.g. while the database is being created).
qint64 scalar(const QString& path, const QString& statement) {
    qint64 value = -1;
    if (!sql(path, statement, true,
             [&](const QStringList& row) { value = row.front().toLongLong(); }))
        return -1;
    return value;
}

/// Every row of every table, as text: what "identical content" means for two databases.
QStringList dump(const QString& path) {
    QStringList rows;
    for (const char* table : {"meta", "programs", "regions", "memory_configs", "series_keys",
                              "series", "region_records", "labels", "models"}) {
        QStringList tableRows;
        const bool ok =
            sql(path, QString("SELECT * FROM %1").arg(table), true,
                [&](const QStringList& row) { tableRows << QString(table) + "|" + row.join('|'); });
        if (!ok)
            return {QString("cannot read table ") + table};
        tableRows.sort();
        rows += tableRows;
    }
    return rows;
}

/// Where the first difference between two dumps is, for a readable failure.
QString firstDifference(const QStringList& a, const QStringList& b) {
    for (int i = 0; i < std::min(a.size(), b.size()); ++i)
        if (a[i] != b[i])
            return QString("row %1: %2 | vs | %3").arg(i).arg(a[i].left(200), b[i].left(200));
    return QString("sizes %1 and %2").arg(a.size()).arg(b.size());
}

/// Reads one blob with `select`, flips the bits of its middle byte and writes it back with
/// `update` (whose ?1 is the blob).
bool flipBlobByte(const QString& path, const char* select, const char* update) {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.toUtf8().constData(), &db, SQLITE_OPEN_READWRITE, nullptr) !=
        SQLITE_OK)
        return false;
    sqlite3_stmt* read = nullptr;
    QByteArray blob;
    if (sqlite3_prepare_v2(db, select, -1, &read, nullptr) == SQLITE_OK &&
        sqlite3_step(read) == SQLITE_ROW)
        blob = QByteArray(static_cast<const char*>(sqlite3_column_blob(read, 0)),
                          sqlite3_column_bytes(read, 0));
    sqlite3_finalize(read);
    bool ok = blob.size() > 64;
    if (ok) {
        blob[blob.size() / 2] = static_cast<char>(blob[blob.size() / 2] ^ 0xff);
        sqlite3_stmt* write = nullptr;
        ok = sqlite3_prepare_v2(db, update, -1, &write, nullptr) == SQLITE_OK &&
             sqlite3_bind_blob(write, 1, blob.constData(), static_cast<int>(blob.size()),
                               SQLITE_TRANSIENT) == SQLITE_OK &&
             sqlite3_step(write) == SQLITE_DONE && sqlite3_changes(db) == 1;
        sqlite3_finalize(write);
    }
    sqlite3_close(db);
    return ok;
}

void writeFile(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(bytes);
}

} // namespace

class DatabaseTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString micro_;
    QString smallGrid_;
    QString mediumGrid_;
    QString single_; ///< the three samples on the small grid, one unsharded build

    QString path(const QString& name) const { return dir_.filePath(name); }
    QStringList samples() const {
        return {kSamples + "gzip-decompress.ctrace", kSamples + "perl-regex.ctrace",
                kSamples + "xz-compress.ctrace"};
    }
    Run concorde(const QStringList& args) const { return runConcorde(args, path("config")); }

    QString copy(const QString& from, const QString& name) {
        const QString to = path(name);
        QFile::remove(to);
        if (!QFile::copy(from, to))
            qFatal("cannot copy %s", qPrintable(from));
        return to;
    }

    /// Starts build-db, waits until at least `committed` regions are complete in the database
    /// (polled read-only while it runs), then sends `signal`. Returns the finished process's exit
    /// code (or -2 for a crash exit) and its stderr.
    Run interruptBuild(const QStringList& args, const QString& db, qint64 committed, int signal) {
        QProcess process;
        process.setProcessEnvironment(environment(path("config")));
        process.start(QString(CONCORDE_BINARY_DIR) + "/bin/concorde", args);
        if (!process.waitForStarted())
            return {};
        QElapsedTimer timer;
        timer.start();
        while (process.state() == QProcess::Running && timer.elapsed() < 300'000) {
            if (scalar(db, "SELECT count(*) FROM regions WHERE complete = 1") >= committed) {
                ::kill(static_cast<pid_t>(process.processId()), signal);
                break;
            }
            QThread::msleep(5);
        }
        process.waitForFinished(300'000);
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2,
                {},
                QString::fromUtf8(process.readAllStandardError())};
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QDir().mkpath(path("config"));
        micro_ = path("stride.ctrace");
        const Run make = concorde({"microbench", "stride-load", "--param", "ws_kb=64",
                                   "--iterations", "6", "-o", micro_});
        QCOMPARE(make.exitCode, 0);
        smallGrid_ = path("small.json");
        writeFile(smallGrid_,
                  R"({"rob": [32, 128], "lq": [16, 64], "sq": [16], "alu_issue": [2, 4],
                      "fp_issue": [2], "ls_issue": [2], "ls_pipes": [1, 2], "load_pipes": [0, 1],
                      "fetch_width": [4], "fetch_buffers": [4], "icache_fills": [4],
                      "bp": ["simple", "tage"], "bp_miss_pct": [2], "l1d_kb": [32, 64],
                      "l1i_kb": [64], "l2_kb": [1024], "pf_degree": [0]})");
        // Slow enough per region (ten ROB sizes on three memory configurations) that a build
        // can be interrupted between two commits.
        mediumGrid_ = path("medium.json");
        writeFile(mediumGrid_, R"({"l1d_kb": [32, 64, 128], "l1i_kb": [64], "l2_kb": [1024],
                                   "pf_degree": [0], "lq": [16, 64], "fetch_buffers": [4],
                                   "icache_fills": [4]})");
        single_ = path("single.sqlite");
        QStringList args = {"build-db", "--out", single_, "--grid", smallGrid_, "--jobs", "2"};
        const Run build = concorde(args + samples());
        QVERIFY2(build.exitCode == 0, qPrintable(build.err));
        QVERIFY(build.out.contains("12 built, 0 already complete, of 12"));
    }

    // A synthetic kernel and a real trace in one database, explored with info, validate-db and
    // the sqlite3 shell.
    void buildAndExplore() {
        const QString db = path("explore.sqlite");
        const Run build = concorde({"build-db", "--out", db, "--grid", smallGrid_, micro_,
                                    kSamples + "gzip-decompress.ctrace"});
        QVERIFY2(build.exitCode == 0, qPrintable(build.err));
        QVERIFY2(build.out.contains("5 built"), qPrintable(build.out));
        // Not a terminal: one plain line per committed region, no bar.
        QVERIFY2(build.err.contains("[5/5] gzip-decompress region 3 committed"),
                 qPrintable(build.err));
        QVERIFY(!build.err.contains('\r'));

        const Run info = concorde({"info", db});
        QVERIFY2(info.exitCode == 0, qPrintable(info.err));
        QVERIFY(info.out.contains("Concorde feature database, schema version 3"));
        QVERIFY(info.out.contains("gzip-decompress"));
        QVERIFY(info.out.contains("stride"));
        QVERIFY(info.out.contains("5 (5 complete)"));
        QVERIFY(info.out.contains("dbstat"));
        const Run json = concorde({"info", "--json", db});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject doc = QJsonDocument::fromJson(json.out.toUtf8()).object();
        QCOMPARE(doc["programs"].toArray().size(), 2);
        QCOMPARE(doc["regions"].toArray().size(), 5);
        QCOMPARE(doc["memory_configurations"].toInt(), 2);
        QCOMPARE(doc["grid"].toObject()["rob"].toArray().size(), 2);
        QVERIFY(doc["storage"].toObject()["bytes"].toObject()["series"].toInt() > 0);
        const int groups = doc["series_groups"].toInt();
        const int perRegion = doc["series_per_region"].toInt();
        QVERIFY(groups > 20);

        const Run validate = concorde({"validate-db", db});
        QVERIFY2(validate.exitCode == 0, qPrintable(validate.err));
        QVERIFY(validate.out.contains("OK"));

        // The sqlite3 shell reads the tables directly.
        QProcess shell;
        shell.start("sqlite3", {db, "select count(*) from series; "
                                    "select count(*) from series_catalog where region_id = 2; "
                                    "select settings from series_catalog where region_id = 1 and "
                                    "name = 'pipes' and position = 3;"});
        QVERIFY2(shell.waitForFinished(60'000), "the sqlite3 shell did not run (install sqlite3)");
        QCOMPARE(shell.exitCode(), 0);
        const QStringList lines =
            QString::fromUtf8(shell.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines[0].toInt(), 5 * groups);
        QCOMPARE(lines[1].toInt(), perRegion);
        QCOMPARE(lines[2], QString("ls_pipes=2,load_pipes=1"));
    }

    // The size target: the default grid for one 100k-instruction region in ≤ 200 kB.
    void defaultGridFitsTheSizeTarget() {
        const QString db = path("default.sqlite");
        const Run build =
            concorde({"build-db", "--out", db, "--shard", "0/4", kSamples + "xz-compress.ctrace"});
        QVERIFY2(build.exitCode == 0, qPrintable(build.err));
        QCOMPARE(scalar(db, "SELECT count(*) FROM regions WHERE complete = 1"), qint64(1));
        QCOMPARE(scalar(db, "SELECT length FROM regions WHERE complete = 1"), qint64(100000));
        QCOMPARE(scalar(db, "SELECT count(*) FROM series_catalog"), qint64(4189));
        const qint64 blobs = scalar(db, "SELECT sum(length(data)) FROM series");
        const qint64 pages = scalar(db, "SELECT sum(pgsize) FROM dbstat WHERE name IN "
                                        "('series', 'sqlite_autoindex_series_1')");
        const qint64 records = scalar(db, "SELECT sum(length(data)) FROM region_records");
        qInfo("default grid, xz-compress region 0: series blobs %lld bytes, series table and "
              "index %lld bytes, records %lld bytes",
              blobs, pages, records);
        QVERIFY2(blobs > 1000 && blobs <= 200'000, qPrintable(QString::number(blobs)));
        QVERIFY2(pages <= 200'000, qPrintable(QString::number(pages)));
        const Run validate = concorde({"validate-db", db});
        QVERIFY2(validate.exitCode == 0, qPrintable(validate.err));
        QVERIFY(validate.out.contains("4189 series"));

        // A database from before the store drain (no meta.store_queue_model, one "sq" series
        // per size, like the shipped one until it is rebuilt) still takes new programs, in its
        // own kind of SQ series, so that its model keeps reading them (File ▸ Add program).
        // Nor were its loads timed (no meta.load_timing).
        QCOMPARE(scalar(db, "SELECT count(*) FROM meta WHERE key = 'load_timing' AND "
                            "value = 'timed'"),
                 qint64(1));
        const QString old = copy(db, "untimed.sqlite");
        QVERIFY(
            sql(old, "DELETE FROM meta WHERE key IN ('store_queue_model', 'load_timing')", false));
        for (const char* statement :
             {"DELETE FROM series_keys WHERE name = 'sq'", "DELETE FROM series WHERE name = 'sq'",
              "UPDATE regions SET complete = 0"})
            QVERIFY(sql(old, statement, false));
        const Run resumed =
            concorde({"build-db", "--out", old, "--shard", "1/4", kSamples + "xz-compress.ctrace"});
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.err));
        const qint64 built = scalar(old, "SELECT count(*) FROM regions WHERE complete = 1");
        QVERIFY(built >= 1);
        QCOMPARE(scalar(old, "SELECT count(*) FROM series WHERE name = 'sq' AND series_count = 9"),
                 built);
        QCOMPARE(scalar(old, "SELECT count(*) FROM meta WHERE key = 'store_queue_model'"),
                 qint64(0));
        QCOMPARE(scalar(old, "SELECT count(*) FROM meta WHERE key = 'load_timing'"), qint64(0));
    }

    // `build-db --load-queue-model through-commit` makes a database whose LQ series hold each
    // load's entry to its commit; every other series is the same as the default build's, the
    // choice is recorded in meta, a resumed build keeps it, and an unknown model is a usage
    // error.
    void loadQueueModelIsTheDatabases() {
        const QString trace = kSamples + "xz-compress.ctrace";
        const QString loadsOnly = path("lq-loads-only.sqlite");
        const QString committed = path("lq-through-commit.sqlite");
        for (const auto& [db, model] : {std::pair{loadsOnly, QString("loads-only")},
                                        std::pair{committed, QString("through-commit")}}) {
            const Run run = concorde({"build-db", "--out", db, "--grid", mediumGrid_,
                                      "--load-queue-model", model, "--shard", "1/4", trace});
            QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        }
        QCOMPARE(scalar(committed, "SELECT count(*) FROM meta WHERE key = 'load_queue_model' AND "
                                   "value = 'through_commit'"),
                 qint64(1));
        QCOMPARE(scalar(loadsOnly, "SELECT count(*) FROM meta WHERE key = 'load_queue_model'"),
                 qint64(0));
        const auto seriesOf = [](const QString& db) {
            std::map<QString, QString> blobs;
            sql(db,
                "SELECT name, hex(data) FROM series WHERE region_id = (SELECT min(id) FROM "
                "regions WHERE complete = 1)",
                true, [&](const QStringList& row) { blobs[row[0]] = row[1]; });
            return blobs;
        };
        const auto a = seriesOf(loadsOnly), b = seriesOf(committed);
        QVERIFY(a.size() > 10);
        QCOMPARE(a.size(), b.size());
        for (const auto& [name, blob] : a)
            QVERIFY2((blob == b.at(name)) == (name != "lq"), qPrintable(name));
        // Resumed without the option (whose default is through commit): a loads-only database
        // keeps the analysis it was built with, and its new regions have the same series.
        const Run resumed =
            concorde({"build-db", "--out", loadsOnly, "--grid", mediumGrid_, trace});
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.err));
        QCOMPARE(scalar(loadsOnly, "SELECT count(*) FROM meta WHERE key = 'load_queue_model'"),
                 qint64(0));
        QCOMPARE(scalar(loadsOnly, "SELECT count(*) FROM regions WHERE complete = 1"), qint64(4));
        const Run resumedOther = concorde({"build-db", "--out", committed, "--grid", mediumGrid_,
                                           "--load-queue-model", "loads-only", trace});
        QVERIFY2(resumedOther.exitCode == 0, qPrintable(resumedOther.err));
        QCOMPARE(scalar(committed, "SELECT count(*) FROM meta WHERE key = 'load_queue_model'"),
                 qint64(1));
        // Every region resumed in either file has the kind of its file: the lq series differ in
        // all four, and nothing else does.
        const auto everyRegion = [](const QString& db, bool lq) {
            QStringList blobs;
            sql(db,
                QString("SELECT hex(s.data) FROM series s JOIN regions r ON r.id = s.region_id "
                        "WHERE r.complete = 1 AND (s.name = 'lq') = %1 ORDER BY r.region_index, "
                        "s.name")
                    .arg(lq ? 1 : 0),
                true, [&](const QStringList& row) { blobs << row[0]; });
            return blobs;
        };
        const QStringList lqA = everyRegion(loadsOnly, true), lqB = everyRegion(committed, true);
        QCOMPARE(lqA.size(), lqB.size());
        QVERIFY(lqA.size() >= 4);
        for (int i = 0; i < lqA.size(); ++i)
            QVERIFY2(lqA[i] != lqB[i], qPrintable(QString::number(i)));
        QCOMPARE(everyRegion(loadsOnly, false), everyRegion(committed, false));
        const Run bad = concorde(
            {"build-db", "--out", path("lq-bad.sqlite"), "--load-queue-model", "sideways", trace});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("through-commit"), qPrintable(bad.err));
        QVERIFY(!QFile::exists(path("lq-bad.sqlite")));
    }

    // SIGKILL after a commit, then Ctrl-C after another, then a last run: the result equals an
    // uninterrupted build, row for row and byte for byte.
    void killedAndInterruptedBuildsResume() {
        const QStringList traces = samples();
        const QString reference = path("reference.sqlite");
        const Run full = concorde(
            QStringList{"build-db", "--out", reference, "--grid", mediumGrid_, "--jobs", "2"} +
            traces);
        QVERIFY2(full.exitCode == 0, qPrintable(full.err));

        const QString db = path("resumed.sqlite");
        const QStringList args =
            QStringList{"build-db", "--out", db, "--grid", mediumGrid_, "--jobs", "1"} + traces;
        const Run killed = interruptBuild(args, db, 1, SIGKILL);
        QCOMPARE(killed.exitCode, -2);
        const qint64 afterKill = scalar(db, "SELECT count(*) FROM regions WHERE complete = 1");
        QVERIFY2(afterKill >= 1 && afterKill < 12, qPrintable(QString::number(afterKill)));
        // What was committed is consistent: a complete region has all its rows, others none.
        const qint64 groups = scalar(reference, "SELECT count(DISTINCT name) FROM series");
        QCOMPARE(scalar(db, "SELECT count(*) FROM series"), afterKill * groups);
        QCOMPARE(scalar(db, "SELECT count(*) FROM region_records"), afterKill);

        const Run interrupted = interruptBuild(args, db, afterKill + 1, SIGINT);
        QCOMPARE(interrupted.exitCode, 130);
        QVERIFY2(interrupted.err.contains("run the same command again to resume"),
                 qPrintable(interrupted.err));
        QVERIFY2(interrupted.err.contains(QString("%1 already complete").arg(afterKill)),
                 qPrintable(interrupted.err));
        const qint64 afterInterrupt = scalar(db, "SELECT count(*) FROM regions WHERE complete = 1");
        QVERIFY(afterInterrupt > afterKill && afterInterrupt < 12);

        const Run resumed = concorde(args);
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.err));
        QVERIFY2(resumed.out.contains(QString("%1 built, %2 already complete")
                                          .arg(12 - afterInterrupt)
                                          .arg(afterInterrupt)),
                 qPrintable(resumed.out));
        const QStringList a = dump(reference);
        const QStringList b = dump(db);
        QVERIFY(a.size() > 12 * groups);
        QVERIFY2(a == b, qPrintable(firstDifference(a, b)));
        // Finished databases are single files in rollback-journal mode.
        QVERIFY(!QFile::exists(db + "-wal"));
        QCOMPARE(concorde({"validate-db", db}).exitCode, 0);
    }

    // Two shards merged equal one unsharded build; mismatched shards are refused.
    void shardsMergeIntoTheSingleBuild() {
        const QString a = path("shard0.sqlite");
        const QString b = path("shard1.sqlite");
        for (const auto& [shard, out] : {std::pair{"0/2", a}, std::pair{"1/2", b}}) {
            const Run run = concorde(
                QStringList{"build-db", "--out", out, "--grid", smallGrid_, "--shard", shard} +
                samples());
            QVERIFY2(run.exitCode == 0, qPrintable(run.err));
            QVERIFY2(run.out.contains("6 built, 0 already complete, of 6 in shard"),
                     qPrintable(run.out));
        }
        // Shard 0 holds the even global indices: gzip regions 0 and 2, perl regions 0 and 2...
        QString ids;
        sql(a,
            "SELECT group_concat(id) FROM (SELECT id FROM regions WHERE complete = 1 ORDER BY id)",
            true, [&](const QStringList& row) { ids = row.front(); });
        QCOMPARE(ids, QString("1,3,5,7,9,11"));
        const QString merged = path("merged.sqlite");
        const Run merge = concorde({"merge-db", "--out", merged, a, b});
        QVERIFY2(merge.exitCode == 0, qPrintable(merge.err));
        QVERIFY(merge.out.contains("12 of 12 regions"));
        const QStringList single = dump(single_);
        const QStringList together = dump(merged);
        QVERIFY2(single == together, qPrintable(firstDifference(single, together)));
        // Merging again adds nothing and changes nothing.
        QCOMPARE(concorde({"merge-db", "--out", merged, a, b}).exitCode, 0);
        QVERIFY(dump(merged) == single);

        const QString other = path("other-grid.sqlite");
        QCOMPARE(concorde({"build-db", "--out", other, "--grid", mediumGrid_, "--shard", "1/40",
                           samples().front()})
                     .exitCode,
                 0);
        const Run mismatch = concorde({"merge-db", "--out", path("bad-merge.sqlite"), a, other});
        QCOMPARE(mismatch.exitCode, 2);
        QVERIFY2(mismatch.err.contains("different grids"), qPrintable(mismatch.err));
        // A shard from before the store drain (no meta.store_queue_model) does not mix in.
        const QString untimed = copy(b, "untimed-shard.sqlite");
        QVERIFY(sql(untimed, "DELETE FROM meta WHERE key = 'store_queue_model'", false));
        const Run mixed = concorde({"merge-db", "--out", path("bad-mix.sqlite"), a, untimed});
        QCOMPARE(mixed.exitCode, 2);
        QVERIFY2(mixed.err.contains("different analysis revisions") &&
                     mixed.err.contains("untimed store-queue series, timed loads"),
                 qPrintable(mixed.err));
        // Nor one from before loads were timed (no meta.load_timing).
        const QString instant = copy(b, "untimed-loads-shard.sqlite");
        QVERIFY(sql(instant, "DELETE FROM meta WHERE key = 'load_timing'", false));
        const Run mixedPrefetch =
            concorde({"merge-db", "--out", path("bad-mix2.sqlite"), a, instant});
        QCOMPARE(mixedPrefetch.exitCode, 2);
        QVERIFY2(mixedPrefetch.err.contains("timed store-queue series, untimed loads"),
                 qPrintable(mixedPrefetch.err));
        const Run traces = concorde(QStringList{"build-db", "--out", path("two.sqlite"), "--grid",
                                                smallGrid_, "--shard", "5/6"} +
                                    samples().mid(0, 2));
        QCOMPARE(traces.exitCode, 0);
        const Run wrongTraces =
            concorde({"merge-db", "--out", path("bad2.sqlite"), a, path("two.sqlite")});
        QCOMPARE(wrongTraces.exitCode, 2);
        QVERIFY2(wrongTraces.err.contains("different traces"), qPrintable(wrongTraces.err));
    }

    // label stores what `concorde simulate` reports for the same region and configuration.
    void labelsEqualSimulate() {
        const QString db = copy(single_, "labels.sqlite");
        const QStringList args = {"label",     "--db",   db,  "--configs", "2",
                                  "--presets", "--seed", "3", "--jobs",    "2"};
        const Run label = concorde(args);
        QVERIFY2(label.exitCode == 0, qPrintable(label.err));
        const qint64 presets =
            QDir(QString(CONCORDE_SOURCE_DIR) + "/resources/presets").entryList({"*.json"}).size();
        QVERIFY(presets >= 3);
        QCOMPARE(scalar(db, "SELECT count(*) FROM labels"), 12 * (2 + presets));
        QCOMPARE(scalar(db, "SELECT count(*) FROM labels WHERE source = 'preset:n1-like'"),
                 qint64(12));
        QVERIFY2(
            label.out.contains(QString("%1 written, 0 already present").arg(12 * (2 + presets))),
            qPrintable(label.out));
        const Run again = concorde(args);
        QCOMPARE(again.exitCode, 0);
        QVERIFY2(again.out.contains("0 written"), qPrintable(again.out));
        QCOMPARE(scalar(db, "SELECT count(*) FROM labels"), 12 * (2 + presets));

        // perl-regex region 2: every label against the simulator run on the trace itself.
        struct Label {
            QString key;
            qint64 cycles;
            double cpi;
        };
        QList<Label> labels;
        sql(db,
            "SELECT l.config_key, l.cycles, l.cpi FROM labels AS l JOIN regions AS r ON r.id = "
            "l.region_id JOIN programs AS p ON p.id = r.program_id WHERE p.name = 'perl-regex' "
            "AND r.region_index = 2",
            true, [&](const QStringList& row) {
                labels.append({row[0], row[1].toLongLong(), row[2].toDouble()});
            });
        QCOMPARE(labels.size(), 2 + presets);
        for (const Label& l : labels) {
            QStringList simulate = {"simulate", kSamples + "perl-regex.ctrace", "--region", "2",
                                    "--json"};
            for (const QString& assignment : l.key.split(' '))
                simulate << "--set" << assignment;
            const Run sim = concorde(simulate);
            QVERIFY2(sim.exitCode == 0, qPrintable(sim.err));
            const QJsonObject region = QJsonDocument::fromJson(sim.out.toUtf8())
                                           .object()["regions"]
                                           .toArray()[0]
                                           .toObject();
            QCOMPARE(qint64(region["cycles"].toDouble()), l.cycles);
            QCOMPARE(region["cpi"].toDouble(), l.cpi);
        }
        const Run validate = concorde({"validate-db", db});
        QVERIFY2(validate.exitCode == 0, qPrintable(validate.err));
        QVERIFY(validate.out.contains(QString("%1 labels").arg(12 * (2 + presets))));
        const Run info = concorde({"info", db});
        QVERIFY(info.out.contains("preset:big 12"));

        // Labels of shards merge into the same set.
        const QString s0 = copy(single_, "label0.sqlite");
        const QString s1 = copy(single_, "label1.sqlite");
        QCOMPARE(concorde({"label", "--db", s0, "--configs", "2", "--seed", "3", "--shard", "0/2"})
                     .exitCode,
                 0);
        QCOMPARE(concorde({"label", "--db", s1, "--configs", "2", "--seed", "3", "--shard", "1/2"})
                     .exitCode,
                 0);
        QCOMPARE(scalar(s0, "SELECT count(*) FROM labels"), qint64(12));
        const QString merged = path("labels-merged.sqlite");
        QCOMPARE(concorde({"merge-db", "--out", merged, s0, s1}).exitCode, 0);
        QCOMPARE(scalar(merged, "SELECT count(*) FROM labels"), qint64(24));
        QCOMPARE(scalar(merged, "SELECT count(*) FROM labels AS m WHERE m.source = 'random'"),
                 scalar(db, "SELECT count(*) FROM labels WHERE source = 'random'"));

        QCOMPARE(concorde({"label", "--db", db}).exitCode, 2); // nothing to label
    }

    void corruptBlobIsReported() {
        const QString db = copy(single_, "corrupt.sqlite");
        // Flip one byte in the middle of one series blob (xz-compress region 1, group rob).
        QVERIFY(flipBlobByte(db, "SELECT data FROM series WHERE region_id = 10 AND name = 'rob'",
                             "UPDATE series SET data = ?1 WHERE region_id = 10 AND name = 'rob'"));
        QVERIFY(dump(db) != dump(single_));
        const Run validate = concorde({"validate-db", db});
        QCOMPARE(validate.exitCode, 1);
        QVERIFY2(validate.err.contains("1 problem:"), qPrintable(validate.err));
        QVERIFY2(validate.err.contains("xz-compress region 1 (id 10), series group rob") &&
                     validate.err.contains("CRC"),
                 qPrintable(validate.err));
        // merge-db refuses to copy a damaged region.
        const QString shard = copy(db, "corrupt-shard.sqlite");
        const Run merge = concorde({"merge-db", "--out", path("corrupt-merged.sqlite"), shard});
        QCOMPARE(merge.exitCode, 2);
        QVERIFY2(merge.err.contains("series group rob"), qPrintable(merge.err));
    }

    void damagedSchemasAreNamed() {
        const QString dropped = copy(single_, "dropped.sqlite");
        QVERIFY(sql(dropped, "DROP TABLE labels", false));
        Run info = concorde({"info", dropped});
        QCOMPARE(info.exitCode, 2);
        QVERIFY2(info.err.contains("table labels is missing"), qPrintable(info.err));
        Run validate = concorde({"validate-db", dropped});
        QCOMPARE(validate.exitCode, 1);
        QVERIFY(validate.err.contains("table labels is missing"));

        const QString older = copy(single_, "older.sqlite");
        QVERIFY(sql(older, "UPDATE meta SET value = '1' WHERE key = 'schema_version'", false));
        info = concorde({"info", older});
        QCOMPARE(info.exitCode, 2);
        QVERIFY2(info.err.contains("schema version 1") && info.err.contains("concorde migrate-db"),
                 qPrintable(info.err));
        QCOMPARE(concorde({"validate-db", older}).exitCode, 1);

        const QString newer = copy(single_, "newer.sqlite");
        QVERIFY(sql(newer, "UPDATE meta SET value = '7' WHERE key = 'schema_version'", false));
        for (const QStringList& args :
             {QStringList{"info", newer}, QStringList{"migrate-db", newer},
              QStringList{"build-db", "--out", newer, micro_},
              QStringList{"label", "--db", newer, "--configs", "1"}}) {
            const Run run = concorde(args);
            QCOMPARE(run.exitCode, 2);
            QVERIFY2(run.err.contains("schema version 7") && run.err.contains("newer"),
                     qPrintable(args.join(' ') + ": " + run.err));
        }
        QVERIFY(concorde({"validate-db", newer}).err.contains("newer"));
    }

    // Real version-1 and version-2 databases (no regions.phase; no functional warm-up columns)
    // are upgraded by migrate-db with their content; their regions read as cold.
    void migrateDbUpgradesOlderVersions() {
        // The sample traces carry warm states; an older database had none, so it migrates to
        // the same content with every region cold.
        int warmRegions = 0;
        QVERIFY(sql(single_, "SELECT count(*) FROM region_records WHERE warm_state IS NOT NULL",
                    true, [&](const QStringList& row) { warmRegions = row[0].toInt(); }));
        QVERIFY(warmRegions > 0);
        const QString cold = copy(single_, "cold.sqlite");
        QVERIFY(sql(cold, "UPDATE regions SET functional_warmup = 0", false));
        QVERIFY(sql(cold, "UPDATE region_records SET warm_state = NULL", false));
        for (const int version : {1, 2}) {
            const QString db = copy(single_, QString("v%1.sqlite").arg(version));
            if (version < 2)
                QVERIFY(sql(db, "ALTER TABLE regions DROP COLUMN phase", false));
            QVERIFY(sql(db, "ALTER TABLE regions DROP COLUMN functional_warmup", false));
            QVERIFY(sql(db, "ALTER TABLE region_records DROP COLUMN warm_state", false));
            QVERIFY(sql(
                db,
                QString("UPDATE meta SET value = '%1' WHERE key = 'schema_version'").arg(version),
                false));
            QCOMPARE(concorde({"validate-db", db}).exitCode, 1);
            const Run migrate = concorde({"migrate-db", db});
            QVERIFY2(migrate.exitCode == 0, qPrintable(migrate.err));
            QVERIFY2(
                migrate.out.contains(QString("migrated from schema version %1 to 3").arg(version)),
                qPrintable(migrate.out));
            QCOMPARE(concorde({"validate-db", db}).exitCode, 0);
            const QStringList a = dump(cold);
            const QStringList b = dump(db);
            QVERIFY2(a == b, qPrintable(firstDifference(a, b)));
            QVERIFY(concorde({"migrate-db", db}).out.contains("already at schema version 3"));
        }
    }

    // migrate-db stores warm states at the archive level (how the shipped database fits its
    // 25 MB): the states shrink, and labelling from them gives the same cycles as before.
    void migrateDbCompactsWarmStates() {
        const QString before = copy(single_, "compact-before.sqlite");
        const QString after = copy(single_, "compact-after.sqlite");
        const Run migrate = concorde({"migrate-db", after});
        QVERIFY2(migrate.exitCode == 0, qPrintable(migrate.err));
        const QRegularExpression sizes("(\\d+) warm states rewritten, (\\d+) -> (\\d+) bytes");
        const QRegularExpressionMatch m = sizes.match(migrate.out);
        QVERIFY2(m.hasMatch(), qPrintable(migrate.out));
        QCOMPARE(m.captured(1).toInt(), 12);
        QVERIFY2(m.captured(3).toLongLong() < m.captured(2).toLongLong(), qPrintable(migrate.out));
        QCOMPARE(scalar(after, "SELECT sum(length(warm_state)) FROM region_records"),
                 m.captured(3).toLongLong());
        for (const QString& db : {before, after}) {
            const Run label = concorde({"label", "--db", db, "--presets", "--jobs", "2"});
            QVERIFY2(label.exitCode == 0, qPrintable(label.err));
        }
        const QString cycles = "SELECT region_id, source, cycles FROM labels ORDER BY 1, 2";
        QStringList a;
        QStringList b;
        QVERIFY(sql(before, cycles, true, [&](const QStringList& row) { a << row.join('|'); }));
        QVERIFY(sql(after, cycles, true, [&](const QStringList& row) { b << row.join('|'); }));
        QVERIFY(!a.isEmpty());
        QVERIFY2(a == b, qPrintable(firstDifference(a, b)));
    }

    void filesThatAreNotDatabases() {
        const QString text = path("notes.sqlite");
        writeFile(text, "just some notes, not a database at all\n");
        const QString empty = path("empty.sqlite");
        writeFile(empty, {});
        const QString missing = path("missing.sqlite");
        const QString foreign = path("foreign.sqlite");
        {
            sqlite3* handle = nullptr;
            sqlite3_open(foreign.toUtf8().constData(), &handle);
            sqlite3_exec(handle, "CREATE TABLE contacts (name TEXT)", nullptr, nullptr, nullptr);
            sqlite3_close(handle);
        }
        const struct {
            QStringList args;
            QString message;
        } cases[] = {
            {{"validate-db", text}, "is not an SQLite database"},
            {{"validate-db", empty}, "is empty"},
            {{"validate-db", missing}, "no such database file"},
            {{"validate-db", foreign}, "not a Concorde feature database"},
            {{"info", foreign}, "not a Concorde feature database"},
            {{"migrate-db", text}, "not an SQLite database"},
            {{"label", "--db", missing, "--configs", "1"}, "no such database file"},
            {{"build-db", "--out", text, micro_}, "refusing to overwrite"},
            {{"build-db", "--out", foreign, micro_}, "not a Concorde feature database"},
            {{"build-db", "--out", path("x.sqlite"), "--grid", path("nogrid.json"), micro_},
             "cannot read grid file"},
            {{"build-db", "--out", path("x.sqlite"), "--shard", "2/2", micro_}, "shard 2/2"},
        };
        for (const auto& c : cases) {
            const Run run = concorde(c.args);
            QVERIFY2(
                run.exitCode == 2 && run.err.contains(c.message),
                qPrintable(c.args.join(' ') + QString(" -> %1: ").arg(run.exitCode) + run.err));
        }
        // The foreign database was not touched.
        QCOMPARE(scalar(foreign, "SELECT count(*) FROM sqlite_master"), qint64(1));
    }
};

QTEST_GUILESS_MAIN(DatabaseTest)
#include "DatabaseTest.moc"
