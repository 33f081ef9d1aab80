#include "SessionFileDocument.h"

#include "QtStrings.h"
#include "SessionFile.h"
#include "common/JsonFields.h"

#include <QObject>

namespace concorde::ui {
std::optional<SessionFileDocument>
SessionFileDocument::read(const nlohmann::json& document, const QString& context,
                          const CoreConfig& config, const CoreConfig& baseline, QString* message) {
    const auto fail = [&](const QString& why) -> std::optional<SessionFileDocument> {
        if (message)
            *message = why;
        return std::nullopt;
    };
    SessionFileDocument read;
    read.config = config;
    read.baseline = baseline;
    // A field of the wrong type is a message naming it, never an exception out of the event loop.
    try {
        const JsonFields fields(document, context.toStdString());
        if (!fields.has("format") || !fields.value("format").is_string() ||
            fields.string("format") != SessionFile::kFormat)
            return fail(QObject::tr("%1 is not a Concorde Explorer session file (no \"format\": "
                                    "\"%2\")")
                            .arg(context, QLatin1String(SessionFile::kFormat)));
        if (fields.integer("version") > SessionFile::kVersion)
            return fail(QObject::tr("%1 has session format version %2; this version reads up to %3")
                            .arg(context)
                            .arg(fields.integer("version"))
                            .arg(SessionFile::kVersion));
        if (fields.has("config"))
            read.config =
                CoreConfig::fromJson(fields.value("config"), false, fields.where("config"));
        if (fields.has("baseline"))
            read.baseline =
                CoreConfig::fromJson(fields.value("baseline"), false, fields.where("baseline"));
        if (const auto theme = fields.optionalObject("theme")) {
            if (theme->has("scheme"))
                read.scheme = toQString(theme->string("scheme"));
            if (theme->has("projector"))
                read.projector = theme->boolean("projector");
        }
        read.program = toQString(fields.string("program", std::string()));
        read.view = toQString(fields.string("view", std::string()));
        read.database = toQString(fields.string("database", std::string()));
        if (fields.has("sweep_parameter")) {
            const std::string key = fields.string("sweep_parameter");
            read.sweptParameter = ParameterSpace::find(key);
            if (!read.sweptParameter)
                return fail(
                    QObject::tr("%1: unknown sweep_parameter \"%2\"").arg(context, toQString(key)));
        }
    } catch (const std::exception& e) {
        return fail(QString::fromStdString(e.what()));
    }
    return read;
}

} // namespace concorde::ui
