#include "analysis/WarmStateBuilder.h"

#include <algorithm>
#include <vector>

namespace concorde {

WarmStateBuilder::WarmStateBuilder(std::uint32_t lineShift, const TagePredictor::Geometry& tage)
    : lineShift_(lineShift), tage_(tage) {}

void WarmStateBuilder::touch(std::uint64_t line, bool instruction) {
    lastUse_[line] = {++stamp_, instruction};
}

void WarmStateBuilder::observe(const TraceRecord& r) {
    ++instructions_;
    // Fetch lines as the analysis and the simulator fetch them: a new line, or after a taken
    // branch; an instruction spanning two lines touches both.
    const std::uint64_t first = r.pc >> lineShift_;
    const std::uint64_t last = (r.pc + std::max<std::uint32_t>(r.size, 1) - 1) >> lineShift_;
    for (std::uint64_t line = first; line <= last; ++line)
        if (line != lastFetchLine_)
            touch(line, true);
    lastFetchLine_ = r.taken ? ~std::uint64_t{0} : last;
    const auto touchData = [&](std::uint64_t address, std::uint32_t size) {
        const std::uint64_t end = (address + std::max<std::uint32_t>(size, 1) - 1) >> lineShift_;
        for (std::uint64_t line = address >> lineShift_; line <= end; ++line)
            touch(line, false);
    };
    for (std::size_t k = 0; k < r.loadCount; ++k) {
        touchData(r.loads[k].address, r.loads[k].size);
        recentLoads_.push_back({r.pc, r.loads[k].address});
        if (recentLoads_.size() > WarmState::kRecentLoads)
            recentLoads_.pop_front();
    }
    for (std::size_t k = 0; k < r.storeCount; ++k)
        touchData(r.stores[k].address, r.stores[k].size);
    tage_.predictAndUpdate(r);
}

WarmState WarmStateBuilder::finish() const {
    WarmState state;
    state.instructions = instructions_;
    state.recentLoads.assign(recentLoads_.begin(), recentLoads_.end());
    state.tage = std::make_shared<const TagePredictor>(tage_);

    // Per finest set, the ways() most recent lines; then all of them oldest first.
    const std::uint32_t sets = WarmState::finestSets();
    const std::uint32_t ways = WarmState::ways();
    struct Kept {
        std::uint64_t stamp;
        std::uint64_t line;
        bool instruction;
    };
    std::vector<std::vector<Kept>> bySet(sets);
    for (const auto& [line, use] : lastUse_) {
        auto& set = bySet[line % sets];
        const Kept kept{use.stamp, line, use.instruction};
        if (set.size() < ways) {
            set.push_back(kept);
            continue;
        }
        auto oldest = std::min_element(
            set.begin(), set.end(), [](const Kept& a, const Kept& b) { return a.stamp < b.stamp; });
        if (oldest->stamp < kept.stamp)
            *oldest = kept;
    }
    std::vector<Kept> all;
    for (const auto& set : bySet)
        all.insert(all.end(), set.begin(), set.end());
    std::sort(all.begin(), all.end(),
              [](const Kept& a, const Kept& b) { return a.stamp < b.stamp; });
    state.lines.reserve(all.size());
    for (const Kept& kept : all)
        state.lines.push_back({kept.line, kept.instruction});
    return state;
}

} // namespace concorde
