#pragma once

#include <filesystem>
#include <string>

struct sqlite3;

namespace concorde {

class SqliteStatement;

/// One open SQLite connection (RAII around `sqlite3*`). Every failure becomes a ConcordeError
/// naming the database file and what was being done, never a crash: SQLite's own error codes for
/// "not a database" and "corrupt" are reported as bad input (the user's file is at fault), the rest
/// as runtime failures.
///
/// Values never enter SQL text: statements are prepared once and values are bound (see
/// SqliteStatement). exec() is only for fixed SQL (schema, pragmas, transaction control).
class SqliteConnection {
public:
    enum class Mode { ReadOnly, ReadWrite };

    /// Opens `path` (ReadWrite creates the file if missing). Does not read the file yet: SQLite
    /// opens lazily, so "not a database" shows up on the first statement.
    SqliteConnection(const std::filesystem::path& path, Mode mode);
    ~SqliteConnection();
    SqliteConnection(const SqliteConnection&) = delete;
    SqliteConnection& operator=(const SqliteConnection&) = delete;

    /// Runs fixed SQL (possibly several statements) that returns no rows we need.
    void exec(const std::string& sql, const std::string& what);
    /// Prepares one statement. `what` describes the purpose for error messages.
    SqliteStatement prepare(const std::string& sql, const std::string& what = {});

    /// Throws for result code `rc` (not SQLITE_OK/ROW/DONE) with SQLite's message.
    [[noreturn]] void fail(int rc, const std::string& what) const;

    bool readOnly() const { return mode_ == Mode::ReadOnly; }
    const std::filesystem::path& path() const { return path_; }
    sqlite3* handle() const { return db_; }
    /// Rows changed by the last INSERT/UPDATE/DELETE.
    long long changes() const;
    /// Rowid of the last successful INSERT on this connection.
    long long lastInsertRowId() const;
    /// True if the table exists (any type 'table').
    bool hasTable(const std::string& table);

private:
    std::filesystem::path path_;
    Mode mode_;
    sqlite3* db_ = nullptr;
};

} // namespace concorde
