#include "trace/TraceRecord.h"

#include <algorithm>

namespace concorde {

bool TraceRecord::addSource(std::uint8_t reg) {
    const auto begin = sources.begin();
    if (std::find(begin, begin + sourceCount, reg) != begin + sourceCount)
        return true; // already listed: reading a register twice is one dependency
    if (sourceCount == kMaxSources)
        return false;
    sources[sourceCount++] = reg;
    return true;
}

bool TraceRecord::addDestination(std::uint8_t reg) {
    const auto begin = destinations.begin();
    if (std::find(begin, begin + destinationCount, reg) != begin + destinationCount)
        return true;
    if (destinationCount == kMaxDestinations)
        return false;
    destinations[destinationCount++] = reg;
    return true;
}

bool TraceRecord::addLoad(std::uint64_t address, std::uint16_t accessSize) {
    if (loadCount == kMaxLoads)
        return false;
    loads[loadCount++] = {address, accessSize};
    return true;
}

bool TraceRecord::addStore(std::uint64_t address, std::uint16_t accessSize) {
    if (storeCount == kMaxStores)
        return false;
    stores[storeCount++] = {address, accessSize};
    return true;
}

bool TraceRecord::operator==(const TraceRecord& o) const {
    // Compare only the used part of each fixed-capacity array.
    return pc == o.pc && branchTarget == o.branchTarget && size == o.size &&
           instrClass == o.instrClass && branchKind == o.branchKind && taken == o.taken &&
           sourceCount == o.sourceCount && destinationCount == o.destinationCount &&
           loadCount == o.loadCount && storeCount == o.storeCount &&
           std::equal(sources.begin(), sources.begin() + sourceCount, o.sources.begin()) &&
           std::equal(destinations.begin(), destinations.begin() + destinationCount,
                      o.destinations.begin()) &&
           std::equal(loads.begin(), loads.begin() + loadCount, o.loads.begin()) &&
           std::equal(stores.begin(), stores.begin() + storeCount, o.stores.begin());
}

} // namespace concorde
