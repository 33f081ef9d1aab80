#include "store/DatabaseSchema.h"

#include "store/SqliteConnection.h"
#include "store/SqliteStatement.h"

#include <set>

namespace concorde {

const std::vector<DatabaseSchema::Table>& DatabaseSchema::tables() {
    static const std::vector<Table> all = {
        {"meta", {"key", "value"}},
        {"programs", {"id", "name", "command_line", "source_trace", "instructions_traced"}},
        {"regions",
         {"id", "program_id", "region_index", "program_start", "warmup", "length", "bbv",
          "complete", "phase", "functional_warmup"}},
        {"memory_configs", {"id", "l1d_kb", "l1i_kb", "l2_kb", "pf_degree"}},
        {"series_keys", {"name", "position", "memory_config_id", "settings"}},
        {"series", {"region_id", "name", "series_count", "windows", "encoding", "data"}},
        {"region_records", {"region_id", "record_count", "encoding", "data", "warm_state"}},
        {"labels",
         {"id", "region_id", "config_json", "config_key", "source", "instructions", "cycles", "cpi",
          "window_ipc"}},
        {"models",
         {"id", "name", "created", "layout_json", "weights", "normalisation_json", "metrics_json"}},
    };
    return all;
}

const std::vector<std::string>& DatabaseSchema::views() {
    static const std::vector<std::string> all = {"series_catalog"};
    return all;
}

std::vector<std::string> DatabaseSchema::problems(SqliteConnection& connection) {
    std::vector<std::string> found;
    auto objects = connection.prepare("SELECT type, name FROM sqlite_master", "listing tables");
    std::set<std::string> tableNames;
    std::set<std::string> viewNames;
    while (objects.step())
        (objects.text(0) == "view" ? viewNames : tableNames).insert(objects.text(1));
    auto columns = connection.prepare("SELECT name FROM pragma_table_info(?1)", "listing columns");
    for (const Table& table : tables()) {
        if (!tableNames.count(table.name)) {
            found.push_back("table " + table.name + " is missing");
            continue;
        }
        columns.bind(1, table.name);
        std::set<std::string> present;
        while (columns.step())
            present.insert(columns.text(0));
        columns.reset();
        for (const std::string& column : table.columns)
            if (!present.count(column))
                found.push_back("table " + table.name + " has no column " + column);
    }
    for (const std::string& view : views())
        if (!viewNames.count(view))
            found.push_back("view " + view + " is missing");
    return found;
}

} // namespace concorde
