#pragma once

#include "trace/TraceRecord.h"

#include <cstdint>

namespace concorde::synthetic {

/// Where generated records go. The same kernel can fill a .ctrace file (TraceWriterSink) or an
/// in-memory buffer (VectorSink, used when a caller such as `concorde diagnose` simulates the
/// kernel directly), so kernels never depend on a particular destination.
///
/// Calls arrive as: beginRegion(), append() warm-up then measured records, endRegion().
class RecordSink {
public:
    virtual ~RecordSink() = default;
    /// Starts a region whose first `warmup` records are warm-up; `programStart` is the dynamic
    /// instruction index of its first measured record.
    virtual void beginRegion(std::uint64_t programStart, std::uint64_t warmup) = 0;
    virtual void append(const TraceRecord& record) = 0;
    virtual void endRegion() = 0;
};

} // namespace concorde::synthetic
