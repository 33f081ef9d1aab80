#include "trace/TraceWriterSink.h"

#include "trace/TraceWriter.h"

#include <algorithm>

namespace concorde {

TraceWriterSink::TraceWriterSink(TraceWriter& writer) : writer_(writer) {}

void TraceWriterSink::beginRegion(std::uint64_t programStart, std::uint64_t warmup) {
    if (open_)
        endRegion();
    writer_.beginRegion(programStart, warmup);
    Region region;
    region.programStart = programStart;
    region.warmup = warmup;
    region.firstRecord = records_;
    regions_.push_back(region);
    open_ = true;
}

void TraceWriterSink::append(const TraceRecord& record) {
    writer_.append(record);
    ++records_;
}

void TraceWriterSink::setBasicBlockVector(
    std::vector<std::pair<std::uint64_t, std::uint64_t>> bbv) {
    writer_.setBasicBlockVector(std::move(bbv));
}

void TraceWriterSink::setWarmState(std::uint64_t functionalWarmup,
                                   std::vector<std::uint8_t> warmState) {
    writer_.setWarmState(functionalWarmup, std::move(warmState)); // throws outside a region
    regions_.back().functionalWarmup = functionalWarmup;
}

void TraceWriterSink::endRegion() {
    if (!open_)
        return;
    writer_.endRegion();
    // Mirror the writer's rule for a region that ended early: warm-up first, then the rest.
    Region& region = regions_.back();
    const std::uint64_t total = records_ - region.firstRecord;
    region.warmup = std::min(region.warmup, total);
    region.length = total - region.warmup;
    open_ = false;
}

} // namespace concorde
