#include "ProgramImport.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>
#include <csignal>
#include <sys/types.h>
#include <unistd.h>

namespace concorde::ui {
namespace {

// Regions like the shipped database's: 20k detailed warm-up, 100k measured instructions, each
// after the default 10M functional warm-up of `concorde trace`.
constexpr int kWarmup = 20'000;
constexpr int kLength = 100'000;

/// The last non-empty line of a process's error output, which is where concorde says why.
QString lastLine(const QString& text) {
    const QStringList lines = text.split('\n', Qt::SkipEmptyParts);
    return lines.isEmpty() ? QString() : lines.back().trimmed();
}

} // namespace

ProgramImport::ProgramImport(QObject* parent) : QObject(parent) {}

ProgramImport::~ProgramImport() {
    stopProcess(false);
    cleanUp();
}

QString ProgramImport::defaultConcordeBinary() {
    const QString env = qEnvironmentVariable("CONCORDE");
    if (!env.isEmpty())
        return env;
    return QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("concorde"));
}

QString ProgramImport::defaultUserDatabase() {
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation))
        .filePath(QStringLiteral("concorde/user.sqlite"));
}

QStringList ProgramImport::splitCommandLine(const QString& line, QString* error) {
    QStringList words;
    QString word;
    bool inWord = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (c == '\'') {
            const qsizetype end = line.indexOf('\'', i + 1);
            if (end < 0) {
                if (error)
                    *error = tr("The command line has an unmatched ' quote.");
                return {};
            }
            word += line.mid(i + 1, end - i - 1);
            inWord = true;
            i = end;
        } else if (c == '"') {
            qsizetype j = i + 1;
            for (; j < line.size() && line[j] != '"'; ++j) {
                if (line[j] == '\\' && j + 1 < line.size() &&
                    QStringLiteral("\\\"$`").contains(line[j + 1]))
                    ++j;
                word += line[j];
            }
            if (j >= line.size()) {
                if (error)
                    *error = tr("The command line has an unmatched \" quote.");
                return {};
            }
            inWord = true;
            i = j;
        } else if (c == '\\' && i + 1 < line.size()) {
            word += line[++i];
            inWord = true;
        } else if (c.isSpace()) {
            if (inWord)
                words << word;
            word.clear();
            inWord = false;
        } else {
            word += c;
            inWord = true;
        }
    }
    if (inWord)
        words << word;
    return words;
}

QString ProgramImport::checkName(const QString& name, const QStringList& existing) {
    static const QRegularExpression allowed(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$"));
    if (name.isEmpty())
        return tr("Give the program a name.");
    if (!allowed.match(name).hasMatch())
        return tr("A name is 1–64 letters, digits, '.', '_', '+' or '-', starting with a letter "
                  "or digit.");
    if (existing.contains(name))
        return tr("The database already has a program named %1.").arg(name);
    return {};
}

void ProgramImport::start(const Request& request) {
    if (process_) {
        emit failed(tr("A program is already being added."));
        return;
    }
    request_ = request;
    if (!QFileInfo(request_.concorde).isExecutable()) {
        emit failed(tr("The concorde tool was not found at %1.").arg(request_.concorde));
        return;
    }
    if (!QFileInfo::exists(request_.sourceDatabase)) {
        emit failed(tr("Open a database first: the new program is added to a copy of it."));
        return;
    }
    work_ = std::make_unique<QTemporaryDir>(QDir::temp().filePath("concorde-add-XXXXXX"));
    if (!work_->isValid()) {
        emit failed(tr("Cannot create a temporary folder: %1").arg(work_->errorString()));
        work_.reset();
        return;
    }
    // build-db names a program after its trace file.
    trace_ = work_->filePath(request_.name + ".ctrace");

    if (!request_.command.isEmpty()) {
        QStringList arguments = {"trace",
                                 "-o",
                                 trace_,
                                 "--length",
                                 QString::number(kLength),
                                 "--warmup",
                                 QString::number(kWarmup),
                                 "--regions",
                                 QString::number(std::max(2, request_.regions)),
                                 "--"};
        arguments += request_.command;
        runStep(Step::Trace, arguments,
                tr("Tracing %1 (runs it twice under Valgrind: counting, then tracing)")
                    .arg(request_.command.front()));
        return;
    }
    const QFileInfo source(request_.traceFile);
    if (!source.isFile()) {
        emit failed(tr("The trace %1 does not exist.").arg(request_.traceFile));
        cleanUp();
        return;
    }
    if (source.suffix() == QLatin1String("ctrace")) {
        if (!QFile::link(source.absoluteFilePath(), trace_)) {
            emit failed(tr("Cannot use the trace %1.").arg(request_.traceFile));
            cleanUp();
            return;
        }
        startBuildDb();
        return;
    }
    runStep(Step::Trace,
            {"import-champsim", "-o", trace_, "--warmup", QString::number(kWarmup), "--length",
             QString::number(kLength), source.absoluteFilePath()},
            tr("Converting the ChampSim trace %1").arg(source.fileName()));
}

void ProgramImport::cancel() {
    if (!process_)
        return;
    stopProcess(true);
    cleanUp();
    emit cancelled();
}

void ProgramImport::stopProcess(bool gracefully) {
    if (!process_)
        return;
    process_->disconnect(this);
    // The whole process group: concorde and the Valgrind tracer it forked. SIGTERM first when
    // there is time, so that concorde removes its temporary output; SIGKILL for what is left,
    // including a tracer that outlived concorde.
    const auto group = static_cast<pid_t>(process_->processId());
    if (gracefully && group > 0) {
        ::kill(-group, SIGTERM);
        process_->waitForFinished(3000);
    }
    if (group > 0)
        ::kill(-group, SIGKILL);
    process_->kill();
    process_->waitForFinished(3000);
    process_->deleteLater();
    process_ = nullptr;
}

void ProgramImport::runStep(Step step, const QStringList& arguments, const QString& description) {
    step_ = step;
    errorTail_.clear();
    pendingErr_.clear();
    process_ = new QProcess(this);
    process_->setProgram(request_.concorde);
    process_->setArguments(arguments);
    // The traced program's own output is of no use here; concorde's errors go to stderr.
    process_->setStandardOutputFile(QProcess::nullDevice());
    // Its own process group, so that Cancel reaches the tracer concorde forks as well.
    process_->setChildProcessModifier([] { ::setpgid(0, 0); });
    connect(process_, &QProcess::readyReadStandardError, this, &ProgramImport::onOutput);
    connect(process_, &QProcess::finished, this, &ProgramImport::onFinished);
    connect(process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            fail(tr("Could not start %1: %2").arg(request_.concorde, process_->errorString()));
    });
    emit progressChanged(description, step == Step::Trace ? 0.0 : 0.5);
    process_->start();
}

void ProgramImport::onOutput() {
    if (!process_)
        return;
    pendingErr_ += process_->readAllStandardError();
    static const QRegularExpression region(QStringLiteral(R"(\[(\d+)/(\d+)\])"));
    int newline;
    while ((newline = pendingErr_.indexOf('\n')) >= 0) {
        const QString line = QString::fromUtf8(pendingErr_.left(newline)).trimmed();
        pendingErr_.remove(0, newline + 1);
        if (line.isEmpty())
            continue;
        errorTail_ += line + '\n';
        if (errorTail_.size() > 4000)
            errorTail_ = errorTail_.right(2000);
        const auto match = region.match(line);
        if (step_ == Step::BuildDb && match.hasMatch()) {
            const double done = match.captured(1).toDouble();
            const double total = std::max(1.0, match.captured(2).toDouble());
            emit progressChanged(tr("Computing the bounds of region %1 of %2")
                                     .arg(match.captured(1), match.captured(2)),
                                 0.5 + 0.5 * done / total);
        }
    }
}

void ProgramImport::onFinished(int exitCode, QProcess::ExitStatus status) {
    if (!process_)
        return;
    onOutput();
    errorTail_ += QString::fromUtf8(pendingErr_);
    process_->deleteLater();
    process_ = nullptr;
    if (status != QProcess::NormalExit || exitCode != 0) {
        // `concorde trace` exits with the traced program's exit code: a program that failed
        // ran an error path, not the work it was meant to show.
        const QString why = lastLine(errorTail_);
        if (step_ == Step::Trace && status == QProcess::NormalExit && QFileInfo::exists(trace_) &&
            !request_.command.isEmpty())
            fail(tr("The program exited with code %1, so nothing was added.%2")
                     .arg(exitCode)
                     .arg(why.isEmpty() ? QString() : tr(" Its last words: %1").arg(why)));
        else
            fail(why.isEmpty() ? tr("concorde stopped with exit code %1.").arg(exitCode) : why);
        return;
    }
    if (step_ == Step::Trace) {
        startBuildDb();
        return;
    }
    // The copy holds the program: it replaces the user database in one rename.
    QFile::remove(request_.userDatabase);
    if (!QFile::rename(partialDatabase_, request_.userDatabase)) {
        fail(tr("Cannot write %1.").arg(request_.userDatabase));
        return;
    }
    partialDatabase_.clear();
    cleanUp();
    emit progressChanged(tr("Done"), 1.0);
    emit finished(request_.userDatabase, request_.name);
}

void ProgramImport::startBuildDb() {
    const QFileInfo target(request_.userDatabase);
    if (!QDir().mkpath(target.absolutePath())) {
        fail(tr("Cannot create the folder %1.").arg(target.absolutePath()));
        return;
    }
    // In the user database's folder, so that the final rename stays on one file system.
    partialDatabase_ = target.absoluteFilePath() + QStringLiteral(".adding");
    QFile::remove(partialDatabase_);
    if (!QFile::copy(request_.sourceDatabase, partialDatabase_)) {
        fail(tr("Cannot copy %1 to %2.").arg(request_.sourceDatabase, partialDatabase_));
        return;
    }
    QFile::setPermissions(partialDatabase_, QFile::ReadOwner | QFile::WriteOwner |
                                                QFile::ReadGroup | QFile::ReadOther);
    runStep(Step::BuildDb, {"build-db", "--out", partialDatabase_, trace_},
            tr("Computing the bounds of every region"));
}

void ProgramImport::fail(const QString& message) {
    stopProcess(false);
    cleanUp();
    emit failed(message);
}

void ProgramImport::cleanUp() {
    if (!partialDatabase_.isEmpty()) {
        QFile::remove(partialDatabase_);
        // SQLite's side files of the copy, if build-db was stopped mid-transaction.
        QFile::remove(partialDatabase_ + "-journal");
        QFile::remove(partialDatabase_ + "-wal");
        QFile::remove(partialDatabase_ + "-shm");
        partialDatabase_.clear();
    }
    work_.reset();
}

} // namespace concorde::ui
