#include "explore/BoundResources.h"

#include "common/ConcordeError.h"
#include "features/FeatureAssembler.h"
#include "features/FeatureLayout.h"
#include "params/CoreConfig.h"

#include <algorithm>
#include <map>

namespace concorde {
namespace {

const FeatureLayout& layout() {
    static const FeatureLayout standard = FeatureLayout::standard();
    return standard;
}

std::string labelOf(const std::string& block) {
    static const std::map<std::string, std::string> names = {
        {"rob", "ROB"},
        {"lq", "Load queue"},
        {"sq", "Store queue"},
        {"alu_issue", "ALU issue"},
        {"fp_issue", "FP issue"},
        {"ls_issue", "LS issue"},
        {"pipes_upper", "LS pipes"},
        {"icache_fills", "I-cache fills"},
        {"fetch_buffers", "Fetch buffers"},
        {"fetch_width", "Fetch width"},
    };
    const auto found = names.find(block);
    return found == names.end() ? block : found->second;
}

} // namespace

std::size_t BoundResources::count() {
    return blocks().size();
}

const std::vector<std::string>& BoundResources::blocks() {
    return FeatureAssembler::resourceBlocks();
}

const std::vector<std::string>& BoundResources::labels() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const auto& block : blocks())
            out.push_back(labelOf(block));
        return out;
    }();
    return names;
}

SeriesKey BoundResources::key(std::size_t resource, const CoreConfig& config) {
    if (resource >= count())
        throw usageError("no bound resource " + std::to_string(resource) + " (there are " +
                         std::to_string(count()) + ")");
    return FeatureAssembler::keyFor(layout().block(blocks()[resource]), 0, config);
}

const std::vector<std::string>& BoundResources::seriesGroups() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        const CoreConfig config;
        for (std::size_t r = 0; r < count(); ++r)
            out.push_back(key(r, config).name);
        return out;
    }();
    return names;
}

std::optional<std::size_t> BoundResources::find(std::string_view block) {
    const auto& all = blocks();
    const auto it = std::find(all.begin(), all.end(), block);
    if (it == all.end())
        return std::nullopt;
    return static_cast<std::size_t>(it - all.begin());
}

} // namespace concorde
