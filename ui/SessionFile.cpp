#include "SessionFile.h"

#include "QtStrings.h"
#include "Session.h"
#include "SessionFileDocument.h"
#include "Theme.h"
#include "params/CoreConfig.h"
#include "params/ParameterSpace.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <optional>

namespace concorde::ui {
namespace {

std::string str(const QString& text) {
    return text.toStdString();
}

/// The database a session file names, looked up as written, then relative to the session file,
/// then beside it (a session and its database moved together).
QString resolveDatabase(const QString& written, const QString& baseDirectory) {
    if (written.isEmpty())
        return {};
    const QFileInfo info(written);
    if (info.isAbsolute() && info.exists())
        return info.absoluteFilePath();
    const QDir base(baseDirectory);
    if (!info.isAbsolute() && QFileInfo::exists(base.filePath(written)))
        return QFileInfo(base.filePath(written)).absoluteFilePath();
    if (QFileInfo::exists(base.filePath(info.fileName())))
        return QFileInfo(base.filePath(info.fileName())).absoluteFilePath();
    return {};
}

} // namespace

nlohmann::json SessionFile::toJson(const Session& session) {
    const QString database = session.isOpening() ? session.openingPath() : session.databasePath();
    return {{"format", kFormat},
            {"version", kVersion},
            {"database", str(database)},
            {"program", str(session.program())},
            {"view", str(session.view())},
            {"sweep_parameter", ParameterSpace::spec(session.sweptParameter()).key},
            {"config", session.config().toJson()},
            {"baseline", session.baseline().toJson()},
            {"theme",
             {{"scheme", str(Theme::schemeName(session.theme().scheme()))},
              {"projector", session.theme().projector()}}}};
}

bool SessionFile::save(const Session& session, const QString& path, QString* error) {
    QSaveFile file(path);
    const std::string text = toJson(session).dump(2) + "\n";
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(text.data(), static_cast<qint64>(text.size())) !=
            static_cast<qint64>(text.size()) ||
        !file.commit()) {
        if (error)
            *error = QObject::tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

bool SessionFile::load(Session& session, const QString& path, QString* message) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (message)
            *message = QObject::tr("Cannot read %1: %2").arg(path, file.errorString());
        return false;
    }
    nlohmann::json document;
    try {
        document = nlohmann::json::parse(file.readAll().toStdString());
    } catch (const nlohmann::json::exception& e) {
        if (message)
            *message = QObject::tr("%1 is not a session file (not JSON: %2)").arg(path, e.what());
        return false;
    }
    return apply(session, document, path, QFileInfo(path).absolutePath(), message);
}

bool SessionFile::apply(Session& session, const nlohmann::json& document, const QString& context,
                        const QString& baseDirectory, QString* message) {
    const auto fail = [&](const QString& why) {
        if (message)
            *message = why;
        return false;
    };
    // Read and check everything first: a bad file changes nothing.
    const std::optional<SessionFileDocument> read =
        SessionFileDocument::read(document, context, session.config(), session.baseline(), message);
    if (!read)
        return false;
    std::optional<Theme::Scheme> scheme;
    if (read->scheme) {
        scheme = Theme::schemeFromName(*read->scheme);
        if (!scheme)
            return fail(QObject::tr("%1: unknown theme \"%2\" (light or dark)")
                            .arg(context, *read->scheme));
    }

    if (scheme)
        session.theme().setScheme(*scheme);
    if (read->projector)
        session.theme().setProjector(*read->projector);
    session.setConfig(read->config);
    session.setBaseline(read->baseline);
    if (!read->view.isEmpty())
        session.setView(read->view);
    if (read->sweptParameter)
        session.setSweptParameter(*read->sweptParameter);

    const QString& written = read->database;
    const QString& program = read->program;
    const QString database = resolveDatabase(written, baseDirectory);
    if (!written.isEmpty() && database.isEmpty()) {
        if (message)
            *message = QObject::tr("The session's database %1 was not found; the settings were "
                                   "applied to the database open now.")
                           .arg(written);
    } else if (!database.isEmpty() && database != session.databasePath() &&
               database != session.openingPath()) {
        session.openDatabase(database); // the program is selected when it is open
    }
    if (!program.isEmpty())
        session.setProgram(program);
    return true;
}

} // namespace concorde::ui
