#include "explore/ProgramTimeline.h"

#include "explore/DatabaseBounds.h"
#include "explore/DatabasePredictor.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace concorde {

bool ProgramTimeline::hasPhases() const {
    return std::any_of(entries.begin(), entries.end(),
                       [](const Entry& e) { return e.phase.has_value(); });
}

std::size_t ProgramTimeline::phaseCount() const {
    std::size_t count = 0;
    for (const Entry& e : entries)
        if (e.phase && *e.phase >= 0)
            count = std::max(count, static_cast<std::size_t>(*e.phase) + 1);
    return count;
}

double ProgramTimeline::programCpi() const {
    double weighted = 0, total = 0;
    for (const Entry& e : entries) {
        weighted += e.cpi * static_cast<double>(e.length);
        total += static_cast<double>(e.length);
    }
    return total > 0 ? weighted / total : std::numeric_limits<double>::quiet_NaN();
}

ProgramTimeline ProgramTimeline::build(const DatabaseBounds& bounds, const std::string& program,
                                       const DatabasePredictor* predictor,
                                       const CoreConfig& config) {
    ProgramTimeline timeline;
    timeline.program = program;
    std::unordered_map<std::int64_t, std::size_t> predicted;
    if (predictor)
        for (std::size_t i = 0; i < predictor->regions().size(); ++i)
            predicted[predictor->regions()[i].regionId] = i;
    for (const std::size_t r : bounds.regionsOf(program)) {
        const auto& region = bounds.regions()[r];
        Entry entry{r,
                    region.id,
                    region.regionIndex,
                    region.programStart,
                    region.length,
                    region.phase,
                    std::numeric_limits<double>::quiet_NaN()};
        if (const auto it = predicted.find(region.id); it != predicted.end())
            entry.cpi = predictor->regionCpi(it->second, config);
        timeline.entries.push_back(entry);
    }
    return timeline;
}

void ProgramTimeline::setPhases(const std::vector<std::pair<std::int64_t, std::int64_t>>& phases) {
    std::unordered_map<std::int64_t, std::int64_t> byId(phases.begin(), phases.end());
    for (Entry& e : entries) {
        const auto it = byId.find(e.regionId);
        e.phase = it == byId.end() ? std::nullopt : std::optional<std::int64_t>(it->second);
    }
}

} // namespace concorde
