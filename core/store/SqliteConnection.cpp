#include "store/SqliteConnection.h"

#include "common/ConcordeError.h"
#include "store/SqliteStatement.h"

#include <sqlite3.h>

namespace concorde {

SqliteConnection::SqliteConnection(const std::filesystem::path& path, Mode mode)
    : path_(path), mode_(mode) {
    const int flags =
        mode == Mode::ReadOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    // NOMUTEX is not used: the builder hands the connection between TBB threads (one at a time),
    // which the default serialized mode makes safe without any thought at the call sites.
    const int rc = sqlite3_open_v2(path.c_str(), &db_, flags, nullptr);
    if (rc != SQLITE_OK) {
        const std::string message = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
        sqlite3_close(db_);
        db_ = nullptr;
        throw ConcordeError(mode == Mode::ReadOnly ? ErrorKind::BadInput : ErrorKind::Runtime,
                            "cannot open database " + path.string() + ": " + message);
    }
    sqlite3_extended_result_codes(db_, 1);
    // A reader polling a database that build-db is writing waits for the writer's short
    // commits instead of failing at once.
    sqlite3_busy_timeout(db_, 10'000);
}

SqliteConnection::~SqliteConnection() {
    // sqlite3_close_v2 defers closing until outstanding statements are finalized, so a
    // statement that outlives its connection by mistake does not crash.
    sqlite3_close_v2(db_);
}

void SqliteConnection::fail(int rc, const std::string& what) const {
    const int primary = rc & 0xff;
    std::string message = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    if (message == "not an error")
        message = sqlite3_errstr(rc);
    const std::string where = path_.string() + (what.empty() ? "" : " (" + what + ")");
    if (primary == SQLITE_NOTADB)
        throw badInput(path_.string() + " is not an SQLite database (" + message + ")");
    if (primary == SQLITE_CORRUPT)
        throw badInput("database " + where + " is corrupt: " + message);
    throw runtimeFailure("database " + where + ": " + message);
}

void SqliteConnection::exec(const std::string& sql, const std::string& what) {
    char* error = nullptr;
    const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error);
    if (rc != SQLITE_OK) {
        sqlite3_free(error);
        fail(rc, what);
    }
}

SqliteStatement SqliteConnection::prepare(const std::string& sql, const std::string& what) {
    sqlite3_stmt* statement = nullptr;
    const int rc =
        sqlite3_prepare_v2(db_, sql.c_str(), static_cast<int>(sql.size()), &statement, nullptr);
    if (rc != SQLITE_OK) {
        sqlite3_finalize(statement);
        fail(rc, what.empty() ? "preparing: " + sql : what);
    }
    return SqliteStatement(*this, statement, what.empty() ? sql : what);
}

long long SqliteConnection::changes() const {
    return sqlite3_changes(db_);
}

long long SqliteConnection::lastInsertRowId() const {
    return sqlite3_last_insert_rowid(db_);
}

bool SqliteConnection::hasTable(const std::string& table) {
    auto query = prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1",
                         "looking up table " + table);
    query.bind(1, table);
    return query.step();
}

} // namespace concorde
