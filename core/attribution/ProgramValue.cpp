#include "attribution/ProgramValue.h"

#include "common/ConcordeError.h"

#include <set>

namespace concorde {

std::uint64_t ProgramValue::instructions() const {
    std::uint64_t total = 0;
    for (const RegionValue& region : regions)
        total += region.instructions;
    return total;
}

void ProgramValue::validate() const {
    const std::string where = "program '" + program + "'";
    if (regions.empty())
        throw usageError(where + " has no region to attribute");
    std::set<std::string> labels;
    for (const RegionValue& region : regions) {
        if (!region.value)
            throw usageError(where + ", region '" + region.region + "' has no value function");
        if (region.instructions == 0)
            throw usageError(where + ", region '" + region.region + "' has no instructions");
        if (region.region == "all")
            throw usageError(where + ": the region label 'all' is reserved for the program");
        if (!labels.insert(region.region).second)
            throw usageError(where + " has two regions labelled '" + region.region + "'");
    }
}

} // namespace concorde
