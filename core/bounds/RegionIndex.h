#pragma once

#include "analysis/AnnotatedRegion.h"

#include <cstdint>
#include <vector>

namespace concorde {

/// What the analytical models look up in an analysed region again and again, gathered in one
/// pass: positions of loads, stores, fetch lines and taken branches. Built once per region and
/// memory configuration, it lets every model visit only the instructions that matter to it, so a
/// sweep over a parameter's grid costs little more than the model itself.
struct RegionIndex {
    explicit RegionIndex(const AnnotatedRegion& region);

    const AnnotatedRegion& region;
    std::vector<std::uint32_t> loads;      ///< instructions with a load
    std::vector<std::uint32_t> stores;     ///< instructions with a store
    std::vector<std::uint32_t> lineStarts; ///< instructions that start an I-cache access
    std::vector<std::uint32_t> takenEnds;  ///< taken branches (ends of fetch groups)
};

} // namespace concorde
