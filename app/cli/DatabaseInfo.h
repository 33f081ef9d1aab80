#pragma once

#include <iosfwd>
#include <string>

namespace concorde::cli {

/// What `concorde info DB.sqlite` prints for a feature database: build settings and grid,
/// programs, regions (with the bytes each stores), labels, models, and bytes per table.
class DatabaseInfo {
public:
    /// Opens `path` read-only (with the usual checks) and describes it as text or JSON.
    static void print(const std::string& path, bool json, std::ostream& out);
};

} // namespace concorde::cli
