#pragma once

#include "trace/FunctionalRecord.h"
#include "trace/TraceRecord.h"

#include <cstdint>
#include <span>
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
    /// How many of the next records the sink only needs functionally (a functional warm-up):
    /// a producer may hand up to that many, in order, to appendFunctional() instead of
    /// append(). 0 (the default) = every record goes through append().
    virtual std::uint64_t functionalRecordsWanted() const { return 0; }
    /// The next records (at most functionalRecordsWanted()) in compact form: `records` and the
    /// FunctionalRecord::followers each of them stands for; `accesses` holds their memory
    /// accesses (FunctionalRecord::firstAccess indexes it).
    virtual void appendFunctional(std::span<const FunctionalRecord> records,
                                  std::span<const MemoryAccess> accesses) {
        (void)records;
        (void)accesses;
    }
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
