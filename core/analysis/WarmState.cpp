#include "analysis/WarmState.h"

#include "analysis/CacheHierarchy.h"
#include "analysis/MemorySystemSpec.h"
#include "params/ParameterSpace.h"

#include <algorithm>

namespace concorde {
namespace {

std::uint32_t setsAt(double maxKb, std::uint32_t ways, std::uint32_t lineBytes) {
    return static_cast<std::uint32_t>(maxKb * 1024 / lineBytes / ways);
}

} // namespace

std::uint32_t WarmState::finestSets() {
    const MemorySystemSpec spec;
    const auto maxKb = [](ParamId id) { return ParameterSpace::spec(id).max; };
    return std::max({setsAt(maxKb(ParamId::L1dKb), spec.l1dWays, spec.lineBytes),
                     setsAt(maxKb(ParamId::L1iKb), spec.l1iWays, spec.lineBytes),
                     setsAt(maxKb(ParamId::L2Kb), spec.l2Ways, spec.lineBytes),
                     setsAt(spec.llcKb, spec.llcWays, spec.lineBytes)});
}

std::uint32_t WarmState::ways() {
    const MemorySystemSpec spec;
    return std::max({spec.l1dWays, spec.l1iWays, spec.l2Ways, spec.llcWays});
}

void WarmState::warm(CacheHierarchy& caches) const {
    const std::uint32_t shift = caches.spec().lineShift();
    for (const Line& line : lines) {
        if (line.instruction)
            caches.accessInstruction(line.line << shift);
        else
            caches.warmDataLine(line.line);
    }
    for (const Load& load : recentLoads)
        caches.accessData(load.pc, load.address, false);
    caches.resetStats();
}

TagePredictor WarmState::tagePredictor(const TagePredictor::Geometry& geometry) const {
    if (tage && tage->geometry() == geometry)
        return *tage;
    return TagePredictor(geometry);
}

} // namespace concorde
