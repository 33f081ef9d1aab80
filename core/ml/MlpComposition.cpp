#include "ml/MlpComposition.h"

#include "common/ConcordeError.h"
#include "features/BlockHosts.h"

#include <map>
#include <string>

namespace concorde {

void MlpComposition::check() const {
    if (unitsPerGroup <= 0 || outputsPerGroup <= 0 || unitsPerGroup > 4096 ||
        outputsPerGroup > 4096)
        throw badInput("composed network: " + std::to_string(unitsPerGroup) + " units and " +
                       std::to_string(outputsPerGroup) + " outputs per group");
    if (groupVaries.empty() || groupVaries.size() > 4096)
        throw badInput("composed network: " + std::to_string(groupVaries.size()) + " groups");
    std::vector<std::size_t> members(groupVaries.size(), 0);
    for (const std::uint16_t g : inputGroup) {
        if (g >= groupVaries.size())
            throw badInput("composed network: an input in group " + std::to_string(g) + " of " +
                           std::to_string(groupVaries.size()));
        ++members[g];
    }
    for (std::size_t g = 0; g < members.size(); ++g)
        if (members[g] == 0)
            throw badInput("composed network: group " + std::to_string(g) + " has no input");
}

MlpComposition MlpComposition::forLayout(const FeatureLayout& layout, int unitsPerGroup,
                                         int outputsPerGroup) {
    std::vector<std::vector<ParamId>> params;
    for (const FeatureBlock& block : layout.blocks())
        params.push_back(block.params);
    const BlockHosts::Assignment hosts = BlockHosts::of(params);
    MlpComposition composition;
    composition.unitsPerGroup = unitsPerGroup;
    composition.outputsPerGroup = outputsPerGroup;
    composition.inputGroup.assign(layout.width(), 0);
    std::map<int, std::uint16_t> groupOfHost; // hosts numbered in layout order
    for (std::size_t b = 0; b < params.size(); ++b)
        if (hosts.host[b] == static_cast<int>(b))
            groupOfHost.emplace(static_cast<int>(b), 0);
    std::uint16_t next = 0;
    for (auto& [host, group] : groupOfHost)
        group = next++;
    composition.groupVaries.assign(next, true);
    bool anyFixed = false;
    for (std::size_t b = 0; b < params.size(); ++b)
        anyFixed = anyFixed || hosts.host[b] < 0;
    if (anyFixed)
        composition.groupVaries.push_back(false);
    const auto fixedGroup = static_cast<std::uint16_t>(next);
    for (std::size_t b = 0; b < params.size(); ++b) {
        const FeatureBlock& block = layout.blocks()[b];
        const std::uint16_t group = hosts.host[b] < 0 ? fixedGroup : groupOfHost.at(hosts.host[b]);
        for (std::size_t i = 0; i < block.width; ++i)
            composition.inputGroup[block.offset + i] = group;
    }
    composition.check();
    return composition;
}

} // namespace concorde
