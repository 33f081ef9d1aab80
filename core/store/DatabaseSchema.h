#pragma once

#include <string>
#include <vector>

namespace concorde {

class SqliteConnection;

/// What a database at SchemaMigrations::kCurrentVersion must contain: every table with its
/// columns, and the series_catalog view. Checked on every open, so a dropped table or column
/// is reported by name instead of failing later on some query.
class DatabaseSchema {
public:
    struct Table {
        std::string name;
        std::vector<std::string> columns;
    };
    static const std::vector<Table>& tables();
    static const std::vector<std::string>& views();

    /// One message per missing table, view or column (empty when the schema is complete).
    /// Extra tables or columns are allowed (a later tool may add its own).
    static std::vector<std::string> problems(SqliteConnection& connection);
};

} // namespace concorde
