#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3_stmt;

namespace concorde {

class SqliteConnection;

/// A prepared statement (RAII around `sqlite3_stmt*`). Parameters are 1-based like SQLite's;
/// columns 0-based. step() returns true while a row is available; errors throw through the
/// connection (a ConcordeError naming the file and the statement's purpose).
class SqliteStatement {
public:
    SqliteStatement(SqliteConnection& connection, sqlite3_stmt* statement, std::string what);
    ~SqliteStatement();
    SqliteStatement(SqliteStatement&& other) noexcept;
    SqliteStatement& operator=(SqliteStatement&&) = delete;
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;

    SqliteStatement& bind(int index, std::int64_t value);
    SqliteStatement& bind(int index, double value);
    SqliteStatement& bind(int index, std::string_view text);
    SqliteStatement& bind(int index, const char* text) {
        return bind(index, std::string_view(text));
    }
    SqliteStatement& bindBlob(int index, std::span<const std::uint8_t> bytes);
    SqliteStatement& bindNull(int index);
    /// Binds a row id, or NULL for 0 so that SQLite assigns the next one.
    SqliteStatement& bindRowIdOrNull(int index, std::int64_t id) {
        return id != 0 ? bind(index, id) : bindNull(index);
    }

    /// Advances to the next row: true if there is one, false when done.
    bool step();
    /// Runs a statement that returns no rows (or ignores them) and resets it for reuse.
    void run();
    /// Resets the statement and clears its bindings, ready for the next use.
    void reset();

    int columnCount() const;
    bool isNull(int column) const;
    std::int64_t int64(int column) const;
    double real(int column) const;
    std::string text(int column) const;
    std::vector<std::uint8_t> blob(int column) const;
    /// The column's declared storage class as SQLite reports it for this row (SQLITE_INTEGER...).
    int type(int column) const;
    std::string columnName(int column) const;

private:
    SqliteConnection* connection_;
    sqlite3_stmt* statement_;
    std::string what_;
};

} // namespace concorde
