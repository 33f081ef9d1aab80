#pragma once

#include "trace/TraceRecord.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace concorde {

/// Where a stream of regions and their records goes: a .ctrace file (TraceWriterSink), an
/// in-memory buffer (synthetic::VectorSink) or a filter in front of either (the functional
/// warm-up splitter of `concorde trace`). Producers — the tracer's stream decoder, the synthetic
/// kernels — never depend on a particular destination.
///
/// Calls arrive as: beginRegion(), append() warm-up then measured records, optionally
/// setBasicBlockVector() / setWarmState(), endRegion().
class RecordSink {
public:
    virtual ~RecordSink() = default;
    /// Starts a region whose first `warmup` records are warm-up; `programStart` is the dynamic
    /// instruction index of its first measured record.
    virtual void beginRegion(std::uint64_t programStart, std::uint64_t warmup) = 0;
    virtual void append(const TraceRecord& record) = 0;
    /// The open region's basic-block vector (Region::basicBlockVector). A sink that keeps no
    /// region table ignores it.
    virtual void setBasicBlockVector(std::vector<std::pair<std::uint64_t, std::uint64_t>> bbv) {
        (void)bbv;
    }
    /// The open region's functional warm-up length and encoded warm state
    /// (Region::functionalWarmup, Region::warmState). A sink that keeps no region table ignores
    /// it.
    virtual void setWarmState(std::uint64_t functionalWarmup, std::vector<std::uint8_t> warmState) {
        (void)functionalWarmup;
        (void)warmState;
    }
    virtual void endRegion() = 0;
};

} // namespace concorde
