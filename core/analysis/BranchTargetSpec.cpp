#include "analysis/BranchTargetSpec.h"

#include "common/ConcordeError.h"

#include <string>

namespace concorde {

void BranchTargetSpec::validate() const {
    const auto require = [](bool ok, const std::string& what) {
        if (!ok)
            throw badInput("branch-target spec: " + what);
    };
    require(btbEntries == 0 || (btbWays > 0 && btbEntries % btbWays == 0),
            "btbEntries must be a multiple of btbWays");
    require(indirectEntries == 0 || (indirectWays > 0 && indirectEntries % indirectWays == 0),
            "indirectEntries must be a multiple of indirectWays");
    require(indirectHistory <= 64, "indirectHistory must be at most 64");
}

} // namespace concorde
