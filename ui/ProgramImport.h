#pragma once

#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <memory>

namespace concorde::ui {

/// File ▸ Add program…: brings a user's program into a user database beside the shipped one,
/// where the shipped model predicts it like any other program.
///
/// The steps run as `concorde` processes, one after the other, off the UI thread by nature:
///   1. the program becomes a .ctrace: `concorde trace` spreads K regions over its whole run (a
///      command line), `concorde import-champsim` converts a ChampSim trace, a .ctrace is used
///      as it is;
///   2. the open database (shipped or user) is copied next to the user database, under a
///      temporary name, and `concorde build-db` adds the program's regions to the copy;
///   3. the copy replaces the user database by a rename.
/// So a failure or Cancel at any step leaves the user database as it was, and no file behind.
class ProgramImport : public QObject {
    Q_OBJECT

public:
    /// What to add, and where.
    struct Request {
        QString name;           ///< the program's name in the database (unique there)
        QStringList command;    ///< a command line to trace, or empty
        QString traceFile;      ///< a .ctrace or ChampSim trace, when `command` is empty
        int regions = 8;        ///< regions spread over a traced command's run
        QString sourceDatabase; ///< the database the user database starts from (the open one)
        QString userDatabase;   ///< where the result goes
        QString concorde;       ///< the concorde executable
    };

    explicit ProgramImport(QObject* parent = nullptr);
    ~ProgramImport() override;

    /// `concorde` next to this executable (build tree and install alike), or $CONCORDE.
    static QString defaultConcordeBinary();
    /// The user database: $XDG_DATA_HOME/concorde/user.sqlite (~/.local/share/...).
    static QString defaultUserDatabase();
    /// The words of a command line as a POSIX shell splits them: blanks separate words, '...'
    /// quotes literally, "..." quotes with \\ escaping \\, ", $ and `, and \\ outside quotes
    /// escapes the next character. No expansion. Sets `error` (and returns {}) on an unmatched
    /// quote.
    static QStringList splitCommandLine(const QString& line, QString* error = nullptr);
    /// Why `name` cannot name a new program beside `existing`; empty when it can.
    static QString checkName(const QString& name, const QStringList& existing);

    /// Starts the steps; progress, then finished() or failed() (or cancelled()). Refuses (emits
    /// failed()) while another import runs.
    void start(const Request& request);
    /// Stops the running step and removes what it wrote; emits cancelled().
    void cancel();
    bool isRunning() const { return process_ != nullptr; }

signals:
    /// A step started: its description, and the share of the whole job done so far (0–1).
    void progressChanged(const QString& step, double fraction);
    /// The user database now holds the program.
    void finished(const QString& userDatabase, const QString& program);
    /// A step failed: a message for the user (the tool's own words where it gave some).
    void failed(const QString& message);
    void cancelled();

private:
    enum class Step { Trace, BuildDb };

    void runStep(Step step, const QStringList& arguments, const QString& description);
    void onOutput();
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void startBuildDb();
    /// Ends the running step's process group (SIGTERM and a moment first when `gracefully`).
    void stopProcess(bool gracefully);
    void fail(const QString& message);
    void cleanUp();

    Request request_;
    std::unique_ptr<QTemporaryDir> work_;
    QProcess* process_ = nullptr;
    Step step_ = Step::Trace;
    QString trace_;
    QString partialDatabase_;
    QString errorTail_;
    QByteArray pendingErr_;
};

} // namespace concorde::ui
