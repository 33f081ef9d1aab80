#pragma once
// Runs SQL on a database file through the sqlite3 C API, as integration tests check what a
// `concorde` command wrote, or damage it on purpose: each row's columns as text (NULL, reals to
// 17 digits, blobs as x'hex').

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <functional>
#include <sqlite3.h>

namespace concorde::test {

/// Runs `statement` on the database at `path` (read-only unless `readOnly` is false), waiting up
/// to 5 s for a lock; `onRow` gets each row. False (and `error` set) if it fails.
inline bool runSql(const QString& path, const QString& statement, bool readOnly,
                   const std::function<void(const QStringList&)>& onRow = {},
                   QString* error = nullptr) {
    sqlite3* db = nullptr;
    const int flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE;
    if (sqlite3_open_v2(path.toUtf8().constData(), &db, flags, nullptr) != SQLITE_OK) {
        if (error)
            *error = sqlite3_errmsg(db);
        sqlite3_close(db);
        return false;
    }
    sqlite3_busy_timeout(db, 5000);
    sqlite3_stmt* stmt = nullptr;
    bool ok =
        sqlite3_prepare_v2(db, statement.toUtf8().constData(), -1, &stmt, nullptr) == SQLITE_OK;
    while (ok) {
        const int rc = sqlite3_step(stmt);
        if (rc == SQLITE_DONE)
            break;
        if (rc != SQLITE_ROW) {
            ok = false;
            break;
        }
        QStringList row;
        for (int c = 0; c < sqlite3_column_count(stmt); ++c) {
            switch (sqlite3_column_type(stmt, c)) {
            case SQLITE_NULL:
                row << "NULL";
                break;
            case SQLITE_BLOB: {
                const auto* p = static_cast<const char*>(sqlite3_column_blob(stmt, c));
                row << "x'" + QByteArray(p, sqlite3_column_bytes(stmt, c)).toHex() + "'";
                break;
            }
            case SQLITE_FLOAT:
                row << QString::number(sqlite3_column_double(stmt, c), 'g', 17);
                break;
            default:
                row << QString::fromUtf8(
                    reinterpret_cast<const char*>(sqlite3_column_text(stmt, c)));
            }
        }
        if (onRow)
            onRow(row);
    }
    if (!ok && error)
        *error = sqlite3_errmsg(db);
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return ok;
}

} // namespace concorde::test
