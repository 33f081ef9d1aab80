#include "RegionSelection.h"

#include "common/ConcordeError.h"

#include <charconv>

namespace concorde::cli {

std::vector<std::size_t> RegionSelection::resolve(std::size_t regionCount) const {
    std::vector<std::size_t> selected;
    if (!text_) {
        for (std::size_t i = 0; i < regionCount; ++i)
            selected.push_back(i);
        return selected;
    }
    std::size_t index = 0;
    const auto* end = text_->data() + text_->size();
    const auto result = std::from_chars(text_->data(), end, index);
    if (text_->empty() || result.ec != std::errc() || result.ptr != end)
        throw usageError("--region expects a region number, got '" + *text_ + "'");
    if (index >= regionCount)
        throw badInput("region " + *text_ + " does not exist; the trace has " +
                       std::to_string(regionCount) + " regions");
    selected.push_back(index);
    return selected;
}

} // namespace concorde::cli
