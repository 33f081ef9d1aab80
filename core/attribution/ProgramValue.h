#pragma once

#include "attribution/ValueFunction.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace concorde {

/// One region of a program for attribution: its CPI function and its weight.
struct RegionValue {
    std::string region;             ///< label written to the "region" column (e.g. "17")
    std::uint64_t instructions = 0; ///< weight: measured instructions of the region
    std::shared_ptr<const ValueFunction> value;
};

/// A program as a list of regions. The program's CPI is the instruction-weighted mean of its
/// regions' CPIs (docs/design.md §8), so its attribution is the instruction-weighted mean of the
/// region attributions.
struct ProgramValue {
    std::string program;
    std::vector<RegionValue> regions;

    /// Total instructions of the regions.
    std::uint64_t instructions() const;

    /// Throws a usage error naming the program if it has no region, a region without a value
    /// function or with 0 instructions, two regions with the same label, or a region labelled
    /// "all" (reserved for the program-level rows of the CSV).
    void validate() const;
};

} // namespace concorde
