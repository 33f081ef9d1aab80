#pragma once
// Counts a database's complete regions of some programs, so that tests on the shipped database
// follow a rebuilt file (regions per program change) instead of assuming a number.

#include "store/FeatureDatabase.h"

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>

namespace concorde::testing {

/// Complete regions of `programs` in the database at `path`.
inline std::size_t completeRegionsOf(const std::string& path,
                                     const std::set<std::string>& programs) {
    FeatureDatabase db = FeatureDatabase::openReadOnly(path);
    std::set<std::int64_t> ids;
    for (const auto& p : db.programs())
        if (programs.contains(p.name))
            ids.insert(p.id);
    std::size_t count = 0;
    for (const auto& r : db.regions())
        count += r.complete && ids.contains(r.programId) ? 1 : 0;
    return count;
}

} // namespace concorde::testing
