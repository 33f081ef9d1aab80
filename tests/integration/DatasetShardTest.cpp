// `concorde dataset --shard I/N` and `concorde merge-dataset` through the real executable: the
// shards of a dataset partition the one-machine file's rows by region, their merge equals that
// file row for row (and meta for meta), merging is idempotent and can be done in parts, a shard
// resumes after an interruption, and shards of other settings, other N or overlapping regions
// are refused.
#include "../support/ConcordeProcess.h"
#include "../support/SqlRows.h"

#include <QDir>
#include <QFile>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>
#include <functional>
#include <sqlite3.h>

namespace {

const QString kSamples = QString(CONCORDE_SOURCE_DIR) + "/data/samples/";
constexpr int kSamplesDrawn = 150;

using Run = concorde::test::ConcordeRun;

/// Runs SQL read-write through the sqlite3 C API (tests/support/SqlRows.h).
bool sql(const QString& path, const QString& statement,
         const std::function<void(const QStringList&)>& onRow = {}) {
    return concorde::test::runSql(path, statement, false, onRow);
}

/// Every row of a query, one string each, in the query's order.
QStringList rows(const QString& path, const QString& statement) {
    QStringList out;
    if (!sql(path, statement, [&](const QStringList& row) { out << row.join('|'); }))
        out << "query failed: " + statement;
    return out;
}

QStringList samplesOf(const QString& path) {
    return rows(path, "SELECT * FROM samples ORDER BY id");
}

} // namespace

class DatasetShardTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString db_;
    QString single_; ///< the one-machine dataset
    QStringList shards_;

    QString path(const QString& name) const { return dir_.filePath(name); }
    Run concorde(const QStringList& args) const {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("XDG_CONFIG_HOME", path("config"));
        return concorde::test::runConcorde(args, env);
    }
    QStringList datasetArgs(const QString& out, int seed = 3) const {
        return {"dataset",
                "--db",
                db_,
                "--samples",
                QString::number(kSamplesDrawn),
                "--seed",
                QString::number(seed),
                "--hold-out",
                "perl-regex",
                "--jobs",
                "2",
                "--out",
                out};
    }
    QString copy(const QString& from, const QString& name) const {
        const QString to = path(name);
        QFile::remove(to);
        if (!QFile::copy(from, to))
            qFatal("cannot copy %s", qPrintable(from));
        return to;
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QDir().mkpath(path("config"));
        const QString grid = path("small.json");
        QFile file(grid);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"rob": [32, 128], "lq": [16, 64], "sq": [16], "alu_issue": [2, 4],
                      "fp_issue": [2], "ls_issue": [2], "ls_pipes": [1, 2], "load_pipes": [0, 1],
                      "fetch_width": [4], "fetch_buffers": [4], "icache_fills": [4],
                      "bp": ["simple", "tage"], "bp_miss_pct": [2], "l1d_kb": [32, 64],
                      "l1i_kb": [64], "l2_kb": [1024], "pf_degree": [0]})");
        file.close();
        db_ = path("db.sqlite");
        const Run build =
            concorde({"build-db", "--out", db_, "--grid", grid, "--jobs", "2",
                      kSamples + "gzip-decompress.ctrace", kSamples + "perl-regex.ctrace",
                      kSamples + "xz-compress.ctrace"});
        QVERIFY2(build.exitCode == 0, qPrintable(build.err));
        single_ = path("single.dataset");
        const Run one = concorde(datasetArgs(single_));
        QVERIFY2(one.exitCode == 0, qPrintable(one.err));
        QCOMPARE(samplesOf(single_).size(), kSamplesDrawn);
        for (int i = 0; i < 3; ++i) {
            shards_ << path(QString("shard-%1.dataset").arg(i));
            const Run run = concorde(datasetArgs(shards_.back()) +
                                     QStringList{"--shard", QString("%1/3").arg(i)});
            QVERIFY2(run.exitCode == 0, qPrintable(run.err));
            QVERIFY2(run.out.contains(QString("shard:      %1/3, ").arg(i)), qPrintable(run.out));
        }
    }

    // The shards split the one-machine rows by region: disjoint, complete, identical rows, and
    // each region in the shard of its position (region ids are positions + 1 in this database).
    void shardsPartitionTheRowsByRegion() {
        const QStringList single = samplesOf(single_);
        QSet<QString> seen;
        QSet<QString> regionsSeen;
        for (int i = 0; i < shards_.size(); ++i) {
            const QStringList rowsOfShard = samplesOf(shards_[i]);
            QVERIFY2(!rowsOfShard.isEmpty(), qPrintable(shards_[i]));
            for (const QString& row : rowsOfShard) {
                const QString id = row.section('|', 0, 0);
                QVERIFY2(!seen.contains(id), qPrintable("draw " + id + " in two shards"));
                seen.insert(id);
                QCOMPARE(row, single.at(id.toInt()));
            }
            const QStringList regions =
                rows(shards_[i], "SELECT DISTINCT program || ' ' || region_index FROM samples");
            for (const QString& region : regions) {
                QVERIFY2(!regionsSeen.contains(region), qPrintable(region + " in two shards"));
                regionsSeen.insert(region);
                const QStringList parts = region.split(' ');
                const QStringList position =
                    rows(db_, QString("SELECT r.id - 1 FROM regions r JOIN programs p ON p.id = "
                                      "r.program_id WHERE p.name = '%1' AND r.region_index = %2")
                                  .arg(parts[0], parts[1]));
                QCOMPARE(position.size(), 1);
                QCOMPARE(position.front().toInt() % 3, i);
            }
            // A shard records which one it is; the settings are otherwise the single run's.
            QCOMPARE(rows(shards_[i], "SELECT json_extract(value, '$.shard') FROM meta WHERE "
                                      "key = 'sources'"),
                     QStringList{QString("%1/3").arg(i)});
        }
        QCOMPARE(seen.size(), kSamplesDrawn);
    }

    // Merged, the shards are the one-machine file: every row and every meta value.
    void mergeEqualsTheOneMachineDataset() {
        const QString merged = path("merged.dataset");
        const Run merge = concorde(QStringList{"merge-dataset", "--out", merged} + shards_);
        QVERIFY2(merge.exitCode == 0, qPrintable(merge.err));
        QVERIFY2(merge.out.contains(
                     QString("%1 copied, 0 already present, %1 in the file").arg(kSamplesDrawn)),
                 qPrintable(merge.out));
        QVERIFY(!QFile::exists(merged + ".merging"));
        QCOMPARE(samplesOf(merged), samplesOf(single_));
        QCOMPARE(rows(merged, "SELECT * FROM meta ORDER BY key"),
                 rows(single_, "SELECT * FROM meta ORDER BY key"));
        // Merging again adds nothing.
        const Run again = concorde(QStringList{"merge-dataset", "--out", merged} + shards_);
        QVERIFY2(again.exitCode == 0, qPrintable(again.err));
        QVERIFY2(again.out.contains(QString("0 copied, %1 already present").arg(kSamplesDrawn)),
                 qPrintable(again.out));
        QCOMPARE(samplesOf(merged), samplesOf(single_));
        // The merged file trains like the single one: `dataset` accepts it as its own output.
        const Run resumed = concorde(datasetArgs(merged));
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.err));
        QVERIFY2(resumed.out.contains(QString("0 drawn, %1 already present").arg(kSamplesDrawn)),
                 qPrintable(resumed.out));
    }

    // Shards merged as they finish: two now (a warning names the missing one), the third later.
    void mergeInParts() {
        const QString merged = path("parts.dataset");
        const Run first = concorde({"merge-dataset", "--out", merged, shards_[0], shards_[2]});
        QVERIFY2(first.exitCode == 0, qPrintable(first.err));
        QVERIFY2(first.err.contains("shard 1/3 not given"), qPrintable(first.err));
        const int partial = samplesOf(merged).size();
        QVERIFY(partial > 0 && partial < kSamplesDrawn);
        const Run second = concorde({"merge-dataset", "--out", merged, shards_[1]});
        QVERIFY2(second.exitCode == 0, qPrintable(second.err));
        QCOMPARE(samplesOf(merged), samplesOf(single_));
    }

    // A shard cut short (as a time-out leaves it: whole regions only) resumes with the same
    // command and then equals the uninterrupted shard; another --shard on it is refused.
    void shardResumesAfterAnInterruption() {
        const QString shard = copy(shards_[1], "cut.dataset");
        const QStringList whole = samplesOf(shard);
        const QStringList last =
            rows(shard, "SELECT program, region_index FROM samples ORDER BY id DESC LIMIT 1");
        QCOMPARE(last.size(), 1);
        const QStringList region = last.front().split('|');
        QVERIFY(sql(shard, QString("DELETE FROM samples WHERE program = '%1' AND region_index = %2")
                               .arg(region[0], region[1])));
        const int kept = samplesOf(shard).size();
        QVERIFY(kept < whole.size());
        const Run resumed = concorde(datasetArgs(shard) + QStringList{"--shard", "1/3"});
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.err));
        QVERIFY2(resumed.out.contains(
                     QString("%1 drawn, %2 already present").arg(whole.size() - kept).arg(kept)),
                 qPrintable(resumed.out));
        QCOMPARE(samplesOf(shard), whole);
        const Run other = concorde(datasetArgs(shard) + QStringList{"--shard", "2/3"});
        QVERIFY(other.exitCode != 0);
        QVERIFY2(other.err.contains("different set of inputs"), qPrintable(other.err));
    }

    // Shards that do not belong together are refused before anything is written.
    void mismatchedShardsAreRefused() {
        const QString otherSeed = path("seed4.dataset");
        QCOMPARE(concorde(datasetArgs(otherSeed, 4) + QStringList{"--shard", "1/3"}).exitCode, 0);
        const QString otherCount = path("half.dataset");
        QCOMPARE(concorde(datasetArgs(otherCount) + QStringList{"--shard", "1/2"}).exitCode, 0);
        // A copy of shard 0 that claims to be shard 1: its regions are shard 0's too.
        const QString overlap = copy(shards_[0], "overlap.dataset");
        QVERIFY(sql(overlap, "UPDATE meta SET value = json_set(value, '$.shard', '1/3') WHERE "
                             "key = 'sources'"));
        const struct {
            QStringList inputs;
            QString message;
        } cases[] = {
            {{shards_[0], otherSeed}, "different seeds"},
            {{shards_[0], otherCount}, "different shard counts"},
            {{shards_[0], overlap}, "the shards overlap"},
            {{shards_[0], db_}, "not a Concorde dataset"},
        };
        for (const auto& c : cases) {
            const QString out = path("refused.dataset");
            const Run run = concorde(QStringList{"merge-dataset", "--out", out} + c.inputs);
            QVERIFY2(run.exitCode != 0 && run.err.contains(c.message),
                     qPrintable(c.message + ": " + run.err));
            QVERIFY(!QFile::exists(out) && !QFile::exists(out + ".merging"));
        }
        // An output of other settings is refused too, and left as it was.
        const QString other = copy(otherSeed, "other-out.dataset");
        const QStringList before = samplesOf(other);
        const Run run = concorde(QStringList{"merge-dataset", "--out", other} + shards_);
        QVERIFY2(run.exitCode != 0 && run.err.contains("seed"), qPrintable(run.err));
        QCOMPARE(samplesOf(other), before);
        const Run self = concorde({"merge-dataset", "--out", shards_[0], shards_[0]});
        QVERIFY2(self.exitCode != 0 && self.err.contains("also given as a shard"),
                 qPrintable(self.err));
    }
};

QTEST_GUILESS_MAIN(DatasetShardTest)
#include "DatasetShardTest.moc"
