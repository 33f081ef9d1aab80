#include "store/SqliteTransaction.h"

#include "store/SqliteConnection.h"

namespace concorde {

SqliteTransaction::SqliteTransaction(SqliteConnection& connection) : connection_(connection) {
    connection_.exec("BEGIN IMMEDIATE", "starting a transaction");
}

SqliteTransaction::~SqliteTransaction() {
    if (!open_)
        return;
    try {
        connection_.exec("ROLLBACK", "rolling back");
    } catch (...) {
        // Nothing more to do: if even ROLLBACK fails, SQLite rolls back when the connection
        // closes or, after a crash, from its journal on the next open.
    }
}

void SqliteTransaction::commit() {
    connection_.exec("COMMIT", "committing");
    open_ = false;
}

} // namespace concorde
