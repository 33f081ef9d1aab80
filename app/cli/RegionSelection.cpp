#include "RegionSelection.h"

#include "CommonOptions.h"
#include "common/ConcordeError.h"

#include <CLI/CLI.hpp>

namespace concorde::cli {

void RegionSelection::addTo(CLI::App& app) {
    app.add_option("--region", index_, "only region I")
        ->type_name("I")
        ->check(wholeNumber())
        ->default_str("every region");
}

std::vector<std::size_t> RegionSelection::resolve(std::size_t regionCount) const {
    std::vector<std::size_t> selected;
    if (!index_) {
        for (std::size_t i = 0; i < regionCount; ++i)
            selected.push_back(i);
        return selected;
    }
    if (*index_ >= regionCount)
        throw badInput("region " + std::to_string(*index_) + " does not exist; the trace has " +
                       std::to_string(regionCount) + " regions");
    selected.push_back(*index_);
    return selected;
}

} // namespace concorde::cli
