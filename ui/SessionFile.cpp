#include "SessionFile.h"

#include "Session.h"
#include "Theme.h"
#include "common/JsonFields.h"
#include "params/CoreConfig.h"
#include "params/ParameterSpace.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <optional>

namespace concorde::ui {
namespace {

constexpr const char* kFormat = "concorde-explorer-session";

std::string str(const QString& text) {
    return text.toStdString();
}

QString qs(const std::string& text) {
    return QString::fromStdString(text);
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
    // Read and check everything first: a bad file changes nothing, and a field of the wrong
    // type is a message naming it, never an exception out of the event loop.
    CoreConfig config = session.config();
    CoreConfig baseline = session.baseline();
    std::optional<Theme::Scheme> scheme;
    std::optional<bool> projector;
    QString program, view, written;
    std::optional<ParamId> swept;
    try {
        const JsonFields fields(document, str(context));
        if (!fields.has("format") || !fields.value("format").is_string() ||
            fields.string("format") != kFormat)
            return fail(QObject::tr("%1 is not a Concorde Explorer session file (no \"format\": "
                                    "\"%2\")")
                            .arg(context, QLatin1String(kFormat)));
        if (fields.integer("version") > kVersion)
            return fail(QObject::tr("%1 has session format version %2; this version reads up to %3")
                            .arg(context)
                            .arg(fields.integer("version"))
                            .arg(kVersion));
        if (fields.has("config"))
            config = CoreConfig::fromJson(fields.value("config"), false, fields.where("config"));
        if (fields.has("baseline"))
            baseline =
                CoreConfig::fromJson(fields.value("baseline"), false, fields.where("baseline"));
        if (const auto theme = fields.optionalObject("theme")) {
            if (theme->has("scheme")) {
                const QString name = qs(theme->string("scheme"));
                scheme = Theme::schemeFromName(name);
                if (!scheme)
                    return fail(
                        QObject::tr("%1: unknown theme \"%2\" (light or dark)").arg(context, name));
            }
            if (theme->has("projector"))
                projector = theme->boolean("projector");
        }
        program = qs(fields.string("program", std::string()));
        view = qs(fields.string("view", std::string()));
        written = qs(fields.string("database", std::string()));
        if (fields.has("sweep_parameter")) {
            const std::string key = fields.string("sweep_parameter");
            swept = ParameterSpace::find(key);
            if (!swept)
                return fail(QObject::tr("%1: unknown sweep_parameter \"%2\"")
                                .arg(context, QString::fromStdString(key)));
        }
    } catch (const std::exception& e) {
        return fail(QString::fromStdString(e.what()));
    }

    if (scheme)
        session.theme().setScheme(*scheme);
    if (projector)
        session.theme().setProjector(*projector);
    session.setConfig(config);
    session.setBaseline(baseline);
    if (!view.isEmpty())
        session.setView(view);
    if (swept)
        session.setSweptParameter(*swept);

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
