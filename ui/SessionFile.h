#pragma once

#include <QString>
#include <nlohmann/json.hpp>

namespace concorde::ui {

class Session;

/// A saved explorer session as JSON: the database, the selected program and view, the target
/// and baseline configurations, and the theme —
///
///     {"format": "concorde-explorer-session", "version": 1,
///      "database": "/abs/path/default.sqlite", "program": "gcc", "view": "view_overview",
///      "config": {"rob": 256, ...}, "baseline": {...},
///      "theme": {"scheme": "dark", "projector": false}}
///
/// Configurations use the keys of presets and --set (CoreConfig::toJson), so a session file
/// can be edited by hand; missing parameters keep their defaults.
class SessionFile {
public:
    static constexpr int kVersion = 1;
    static constexpr const char* kFormat = "concorde-explorer-session";

    static nlohmann::json toJson(const Session& session);
    /// Writes the session atomically; returns false with the reason in `error`.
    static bool save(const Session& session, const QString& path, QString* error = nullptr);
    /// Reads `path` and checks all of it before changing anything, then applies it: theme,
    /// configurations, view, and — when it names another database — starts opening that one
    /// (asynchronously; the program is selected once it is open). Returns false with the reason
    /// in `message` when the file is unusable (nothing changed); on success `message` may hold a
    /// note (e.g. the database was not found and the current one stays open).
    static bool load(Session& session, const QString& path, QString* message = nullptr);
    /// The same from a parsed document; `context` names its source in messages.
    static bool apply(Session& session, const nlohmann::json& document, const QString& context,
                      const QString& baseDirectory, QString* message = nullptr);
};

} // namespace concorde::ui
