#include "attribution/ProgramValueFunction.h"

#include <algorithm>

namespace concorde {

ProgramValueFunction::ProgramValueFunction(ProgramValue program) : program_(std::move(program)) {
    program_.validate();
    const double total = static_cast<double>(program_.instructions());
    for (const RegionValue& region : program_.regions)
        weights_.push_back(static_cast<double>(region.instructions) / total);
}

void ProgramValueFunction::evaluate(std::span<const CoreConfig> configs,
                                    std::span<double> out) const {
    std::fill(out.begin(), out.end(), 0.0);
    std::vector<double> regionValues(configs.size());
    // Regions in order, so the sum (and hence every result bit) is the same on every call.
    for (std::size_t r = 0; r < program_.regions.size(); ++r) {
        program_.regions[r].value->evaluate(configs, regionValues);
        for (std::size_t i = 0; i < configs.size(); ++i)
            out[i] += weights_[r] * regionValues[i];
    }
}

} // namespace concorde
