#include "bounds/RegionIndex.h"

namespace concorde {

RegionIndex::RegionIndex(const AnnotatedRegion& r) : region(r) {
    for (std::size_t i = 0; i < r.size(); ++i) {
        const AnnotatedInstruction& inst = r[i];
        const auto index = static_cast<std::uint32_t>(i);
        if (inst.isLoad())
            loads.push_back(index);
        if (inst.isStore())
            stores.push_back(index);
        if (i == 0 || inst.newFetchLine())
            lineStarts.push_back(index);
        if (inst.taken())
            takenEnds.push_back(index);
    }
}

} // namespace concorde
