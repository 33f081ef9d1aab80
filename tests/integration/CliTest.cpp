// Runs the real `concorde` executable as a user would and checks its output and exit codes.
#include "../support/ConcordeProcess.h"
#include "store/SqliteConnection.h"
#include "trace/TraceReader.h"
#include "trace/TraceWriter.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <unistd.h>

using namespace concorde;

namespace {

using Run = concorde::test::ConcordeRun;
using concorde::test::runConcorde;

} // namespace

class CliTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void helpListsSubcommands() {
        const Run run = runConcorde({"--help"});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains("info"));
        QVERIFY(run.out.contains("microbench"));
        const Run help = runConcorde({"help", "microbench"});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains("--iterations"));
        QVERIFY2(run.out.contains("130 cancelled"), qPrintable(run.out));
    }

    void usageErrorsExitTwo() {
        QCOMPARE(runConcorde({}).exitCode, 2);
        const Run unknown = runConcorde({"frobnicate"});
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY(unknown.err.contains("unknown subcommand 'frobnicate'"));
        const Run badOption = runConcorde({"info", "--bogus", "x.ctrace"});
        QCOMPARE(badOption.exitCode, 2);
        QVERIFY(badOption.err.contains("unknown option '--bogus'"));
    }

    // `concorde help CMD` is generated from the options each command declares: every option is
    // listed with its value, default and range, and `CMD --help` prints the same.
    void helpListsEveryDeclaredOption() {
        const struct {
            const char* command;
            QStringList entries;
        } cases[] = {
            {"bounds",
             {"Usage: concorde bounds [OPTIONS] TRACE", "TRACE", "--preset NAME", "--set KEY=VALUE",
              "--region I", "--window W", "default: 400; 16–1048576", "--json", "--csv",
              "not with --json", "-h, --help", "Runs the per-resource"}},
            {"train",
             {"Usage: concorde train --dataset FILE --db DB [OPTIONS]", "--dataset FILE", "--db DB",
              "--name NAME", "--hidden A,B", "--epochs N", "--batch N", "--lr X",
              "default: 0.001; 1e-07–1", "--weight-decay X", "--patience N", "--plateau N",
              "--seed S", "--json", "-h, --help"}},
            {"dataset",
             {"--traces T...", "--db DB", "--samples N", "required; 1–100000000", "--out FILE",
              "--seed S", "--jobs N", "default: every core; 1–4096", "--hold-out P", "--grid G",
              "needs --traces", "--balanced F", "--near-presets F", "--labels-from D"}},
            {"trace",
             {"Usage: concorde trace -o FILE [OPTIONS] -- PROGRAM [ARGS...]", "--skip N",
              "--length M", "--warmup W", "--regions K", "--interval I"}},
        };
        for (const auto& c : cases) {
            const Run help = runConcorde({"help", c.command});
            QCOMPARE(help.exitCode, 0);
            for (const QString& entry : c.entries)
                QVERIFY2(help.out.contains(entry),
                         qPrintable(QString("%1: no '%2' in\n%3").arg(c.command, entry, help.out)));
            const Run flag = runConcorde({c.command, "--help"});
            QCOMPARE(flag.exitCode, 0);
            QCOMPARE(flag.out, help.out);
        }
    }

    // -h and --help print the help wherever they stand before "--", even next to an incomplete
    // or unknown option; after "--" they are the traced program's.
    void helpAnywhere() {
        const Run expected = runConcorde({"help", "dataset"});
        for (const QStringList& args :
             {QStringList{"dataset", "--db", "x.sqlite", "--help"},
              QStringList{"dataset", "--samples", "--help"},
              QStringList{"dataset", "-h", "--bogus"},
              QStringList{"dataset", "--bogus", "--samples", "0", "-h"}}) {
            const Run run = runConcorde(args);
            QVERIFY2(run.exitCode == 0, qPrintable(args.join(' ') + ": " + run.err));
            QCOMPARE(run.out, expected.out);
        }
        const Run traced = runConcorde({"trace", "-o", dir_.filePath("t.ctrace"), "--", "--help"});
        QCOMPARE(traced.exitCode, 2);
        QVERIFY2(traced.err.contains("program '--help' not found"), qPrintable(traced.err));
    }

    // A usage error exits 2 with a message that names the option, and the hint to the help.
    void usageErrorsNameTheOption() {
        const QString trace = dir_.filePath("usage.ctrace");
        QCOMPARE(runConcorde({"microbench", "chain-int-alu", "--iterations", "10", "-o", trace})
                     .exitCode,
                 0);
        const Run unknown = runConcorde({"simulate", trace, "--frobnicate", "3"});
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY2(unknown.err.contains("unknown option '--frobnicate'"), qPrintable(unknown.err));
        QVERIFY(unknown.err.contains("(see concorde help simulate)"));

        const struct {
            QStringList args;
            QString message;
        } cases[] = {
            {{"bounds", trace, "--window", "8"}, "--window: 8 is out of range 16–1048576"},
            {{"bounds", trace, "--window=2000000"}, "--window: 2000000 is out of range 16–1048576"},
            {{"bounds", trace, "--window", "-3"}, "--window: expects a whole number, got '-3'"},
            {{"bounds", trace, "--window", "4k"}, "--window: expects a whole number, got '4k'"},
            {{"simulate", trace, "--region", "x"}, "--region: expects a whole number"},
            {{"train", "--dataset", "d", "--db", "db", "--lr", "2"},
             "--lr: 2 is out of range 1e-07–1"},
            {{"train", "--dataset", "d", "--db", "db", "--hidden", "64,0"},
             "--hidden: 0 is out of range 1–4096"},
            {{"dataset", "--db", "db", "--samples", "0", "--out", "f"},
             "--samples: 0 is out of range 1–100000000"},
            {{"import-champsim", "in", "-o", "out", "--length", "0"},
             "--length: 0 is out of range (at least 1)"},
            {{"label", "--db", "db", "--jobs", "0"}, "--jobs: 0 is out of range 1–4096"},
            {{"bounds", trace, "--json", "--csv"}, "--json"},
            {{"bounds"}, "TRACE is required"},
            {{"bounds", trace, trace}, "unexpected argument"},
            {{"build-db", "--out"}, "--out"},
            {{"build-db", "t.ctrace"}, "--out is required"},
            {{"diagnose", "--group", "bogus"}, "--group: unknown value 'bogus'"},
            {{"dataset", "--samples", "5", "--out", "f"}, "--traces TRACES... or --db"},
            {{"dataset", "--db", "db", "--grid", "full", "--samples", "5", "--out", "f"},
             "--grid requires --traces"},
            {{"dataset", "--db", "db", "--samples", "5", "--out", "f", "--balanced", "0.5",
              "--near-presets", "0.6"},
             "--balanced and --near-presets add up to more than 1"},
            {{"dataset", "--db", "db", "--samples", "5", "--out", "f", "--near-presets", "1.5"},
             "--near-presets: 1.5 is out of range"},
            {{"predict", "--db", "db"}, "--program P or --all"},
            {{"trace", "-o", "t", "gzip"}, "go after '--'"},
        };
        for (const auto& c : cases) {
            const Run run = runConcorde(c.args);
            QVERIFY2(
                run.exitCode == 2 && run.err.contains(c.message) &&
                    run.err.contains("(see concorde help " + c.args.front() + ")"),
                qPrintable(c.args.join(' ') + QString(" -> %1: ").arg(run.exitCode) + run.err));
        }
    }

    // `dataset --traces A B` takes the traces as the option's values, up to the next option.
    // (Small traces: 100 iterations of stride-load are 1.7M instructions, and labelling 12
    // samples of them took over 5 CPU minutes under ASan.)
    void datasetFromTraces() {
        const QString a = dir_.filePath("chain-a.ctrace");
        const QString b = dir_.filePath("chain-b.ctrace");
        QCOMPARE(
            runConcorde({"microbench", "chain-int-mul", "--iterations", "100", "-o", a}).exitCode,
            0);
        QCOMPARE(
            runConcorde({"microbench", "stride-load", "--iterations", "4", "-o", b}).exitCode, 0);
        const QString dataset = dir_.filePath("traces.dataset");
        const Run run = runConcorde({"dataset", "--traces", a, b, "--samples", "12", "--out",
                                     dataset, "--grid", "default", "--jobs", "2"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.out.contains("12 drawn"), qPrintable(run.out));
        // Both traces were taken: samples are drawn over their regions by length, so which
        // regions a small draw reaches varies, but never more than the two there are.
        QVERIFY2(run.out.contains("1 sampled this run") || run.out.contains("2 sampled this run"),
                 qPrintable(run.out));
    }

    void infoOnMissingAndCorruptFiles() {
        const Run missing = runConcorde({"info", dir_.filePath("absent.ctrace")});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY(missing.err.contains("no such trace file"));
        QFile junk(dir_.filePath("junk.ctrace"));
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write(QByteArray(100, 'j'));
        junk.close();
        const Run corrupt = runConcorde({"info", junk.fileName()});
        QCOMPARE(corrupt.exitCode, 2);
        QVERIFY(corrupt.err.contains("not a .ctrace file"));
    }

    // `concorde microbench` writes traces that `concorde info` reads back correctly.
    void microbenchThenInfo() {
        const Run list = runConcorde({"microbench", "--list"});
        QCOMPARE(list.exitCode, 0);
        for (const char* kernel :
             {"chain-int-mul", "independent", "pointer-chase", "stride-load", "stride-store",
              "rob-knee", "lq-knee", "sq-knee", "store-miss", "branch-random", "taken-groups"})
            QVERIFY2(list.out.contains(kernel), kernel);
        const QString path = dir_.filePath("lq.ctrace");
        const Run make = runConcorde(
            {"microbench", "lq-knee", "--iterations", "100", "--param", "fillers=10", "-o", path});
        QCOMPARE(make.exitCode, 0);
        const Run info = runConcorde({"info", "--json", path});
        QCOMPARE(info.exitCode, 0);
        const QJsonObject doc = QJsonDocument::fromJson(info.out.toUtf8()).object();
        const QJsonObject summary = doc["summary"].toObject();
        const QJsonObject region = doc["regions"].toArray()[0].toObject();
        // An lq-knee iteration: miss, N filler loads, miss, N filler loads, loop jump.
        QCOMPARE(region["length"].toInt(), 100 * (2 * 10 + 3));
        QCOMPARE(summary["instructions"].toInt(),
                 region["length"].toInt() + region["warmup"].toInt());
        const int loads = summary["class_mix"].toObject()["load"].toInt();
        QCOMPARE(loads, (100 + 8) * (2 * 10 + 2)); // measured + 8 warm-up iterations
        QCOMPARE(doc["source"].toString(), QString("microbench"));
        QCOMPARE(doc["properties"].toObject()["kernel"].toString(), QString("lq-knee"));

        const Run bad = runConcorde({"microbench", "lq-knee", "--param", "fillers=-3", "-o", path});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("fillers"), qPrintable(bad.err));
        QCOMPARE(runConcorde({"microbench", "no-such-kernel", "-o", path}).exitCode, 2);
    }

    // ChampSim export then import, through the command line.
    void champsimCommands() {
        const QString trace = dir_.filePath("br.ctrace");
        QCOMPARE(runConcorde({"microbench", "branch-random", "--iterations", "500", "-o", trace})
                     .exitCode,
                 0);
        const QString exported = dir_.filePath("br.champsimtrace.xz");
        const Run out = runConcorde({"export-champsim", trace, "-o", exported});
        QCOMPARE(out.exitCode, 0);
        const QString back = dir_.filePath("back.ctrace");
        QCOMPARE(runConcorde({"import-champsim", exported, "-o", back}).exitCode, 0);
        const auto summaryOf = [&](const QString& file) {
            return QJsonDocument::fromJson(runConcorde({"info", "--json", file}).out.toUtf8())
                .object()["summary"]
                .toObject();
        };
        const QJsonObject a = summaryOf(trace);
        const QJsonObject b = summaryOf(back);
        QCOMPARE(b["instructions"].toInt(), a["instructions"].toInt());
        QCOMPARE(b["branch_kinds"].toObject(), a["branch_kinds"].toObject());
        QCOMPARE(b["taken_fraction_of_branches"].toDouble(),
                 a["taken_fraction_of_branches"].toDouble());
        QCOMPARE(runConcorde({"import-champsim", dir_.filePath("missing.xz"), "-o", back}).exitCode,
                 2);
        // Issue 23: a warm-up that eats the whole trace wrote a region of 0 measured
        // instructions with exit 0; simulate then printed CPI 0. Refused, and no file written.
        const QString empty = dir_.filePath("all-warmup.ctrace");
        const Run eaten =
            runConcorde({"import-champsim", exported, "-o", empty, "--warmup", "100000000"});
        QCOMPARE(eaten.exitCode, 2);
        QVERIFY2(eaten.err.contains("no measured instructions"), qPrintable(eaten.err));
        QVERIFY(!QFile::exists(empty));
    }

    void simulateAndDiagnose() {
        const QString trace = dir_.filePath("chain.ctrace");
        QCOMPARE(runConcorde({"microbench", "chain-fp-mul", "--iterations", "100", "-o", trace})
                     .exitCode,
                 0);
        const Run sim = runConcorde({"simulate", trace, "--preset", "n1-like", "--json"});
        QCOMPARE(sim.exitCode, 0);
        const QJsonObject doc = QJsonDocument::fromJson(sim.out.toUtf8()).object();
        // 64 chained fp-mul (4 cycles each) per 65 instructions.
        QVERIFY2(std::abs(doc["cpi"].toDouble() - 4.0 * 64 / 65) < 0.05,
                 qPrintable(sim.out.left(300)));
        QCOMPARE(doc["regions"].toArray()[0].toObject()["window_ipc"].toArray().size(),
                 (100 * 65 + 399) / 400);
        const Run bad = runConcorde({"simulate", trace, "--set", "rob=2"});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(bad.err.contains("'rob'"));
        QCOMPARE(runConcorde({"simulate", trace, "--preset", "nope"}).exitCode, 2);
        const Run diag = runConcorde({"diagnose", "--group", "latency"});
        QCOMPARE(diag.exitCode, 0);
        QVERIFY(diag.out.contains("14 passed, 0 failed"));
        QCOMPARE(runConcorde({"diagnose", "--group", "bogus"}).exitCode, 2);
    }

    // Issue 23: a malformed preset among the user's made every --preset fail with an internal
    // error. Now it is skipped with a warning naming its file, and refused only if asked for.
    void malformedUserPresetIsSkippedWithAWarning() {
        const QString trace = dir_.filePath("preset-chain.ctrace");
        QCOMPARE(runConcorde({"microbench", "chain-int-mul", "--iterations", "50", "-o", trace})
                     .exitCode,
                 0);
        const QString config = dir_.filePath("xdg");
        QVERIFY(QDir().mkpath(config + "/concorde/presets"));
        const QString bad = config + "/concorde/presets/mine.json";
        QFile file(bad);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"name": null, "parameters": {"rob": 64}})");
        file.close();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("XDG_CONFIG_HOME", config);
        const Run ok = runConcorde({"simulate", trace, "--preset", "n1-like"}, env);
        QVERIFY2(ok.exitCode == 0, qPrintable(ok.err));
        QVERIFY2(ok.err.contains("warning") && ok.err.contains(bad), qPrintable(ok.err));
        const Run asked = runConcorde({"simulate", trace, "--preset", "mine"}, env);
        QCOMPARE(asked.exitCode, 2);
        QVERIFY2(asked.err.contains(bad) && asked.err.contains("\"name\"") &&
                     !asked.err.contains("internal error"),
                 qPrintable(asked.err));
    }

    // Issue 23: a database that cannot be read was reported as "not an SQLite database". The
    // real cause is named: a directory, no permission (the test drops root to check it).
    void unreadableDatabasesReportTheRealCause() {
        const QString folder = dir_.filePath("folder.sqlite");
        QVERIFY(QDir().mkpath(folder));
        for (const QStringList& args :
             {QStringList{"validate-db", folder}, QStringList{"predict", "--db", folder, "--all"},
              QStringList{"phases", "--db", folder, "--all"}}) {
            const Run run = runConcorde(args);
            QCOMPARE(run.exitCode, 2);
            QVERIFY2(run.err.contains("is a directory") && !run.err.contains("not an SQLite"),
                     qPrintable(run.err));
        }

        // A real SQLite file nobody may read, in a folder everyone may enter.
        QTemporaryDir open(QDir::tempPath() + "/concorde-perm-XXXXXX");
        QVERIFY(QFile::setPermissions(open.path(), QFile::ReadOwner | QFile::WriteOwner |
                                                       QFile::ExeOwner | QFile::ReadOther |
                                                       QFile::ExeOther));
        const QString locked = open.filePath("secret.sqlite");
        SqliteConnection(locked.toStdString(), SqliteConnection::Mode::ReadWrite)
            .exec("CREATE TABLE t (x)", "creating");
        QVERIFY(QFile::setPermissions(locked, QFileDevice::Permissions()));
        QStringList command = {"validate-db", locked};
        QString program = QString(CONCORDE_BINARY_DIR) + "/bin/concorde";
        if (geteuid() == 0) { // root reads anything: run as nobody
            if (QStandardPaths::findExecutable("setpriv").isEmpty())
                QSKIP("running as root without setpriv: cannot test a permission error");
            command =
                QStringList{"--reuid=65534", "--regid=65534", "--clear-groups", program} + command;
            program = QStandardPaths::findExecutable("setpriv");
        }
        QProcess process;
        process.start(program, command);
        QVERIFY(process.waitForFinished(60'000));
        const QString err = QString::fromUtf8(process.readAllStandardError());
        QCOMPARE(process.exitCode(), 2);
        QVERIFY2(err.contains("Permission denied") && !err.contains("not an SQLite"),
                 qPrintable(err));
    }

    void infoDescribesATrace() {
        const QString path = dir_.filePath("mix.ctrace");
        {
            TraceInfo info;
            info.commandLine = "handmade";
            info.source = "unit-test";
            TraceWriter writer(path.toStdString(), info);
            writer.beginRegion(500, 10);
            TraceRecord alu;
            alu.pc = 0x1000;
            alu.size = 4;
            TraceRecord load = alu;
            load.instrClass = InstrClass::Load;
            load.addLoad(0x2000, 8);
            for (int i = 0; i < 100; ++i) {
                alu.pc = load.pc = 0x1000 + 4 * static_cast<std::uint64_t>(i);
                writer.append(i % 4 == 0 ? load : alu);
            }
            writer.finish();
        }
        const Run text = runConcorde({"info", path});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("instructions:  100"), qPrintable(text.out));
        QVERIFY(text.out.contains("25.00 %")); // loads
        const Run json = runConcorde({"info", "--json", path});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject doc = QJsonDocument::fromJson(json.out.toUtf8()).object();
        QCOMPARE(doc["summary"].toObject()["instructions"].toInt(), 100);
        QCOMPARE(doc["summary"].toObject()["class_mix"].toObject()["load"].toInt(), 25);
        const QJsonArray regions = doc["regions"].toArray();
        QCOMPARE(regions.size(), 1);
        QCOMPARE(regions[0].toObject()["warmup"].toInt(), 10);
        QCOMPARE(regions[0].toObject()["length"].toInt(), 90);
        QCOMPARE(regions[0].toObject()["program_start"].toInt(), 500);
    }
};

QTEST_GUILESS_MAIN(CliTest)
#include "CliTest.moc"
