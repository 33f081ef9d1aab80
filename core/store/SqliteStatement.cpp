#include "store/SqliteStatement.h"

#include "store/SqliteConnection.h"

#include <sqlite3.h>

namespace concorde {

SqliteStatement::SqliteStatement(SqliteConnection& connection, sqlite3_stmt* statement,
                                 std::string what)
    : connection_(&connection), statement_(statement), what_(std::move(what)) {}

SqliteStatement::~SqliteStatement() {
    sqlite3_finalize(statement_);
}

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : connection_(other.connection_), statement_(other.statement_), what_(std::move(other.what_)) {
    other.statement_ = nullptr;
}

SqliteStatement& SqliteStatement::bind(int index, std::int64_t value) {
    if (const int rc = sqlite3_bind_int64(statement_, index, value); rc != SQLITE_OK)
        connection_->fail(rc, what_);
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, double value) {
    if (const int rc = sqlite3_bind_double(statement_, index, value); rc != SQLITE_OK)
        connection_->fail(rc, what_);
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, std::string_view text) {
    if (const int rc = sqlite3_bind_text64(statement_, index, text.data(), text.size(),
                                           SQLITE_TRANSIENT, SQLITE_UTF8);
        rc != SQLITE_OK)
        connection_->fail(rc, what_);
    return *this;
}

SqliteStatement& SqliteStatement::bindBlob(int index, std::span<const std::uint8_t> bytes) {
    // A zero-length blob must still be a blob, not NULL: pass a valid pointer.
    static const std::uint8_t empty = 0;
    if (const int rc = sqlite3_bind_blob64(statement_, index, bytes.empty() ? &empty : bytes.data(),
                                           bytes.size(), SQLITE_TRANSIENT);
        rc != SQLITE_OK)
        connection_->fail(rc, what_);
    return *this;
}

SqliteStatement& SqliteStatement::bindNull(int index) {
    if (const int rc = sqlite3_bind_null(statement_, index); rc != SQLITE_OK)
        connection_->fail(rc, what_);
    return *this;
}

bool SqliteStatement::step() {
    const int rc = sqlite3_step(statement_);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    sqlite3_reset(statement_);
    connection_->fail(rc, what_);
}

void SqliteStatement::run() {
    while (step()) {
    }
    reset();
}

void SqliteStatement::reset() {
    sqlite3_reset(statement_);
    sqlite3_clear_bindings(statement_);
}

int SqliteStatement::columnCount() const {
    return sqlite3_column_count(statement_);
}

bool SqliteStatement::isNull(int column) const {
    return sqlite3_column_type(statement_, column) == SQLITE_NULL;
}

std::int64_t SqliteStatement::int64(int column) const {
    return sqlite3_column_int64(statement_, column);
}

double SqliteStatement::real(int column) const {
    return sqlite3_column_double(statement_, column);
}

std::string SqliteStatement::text(int column) const {
    const auto* p = sqlite3_column_text(statement_, column);
    const int n = sqlite3_column_bytes(statement_, column);
    return p ? std::string(reinterpret_cast<const char*>(p), static_cast<std::size_t>(n))
             : std::string();
}

std::vector<std::uint8_t> SqliteStatement::blob(int column) const {
    const auto* p = static_cast<const std::uint8_t*>(sqlite3_column_blob(statement_, column));
    const int n = sqlite3_column_bytes(statement_, column);
    return p ? std::vector<std::uint8_t>(p, p + n) : std::vector<std::uint8_t>();
}

int SqliteStatement::type(int column) const {
    return sqlite3_column_type(statement_, column);
}

std::string SqliteStatement::columnName(int column) const {
    const char* name = sqlite3_column_name(statement_, column);
    return name ? name : "";
}

} // namespace concorde
