#include "trace/synthetic/VectorSink.h"

#include <algorithm>
#include <utility>

namespace concorde::synthetic {

void VectorSink::beginRegion(std::uint64_t programStart, std::uint64_t warmup) {
    if (open_)
        endRegion();
    Region region;
    region.programStart = programStart;
    region.warmup = warmup;
    region.firstRecord = records_.size();
    regions_.push_back(region);
    open_ = true;
}

void VectorSink::append(const TraceRecord& record) {
    if (!open_)
        beginRegion(records_.size(), 0); // keep the region table covering every record
    records_.push_back(record);
}

void VectorSink::setWarmState(std::uint64_t functionalWarmup, std::vector<std::uint8_t> warmState) {
    if (regions_.empty())
        return;
    regions_.back().functionalWarmup = functionalWarmup;
    regions_.back().warmState = std::move(warmState);
}

void VectorSink::endRegion() {
    if (!open_)
        return;
    Region& region = regions_.back();
    const std::uint64_t total = records_.size() - region.firstRecord;
    region.warmup = std::min(region.warmup, total);
    region.length = total - region.warmup;
    open_ = false;
}

std::vector<TraceRecord> VectorSink::takeRecords() {
    endRegion();
    std::vector<TraceRecord> out = std::move(records_);
    records_.clear();
    return out;
}

} // namespace concorde::synthetic
