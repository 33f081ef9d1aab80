// File ▸ Add program…, driven as a user would: the dialog's fields and buttons, real programs
// traced by the real concorde tool into a copy of the shipped database.

#include "AddProgramDialog.h"
#include "ProgramImport.h"
#include "Session.h"

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace concorde::ui;

namespace {

QByteArray fileHash(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&file);
    return hash.result();
}

} // namespace

class AddProgramTest : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString shipped_;
    QString concorde_;
    QString input_;
    QByteArray shippedHash_;

    QString path(const QString& name) const { return dir_.filePath(name); }

    /// Files the import may leave behind by mistake: the partial copy and its temporary folder.
    QStringList leftovers(const QString& userDatabase) const {
        QStringList found;
        if (QFile::exists(userDatabase + ".adding"))
            found << userDatabase + ".adding";
        for (const QString& name :
             QDir(path("tmp")).entryList({"concorde-add-*"}, QDir::AllEntries | QDir::Hidden))
            found << name;
        return found;
    }

    std::unique_ptr<Session> openShipped() {
        auto session = std::make_unique<Session>();
        QString error;
        if (!session->openDatabaseNow(shipped_, &error))
            qWarning("cannot open %s: %s", qPrintable(shipped_), qPrintable(error));
        return session;
    }

    /// Fills the dialog for a command line and presses Add.
    static void addCommand(AddProgramDialog& dialog, const QString& command, const QString& name,
                           int regions) {
        dialog.findChild<QRadioButton*>("fromCommand")->setChecked(true);
        auto* line = dialog.findChild<QLineEdit*>("command");
        line->clear();
        QTest::keyClicks(line, command);
        auto* nameField = dialog.findChild<QLineEdit*>("programName");
        nameField->selectAll();
        QTest::keyClicks(nameField, name);
        dialog.findChild<QSpinBox*>("regions")->setValue(regions);
        QTest::mouseClick(dialog.findChild<QPushButton*>("add"), Qt::LeftButton);
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QVERIFY(QDir().mkpath(path("tmp")));
        qputenv("TMPDIR", path("tmp").toUtf8()); // QDir::temp(): where leftovers would appear
        shipped_ = QString(CONCORDE_SOURCE_DIR) + "/data/default.sqlite";
        concorde_ = QString(CONCORDE_BINARY_DIR) + "/bin/concorde";
        QVERIFY2(QFileInfo(concorde_).isExecutable(), qPrintable(concorde_));
        if (QStandardPaths::findExecutable("valgrind").isEmpty())
            QSKIP("valgrind is not installed (packaging/install-deps.sh installs it)");
        shippedHash_ = fileHash(shipped_);
        QVERIFY(!shippedHash_.isEmpty());
        // ~2 MB of varied text: gzip -c runs ~0.4 G instructions on it, room for 2 regions.
        input_ = path("input.txt");
        QFile file(input_);
        QVERIFY(file.open(QIODevice::WriteOnly));
        std::uint64_t x = 88172645463325252ull;
        QByteArray text;
        for (int i = 0; i < 300'000; ++i) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            text += "word" + QByteArray::number(static_cast<qulonglong>(x % 5000)) +
                    ((x >> 20) % 9 == 0 ? "\n" : " ");
        }
        file.write(text);
    }

    // Command lines split as a shell splits them, quotes and escapes included.
    void commandLinesSplitLikeAShell() {
        QString error;
        const QString line = "gzip  -c 'my file' \"a \\\"b\\\" $x\" c\\ d '' x'y'z";
        const QStringList expected = {"gzip", "-c", "my file", "a \"b\" $x", "c d", "", "xyz"};
        QCOMPARE(ProgramImport::splitCommandLine(line, &error), expected);
        QVERIFY(error.isEmpty());
        const QStringList backslash = {"sh", "-c", "a\\b"};
        QCOMPARE(ProgramImport::splitCommandLine("sh -c \"a\\b\""), backslash);
        QVERIFY(ProgramImport::splitCommandLine("sh -c 'while", &error).isEmpty());
        QVERIFY(error.contains("unmatched '"));
        error.clear();
        QVERIFY(ProgramImport::splitCommandLine("echo \"x", &error).isEmpty());
        QVERIFY(error.contains("unmatched \""));
    }

    // The name must be new and well-formed; an empty command is refused before anything runs.
    void formIsCheckedFirst() {
        auto session = openShipped();
        QVERIFY(session->programs().contains("gzip"));
        const QString user = path("names.sqlite");
        AddProgramDialog dialog(*session, concorde_, user);
        auto* error = dialog.findChild<QLabel*>("error");
        addCommand(dialog, "gzip -c " + input_, "gzip", 2);
        QVERIFY(!dialog.import().isRunning());
        QVERIFY2(error->isVisibleTo(&dialog) && error->text().contains("already has"),
                 qPrintable(error->text()));
        addCommand(dialog, "gzip -c " + input_, "bad name!", 2);
        QVERIFY(!dialog.import().isRunning());
        QVERIFY(error->text().contains("letters"));
        addCommand(dialog, "", "fresh", 2);
        QVERIFY(!dialog.import().isRunning());
        QVERIFY(error->text().contains("command line"));
        // The suggested name is the program's, made unique.
        dialog.findChild<QLineEdit*>("programName")->clear();
        AddProgramDialog fresh(*session, concorde_, user);
        QTest::keyClicks(fresh.findChild<QLineEdit*>("command"), "gzip -9 -c x");
        QCOMPARE(fresh.findChild<QLineEdit*>("programName")->text(), QString("gzip-2"));
        QVERIFY(!QFile::exists(user));
    }

    // A real program, traced at 2 regions, lands in the user database beside every shipped
    // program, the shipped file untouched; the new database opens with it selectable.
    void tracedCommandIsAdded() {
        auto session = openShipped();
        const QStringList shippedPrograms = session->programs();
        const QString user = path("user.sqlite");
        AddProgramDialog dialog(*session, concorde_, user);
        QSignalSpy added(&dialog, &AddProgramDialog::programAdded);
        QSignalSpy failed(&dialog.import(), &ProgramImport::failed);
        QSignalSpy progress(&dialog.import(), &ProgramImport::progressChanged);
        addCommand(dialog, "gzip -c " + input_, "mygzip", 2);
        QVERIFY(dialog.import().isRunning());
        QVERIFY2(added.wait(600'000) || !failed.isEmpty(),
                 "adding the program took more than 10 minutes");
        QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).toString()));
        QCOMPARE(added.size(), 1);
        QCOMPARE(added[0][0].toString(), user);
        QCOMPARE(added[0][1].toString(), QString("mygzip"));
        // Progress went forward through both steps and ended at 1.
        QVERIFY(progress.size() >= 3);
        double last = -1;
        for (const auto& step : progress) {
            QVERIFY(step[1].toDouble() >= last);
            last = step[1].toDouble();
        }
        QCOMPARE(last, 1.0);

        QCOMPARE(fileHash(shipped_), shippedHash_);
        QVERIFY2(leftovers(user).isEmpty(), qPrintable(leftovers(user).join(", ")));
        Session reopened;
        QString error;
        QVERIFY2(reopened.openDatabaseNow(user, &error), qPrintable(error));
        QCOMPARE(reopened.programs().size(), shippedPrograms.size() + 1);
        for (const QString& program : shippedPrograms)
            QVERIFY(reopened.programs().contains(program));
        QVERIFY(reopened.setProgram("mygzip"));
        reopened.recomputeNow();
        QVERIFY(reopened.prediction() != nullptr);

        // A second program goes into the same user database, from a .ctrace this time.
        AddProgramDialog again(reopened, concorde_, user);
        QSignalSpy addedAgain(&again, &AddProgramDialog::programAdded);
        QSignalSpy failedAgain(&again.import(), &ProgramImport::failed);
        again.findChild<QRadioButton*>("fromTrace")->setChecked(true);
        QTest::keyClicks(again.findChild<QLineEdit*>("traceFile"),
                         QString(CONCORDE_SOURCE_DIR) + "/data/samples/perl-regex.ctrace");
        QCOMPARE(again.findChild<QLineEdit*>("programName")->text(), QString("perl-regex"));
        QTest::mouseClick(again.findChild<QPushButton*>("add"), Qt::LeftButton);
        QVERIFY2(addedAgain.wait(600'000) || !failedAgain.isEmpty(), "took too long");
        QVERIFY2(failedAgain.isEmpty(), qPrintable(failedAgain.value(0).value(0).toString()));
        Session both;
        QVERIFY2(both.openDatabaseNow(user, &error), qPrintable(error));
        QVERIFY(both.programs().contains("mygzip"));
        QVERIFY(both.programs().contains("perl-regex"));
        QCOMPARE(both.programs().size(), shippedPrograms.size() + 2);
    }

    // A program that does not exist, one that crashes, and one that exits with an error: each
    // a clear message, and nothing written.
    void failuresLeaveNothing() {
        auto session = openShipped();
        const QString user = path("failures.sqlite");
        struct Case {
            QString command;
            QString expected;
        };
        const QList<Case> cases = {
            {"no-such-program-xyz", "not found"},
            {"sh -c 'kill -SEGV $$'", "signal"},
            {"perl -e 'my $s = 0; $s += $_ for 1 .. 300000; exit 3'", "exited with code 3"},
        };
        for (const Case& c : cases) {
            AddProgramDialog dialog(*session, concorde_, user);
            QSignalSpy failed(&dialog.import(), &ProgramImport::failed);
            addCommand(dialog, c.command, "broken", 2);
            QVERIFY2(!failed.isEmpty() || failed.wait(300'000), qPrintable(c.command));
            const QString message = failed[0][0].toString();
            QVERIFY2(message.contains(c.expected), qPrintable(c.command + ": " + message));
            QVERIFY(dialog.findChild<QLabel*>("error")->text() == message);
            QVERIFY(!dialog.import().isRunning());
            QVERIFY2(!QFile::exists(user), qPrintable(c.command));
            QVERIFY2(leftovers(user).isEmpty(), qPrintable(leftovers(user).join(", ")));
        }
    }

    // Without Valgrind (not on the PATH) the import says so and writes nothing.
    void missingValgrindIsNamed() {
        auto session = openShipped();
        const QString user = path("no-valgrind.sqlite");
        const QString gzip = QStandardPaths::findExecutable("gzip");
        QVERIFY(!gzip.isEmpty());
        const QByteArray oldPath = qgetenv("PATH");
        QVERIFY(QDir().mkpath(path("empty-bin")));
        qputenv("PATH", path("empty-bin").toUtf8()); // concorde inherits it
        AddProgramDialog dialog(*session, concorde_, user);
        QSignalSpy failed(&dialog.import(), &ProgramImport::failed);
        addCommand(dialog, gzip + " -c " + input_, "novalgrind", 2);
        const bool gotIt = !failed.isEmpty() || failed.wait(60'000);
        qputenv("PATH", oldPath);
        QVERIFY(gotIt);
        QVERIFY2(failed[0][0].toString().contains("valgrind is not installed"),
                 qPrintable(failed[0][0].toString()));
        QVERIFY(!QFile::exists(user));
        QVERIFY2(leftovers(user).isEmpty(), qPrintable(leftovers(user).join(", ")));
    }

    // Cancel while a long program is being traced: the tracer stops, the dialog stays open and
    // says so, and nothing is written.
    void cancelStopsTheTracer() {
        auto session = openShipped();
        const QString user = path("cancelled.sqlite");
        AddProgramDialog dialog(*session, concorde_, user);
        dialog.show();
        QSignalSpy cancelled(&dialog.import(), &ProgramImport::cancelled);
        addCommand(dialog, "sh -c 'while :; do :; done'", "forever", 2);
        QVERIFY(dialog.import().isRunning());
        QTest::qWait(3000);
        QElapsedTimer timer;
        timer.start();
        QTest::keyClick(&dialog, Qt::Key_Escape);
        QCOMPARE(cancelled.size(), 1);
        QVERIFY2(timer.elapsed() < 8000, "cancelling took too long");
        QVERIFY(!dialog.import().isRunning());
        QVERIFY(dialog.isVisible());
        QVERIFY(!QFile::exists(user));
        QVERIFY2(leftovers(user).isEmpty(), qPrintable(leftovers(user).join(", ")));
        // No tracer of that command is left running.
        const auto tracerRuns = [] {
            QProcess pgrep;
            pgrep.start("pgrep", {"-f", "while :; do :; done"});
            pgrep.waitForFinished();
            return !pgrep.readAllStandardOutput().trimmed().isEmpty();
        };
        // SIGKILL is delivered at once, but the kernel may take a moment to tear it down.
        QTRY_VERIFY2_WITH_TIMEOUT(!tracerRuns(), "the tracer still runs", 2000);
    }
};

QTEST_MAIN(AddProgramTest)
#include "AddProgramTest.moc"
