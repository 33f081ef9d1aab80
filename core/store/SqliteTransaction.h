#pragma once

namespace concorde {

class SqliteConnection;

/// BEGIN IMMEDIATE … COMMIT as a scope: destroying an uncommitted transaction rolls it back, so
/// an exception (or a crash: SQLite's journal does the same on the next open) leaves nothing half
/// written. IMMEDIATE takes the write lock at the start, so a concurrent writer fails early with
/// "database is locked" instead of deadlocking at commit.
class SqliteTransaction {
public:
    explicit SqliteTransaction(SqliteConnection& connection);
    ~SqliteTransaction();
    SqliteTransaction(const SqliteTransaction&) = delete;
    SqliteTransaction& operator=(const SqliteTransaction&) = delete;

    void commit();

private:
    SqliteConnection& connection_;
    bool open_ = true;
};

} // namespace concorde
