#include "MigrateDbCommand.h"

#include "analysis/WarmState.h"
#include "common/ConcordeError.h"
#include "store/FeatureDatabase.h"
#include "store/SchemaMigrations.h"
#include "store/SqliteConnection.h"

#include <CLI/CLI.hpp>
#include <filesystem>
#include <ostream>

namespace concorde::cli {

std::string MigrateDbCommand::description() const {
    return "Upgrades a feature database written by an older Concorde to this build's schema\n"
           "version (" +
           std::to_string(SchemaMigrations::kCurrentVersion) +
           "), in one transaction: either every migration step applies or none does. The\n"
           "explorer opens databases read-only and asks for this when a database is older.\n"
           "`concorde build-db` and `concorde label` migrate the databases they write.\n"
           "Every stored warm state is also rewritten in this build's warm-state encoding\n"
           "(the compressed one is about a third of the size of older ones), at zstd level " +
           std::to_string(WarmState::kArchiveCompressionLevel) +
           ",\n9 % smaller than traces store them: it takes about 0.2 s per region.\n";
}

void MigrateDbCommand::declare(CLI::App& app) {
    app.add_option("DB", db_, "the feature database (DB.sqlite)")->required();
}

int MigrateDbCommand::run(std::ostream& out, std::ostream&) {
    const std::filesystem::path path = db_;
    if (!std::filesystem::exists(path))
        throw badInput("no such database file: " + path.string());
    int before = 0;
    {
        // Read the version first (read-only: a newer or foreign file is reported, not touched).
        FeatureDatabase::requireSqliteFile(path);
        SqliteConnection probe(path, SqliteConnection::Mode::ReadOnly);
        before = SchemaMigrations::versionOf(probe);
        if (before == 0)
            throw badInput(path.string() + " is an empty SQLite database, not a feature database");
    }
    FeatureDatabase db = FeatureDatabase::openForWriting(path);
    const int after = db.schemaVersion();
    std::uint64_t bytesBefore = 0;
    std::uint64_t bytesAfter = 0;
    const std::size_t states =
        db.rewriteWarmStates([&](std::span<const std::uint8_t> bytes, const std::string& what) {
            bytesBefore += bytes.size();
            std::vector<std::uint8_t> encoded =
                WarmState::decode(bytes, what).encode(WarmState::kArchiveCompressionLevel);
            bytesAfter += encoded.size();
            return encoded;
        });
    db.close();
    if (before == after)
        out << path.string() << ": already at schema version " << after << "\n";
    else
        out << path.string() << ": migrated from schema version " << before << " to " << after
            << "\n";
    if (states > 0)
        out << path.string() << ": " << states << " warm states rewritten, " << bytesBefore
            << " -> " << bytesAfter << " bytes\n";
    return 0;
}

} // namespace concorde::cli
