#pragma once
// Runs the real `concorde` executable of this build as a user would (integration tests).

#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace concorde::test {

struct ConcordeRun {
    int exitCode = -1; ///< -1: timed out (and killed), -2: crashed
    QString out;
    QString err;
};

/// Runs build/bin/concorde with `args`; `environment` defaults to the test's own.
inline ConcordeRun
runConcorde(const QStringList& args,
            const QProcessEnvironment& environment = QProcessEnvironment::systemEnvironment(),
            int timeoutMs = 600'000) {
    QProcess process;
    process.setProcessEnvironment(environment);
    process.start(QString(CONCORDE_BINARY_DIR) + "/bin/concorde", args);
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        return {};
    }
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2,
            QString::fromUtf8(process.readAllStandardOutput()),
            QString::fromUtf8(process.readAllStandardError())};
}

} // namespace concorde::test
