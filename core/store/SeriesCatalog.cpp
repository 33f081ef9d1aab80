#include "store/SeriesCatalog.h"

#include "bounds/BoundsCalculator.h"
#include "bounds/WindowBounds.h"
#include "common/ConcordeError.h"
#include "features/SeriesKey.h"
#include "params/ParameterSpace.h"
#include "trace/InstrClass.h"

#include <algorithm>

namespace concorde {
namespace {

struct Entry {
    std::string name;
    SeriesCatalog::Key key;
};

/// GridBounds::build's final ordering, reproduced exactly.
bool before(const Entry& a, const Entry& b) {
    if (a.name != b.name)
        return a.name < b.name;
    if (a.key.memory.packedKey() != b.key.memory.packedKey())
        return a.key.memory.packedKey() < b.key.memory.packedKey();
    return a.key.settings < b.key.settings;
}

int memoryDistance(const MemoryConfig& a, const MemoryConfig& b) {
    return (a.l1dKb != b.l1dKb) + (a.l1iKb != b.l1iKb) + (a.l2Kb != b.l2Kb) +
           (a.prefetchDegree != b.prefetchDegree);
}

} // namespace

SeriesCatalog::SeriesCatalog(const BoundsGrid& grid, bool timedStores) : timedStores_(timedStores) {
    const auto& g = grid;
    for (double l1d : g[index(ParamId::L1dKb)])
        for (double l1i : g[index(ParamId::L1iKb)])
            for (double l2 : g[index(ParamId::L2Kb)])
                for (double pf : g[index(ParamId::PrefetchDegree)])
                    memories_.push_back({static_cast<int>(l1d), static_cast<int>(l1i),
                                         static_cast<int>(l2), static_cast<int>(pf)});

    std::vector<Entry> entries;
    const auto add = [&](std::string name, std::vector<std::pair<ParamId, double>> settings,
                         const MemoryConfig* memory, std::uint32_t memoryId) {
        Entry e;
        e.name = std::move(name);
        e.key.settings = std::move(settings);
        if (memory) {
            e.key.memoryDependent = true;
            e.key.memory = *memory;
            e.key.memoryConfigId = memoryId;
        }
        entries.push_back(std::move(e));
    };
    for (std::size_t m = 0; m < memories_.size(); ++m) {
        const MemoryConfig* memory = &memories_[m];
        const auto id = static_cast<std::uint32_t>(m + 1);
        for (double rob : g[index(ParamId::Rob)])
            for (const char* name : {"rob", "rob.issue_wait", "rob.execution", "rob.commit_wait"})
                add(name, {{ParamId::Rob, rob}}, memory, id);
        for (std::uint32_t size : BoundsCalculator::auxiliaryRobSizes())
            add("rob_" + std::to_string(size), {}, memory, id);
        for (double lq : g[index(ParamId::LoadQueue)])
            add("lq", {{ParamId::LoadQueue, lq}}, memory, id);
        if (timedStores)
            for (double sq : g[index(ParamId::StoreQueue)])
                add("sq", {{ParamId::StoreQueue, sq}}, memory, id);
        for (double fills : g[index(ParamId::IcacheFills)])
            add("icache_fills", {{ParamId::IcacheFills, fills}}, memory, id);
        for (double buffers : g[index(ParamId::FetchBuffers)])
            add("fetch_buffers", {{ParamId::FetchBuffers, buffers}}, memory, id);
    }
    const std::pair<const char*, ParamId> single[] = {{"alu_issue", ParamId::AluIssue},
                                                      {"fp_issue", ParamId::FpIssue},
                                                      {"ls_issue", ParamId::LsIssue},
                                                      {"fetch_width", ParamId::FetchWidth},
                                                      {"sq", ParamId::StoreQueue}};
    for (const auto& [name, param] : single)
        if (param != ParamId::StoreQueue || !timedStores)
            for (double v : g[index(param)])
                add(name, {{param, v}}, nullptr, 0);
    for (double ls : g[index(ParamId::LsPipes)])
        for (double lp : g[index(ParamId::LoadPipes)]) {
            add("pipes", {{ParamId::LsPipes, ls}, {ParamId::LoadPipes, lp}}, nullptr, 0);
            add("pipes_lower", {{ParamId::LsPipes, ls}, {ParamId::LoadPipes, lp}}, nullptr, 0);
        }
    add("fences_pki", {}, nullptr, 0);
    for (std::size_t b = 1; b < kBranchKindCount; ++b)
        add("branches_pki." + std::string(branchKindName(static_cast<BranchKind>(b))), {}, nullptr,
            0);
    for (double bp : g[index(ParamId::BranchPredictor)]) {
        if (bp == 1.0) {
            add("mispredicts_pki", {{ParamId::BranchPredictor, 1.0}}, nullptr, 0);
            continue;
        }
        for (double pct : g[index(ParamId::BpMissPct)])
            add("mispredicts_pki", {{ParamId::BranchPredictor, 0.0}, {ParamId::BpMissPct, pct}},
                nullptr, 0);
    }
    std::stable_sort(entries.begin(), entries.end(), before);

    for (auto& e : entries) {
        if (groups_.empty() || groups_.back().name != e.name) {
            Group group;
            group.name = e.name;
            group.singleValue = e.name.rfind("rob_", 0) == 0;
            groups_.push_back(std::move(group));
        }
        groups_.back().series.push_back(std::move(e.key));
    }
    for (auto& group : groups_) {
        const auto& s = group.series;
        group.referenceCandidates.resize(s.size());
        for (std::size_t i = 0; i < s.size(); ++i) {
            auto& c = group.referenceCandidates[i];
            if (i > 0 && s[i - 1].memory == s[i].memory)
                c.push_back(static_cast<std::uint32_t>(i - 1));
            if (!s[i].memoryDependent)
                continue;
            for (std::size_t j = 0; j < i; ++j)
                if (s[j].settings == s[i].settings && memoryDistance(s[j].memory, s[i].memory) == 1)
                    c.push_back(static_cast<std::uint32_t>(j));
        }
    }
}

const SeriesCatalog::Group* SeriesCatalog::find(const std::string& name) const {
    for (const auto& group : groups_)
        if (group.name == name)
            return &group;
    return nullptr;
}

std::size_t SeriesCatalog::seriesCount() const {
    std::size_t n = 0;
    for (const auto& group : groups_)
        n += group.series.size();
    return n;
}

std::uint32_t SeriesCatalog::windowsFor(const Group& group, std::uint64_t instructions,
                                        std::uint32_t windowSize) {
    if (group.singleValue)
        return 1;
    return static_cast<std::uint32_t>(WindowBounds::windowCount(instructions, windowSize));
}

std::string SeriesCatalog::settingsText(const std::vector<std::pair<ParamId, double>>& settings) {
    return SeriesKey::settingsText(settings);
}

void SeriesCatalog::requireMatches(const GridBounds::Result& result) const {
    std::size_t k = 0;
    const auto mismatch = [&](const std::string& what) {
        throw runtimeFailure("internal error: the computed series do not match the database "
                             "catalog (" +
                             what + ")");
    };
    for (const auto& group : groups_) {
        const std::uint32_t windows = windowsFor(group, result.instructions, result.windowSize);
        for (const auto& key : group.series) {
            if (k >= result.series.size())
                mismatch("missing series " + group.name + " " + settingsText(key.settings));
            const GridSeries& s = result.series[k++];
            if (s.name != group.name || s.memoryDependent != key.memoryDependent ||
                (key.memoryDependent && !(s.memory == key.memory)) || s.settings != key.settings)
                mismatch("expected " + group.name + " " + settingsText(key.settings) + ", got " +
                         s.name + " " + settingsText(s.settings));
            if (s.values.size() != windows)
                mismatch(group.name + " has " + std::to_string(s.values.size()) +
                         " windows, expected " + std::to_string(windows));
        }
    }
    if (k != result.series.size())
        mismatch("unexpected series " + result.series[k].name);
}

} // namespace concorde
