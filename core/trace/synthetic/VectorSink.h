#pragma once

#include "trace/RecordSink.h"
#include "trace/TraceInfo.h"
#include "trace/TraceRecord.h"

#include <vector>

namespace concorde::synthetic {

/// Collects generated records and their region table in memory, laid out exactly as a
/// TraceReader would return them from the equivalent .ctrace (regions back to back).
class VectorSink : public RecordSink {
public:
    void beginRegion(std::uint64_t programStart, std::uint64_t warmup) override;
    void append(const TraceRecord& record) override;
    void setWarmState(std::uint64_t functionalWarmup, std::vector<std::uint8_t> warmState) override;
    void endRegion() override;

    const std::vector<TraceRecord>& records() const { return records_; }
    const std::vector<Region>& regions() const { return regions_; }
    /// Closes an open region and moves the records out; regions() stays valid.
    std::vector<TraceRecord> takeRecords();

private:
    std::vector<TraceRecord> records_;
    std::vector<Region> regions_;
    bool open_ = false;
};

} // namespace concorde::synthetic
