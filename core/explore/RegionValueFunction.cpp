#include "explore/RegionValueFunction.h"

#include "common/ConcordeError.h"
#include "explore/DatabasePredictor.h"

#include <algorithm>
#include <array>

namespace concorde {

RegionValueFunction::RegionValueFunction(std::shared_ptr<const DatabasePredictor> predictor,
                                         std::size_t region)
    : predictor_(std::move(predictor)), region_(region) {
    if (!predictor_)
        throw usageError("RegionValueFunction needs a predictor");
    if (region_ >= predictor_->regions().size())
        throw usageError("RegionValueFunction: region " + std::to_string(region_) +
                         " out of range (the predictor has " +
                         std::to_string(predictor_->regions().size()) + " regions)");
}

void RegionValueFunction::evaluate(std::span<const CoreConfig> configs,
                                   std::span<double> out) const {
    if (out.size() != configs.size())
        throw usageError("RegionValueFunction: one output per configuration");
    std::array<double, kBlockWidth> values{};
    std::array<CoreConfig, kBlockWidth> padded;
    for (std::size_t begin = 0; begin < configs.size(); begin += kBlockWidth) {
        const std::size_t count = std::min(kBlockWidth, configs.size() - begin);
        if (count == kBlockWidth) {
            predictor_->regionCpi(region_, configs.subspan(begin, kBlockWidth), values);
        } else {
            std::copy_n(configs.begin() + static_cast<std::ptrdiff_t>(begin), count,
                        padded.begin());
            std::fill(padded.begin() + static_cast<std::ptrdiff_t>(count), padded.end(),
                      configs[begin + count - 1]);
            predictor_->regionCpi(region_, padded, values);
        }
        std::copy_n(values.begin(), count, out.begin() + static_cast<std::ptrdiff_t>(begin));
    }
}

ProgramValue
RegionValueFunction::programValue(const std::shared_ptr<const DatabasePredictor>& predictor,
                                  const std::string& program) {
    if (!predictor)
        throw usageError("RegionValueFunction::programValue needs a predictor");
    ProgramValue value;
    value.program = program;
    for (const std::size_t r : predictor->regionsOf(program)) {
        const auto& entry = predictor->regions()[r];
        value.regions.push_back({std::to_string(entry.regionIndex), entry.length,
                                 std::make_shared<RegionValueFunction>(predictor, r)});
    }
    return value;
}

} // namespace concorde
