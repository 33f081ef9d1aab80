#pragma once

#include "trace/RecordSink.h"
#include "trace/TraceInfo.h"

#include <vector>

namespace concorde {

class TraceWriter;

/// Adapts a TraceWriter to RecordSink. Does not own the writer: the caller still calls
/// TraceWriter::finish(). Keeps a copy of the region table it forwarded so callers can report
/// what was written without reopening the file.
class TraceWriterSink : public RecordSink {
public:
    explicit TraceWriterSink(TraceWriter& writer);

    void beginRegion(std::uint64_t programStart, std::uint64_t warmup) override;
    void append(const TraceRecord& record) override;
    void setBasicBlockVector(std::vector<std::pair<std::uint64_t, std::uint64_t>> bbv) override;
    void setWarmState(std::uint64_t functionalWarmup, std::vector<std::uint8_t> warmState) override;
    void endRegion() override;

    /// Regions forwarded so far (firstRecord, warmup and length as the writer stores them).
    const std::vector<Region>& regions() const { return regions_; }
    std::uint64_t recordCount() const { return records_; }

private:
    TraceWriter& writer_;
    std::vector<Region> regions_;
    std::uint64_t records_ = 0;
    bool open_ = false;
};

} // namespace concorde
