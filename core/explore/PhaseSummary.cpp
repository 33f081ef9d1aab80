#include "explore/PhaseSummary.h"

#include "explore/DatabaseBounds.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace concorde {

std::vector<PhaseSummary> PhaseSummary::summarise(const ProgramTimeline& timeline,
                                                  const DatabaseBounds& bounds,
                                                  const CoreConfig& config) {
    struct Totals {
        std::size_t regions = 0;
        double instructions = 0, cycles = 0;
        bool cpiKnown = true;
        std::vector<std::size_t> binding;
        std::size_t windows = 0;
    };
    std::map<std::int64_t, Totals> phases;
    double instructions = 0;
    for (const ProgramTimeline::Entry& entry : timeline.entries) {
        instructions += double(entry.length);
        if (!entry.phase || *entry.phase < 0)
            continue;
        Totals& t = phases[*entry.phase];
        ++t.regions;
        t.instructions += double(entry.length);
        // CPI weighted by instructions: the phase's cycles over its instructions.
        if (std::isnan(entry.cpi))
            t.cpiKnown = false;
        t.cycles += entry.cpi * double(entry.length);
        const RegionBoundsSeries series = bounds.region(entry.region, config);
        t.binding.resize(series.resourceCount(), 0);
        for (std::size_t r = 0; r < series.resourceCount(); ++r)
            t.binding[r] += series.bindingCount(r);
        t.windows += series.windows();
    }
    std::vector<PhaseSummary> out;
    for (const auto& [phase, t] : phases) {
        PhaseSummary s;
        s.phase = phase;
        s.regions = t.regions;
        s.instructionShare = instructions > 0 ? t.instructions / instructions : 0.0;
        s.cpi = t.cpiKnown && t.instructions > 0 ? t.cycles / t.instructions
                                                 : std::numeric_limits<double>::quiet_NaN();
        if (!t.binding.empty()) {
            s.dominantResource = std::size_t(std::max_element(t.binding.begin(), t.binding.end()) -
                                             t.binding.begin());
            s.dominantShare =
                t.windows > 0 ? double(t.binding[s.dominantResource]) / double(t.windows) : 0.0;
        }
        out.push_back(s);
    }
    return out;
}

} // namespace concorde
