#pragma once
// One region of a sample trace in data/samples (real programs traced by the tool), as tests of
// the simulator, the bounds and the warm-up read it: its records (warm-up first), the warm-up
// length and the trace's functional warm state.

#include "analysis/WarmState.h"
#include "trace/TraceReader.h"

#include <memory>
#include <string>
#include <vector>

namespace concorde::testing {

struct SampleRegion {
    std::vector<TraceRecord> records;
    std::size_t warmup = 0;
    std::shared_ptr<const WarmState> warm; ///< null for a cold region
};

inline SampleRegion sampleRegion(const std::string& sample, std::size_t region) {
    TraceReader reader(std::string(CONCORDE_SOURCE_DIR "/data/samples/") + sample + ".ctrace");
    SampleRegion r;
    reader.readRegion(region, r.records);
    const auto& info = reader.info().regions.at(region);
    r.warmup = static_cast<std::size_t>(info.warmup);
    r.warm = WarmState::ofRegion(info, sample + " region " + std::to_string(region));
    return r;
}

} // namespace concorde::testing
