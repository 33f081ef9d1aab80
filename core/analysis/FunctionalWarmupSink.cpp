#include "analysis/FunctionalWarmupSink.h"

#include "common/ConcordeError.h"

#include <algorithm>
#include <string>

namespace concorde {

FunctionalWarmupSink::FunctionalWarmupSink(RecordSink& downstream, std::uint64_t detailedWarmup,
                                           std::uint64_t functionalWarmup, bool threaded)
    : downstream_(downstream), detailedWarmup_(detailedWarmup),
      functionalWarmup_(functionalWarmup) {
    if (functionalWarmup_ == 0)
        throw usageError("a functional warm-up filter needs a functional warm-up length");
    if (threaded)
        worker_.emplace();
}

void FunctionalWarmupSink::beginRegion(std::uint64_t programStart, std::uint64_t warmup) {
    regionFunctional_ = warmup > detailedWarmup_ ? warmup - detailedWarmup_ : 0;
    remaining_ = regionFunctional_;
    statePassed_ = false;
    // A full-length warm-up was not clipped: the instructions before it were never recorded,
    // so the state starts cold there. A clipped one continues from the previous region.
    const bool clipped = warmup < detailedWarmup_ + functionalWarmup_;
    if (!builder_ || !clipped) {
        builder_.emplace();
        if (worker_) {
            worker_->reset();
            builder_->logBranches(worker_->log());
        }
    }
    downstream_.beginRegion(programStart, warmup - regionFunctional_);
    if (remaining_ == 0)
        passWarmState();
}

void FunctionalWarmupSink::append(const TraceRecord& record) {
    builder_->observe(record, remaining_ <= kPredictorWarmup);
    if (worker_)
        worker_->poll();
    if (remaining_ > 0) {
        ++functionalRecords_;
        if (--remaining_ == 0)
            passWarmState();
        return;
    }
    downstream_.append(record);
}

void FunctionalWarmupSink::appendFunctional(std::span<const FunctionalRecord> records,
                                            std::span<const MemoryAccess> accesses) {
    // As append() would: an instruction trains the predictor's tagged tables once at most
    // kPredictorWarmup functional instructions are left, counting itself.
    const std::uint64_t untrained =
        remaining_ > kPredictorWarmup ? remaining_ - kPredictorWarmup : 0;
    const std::uint64_t before = builder_->instructions();
    builder_->observe(records, accesses, untrained);
    if (worker_)
        worker_->poll();
    const std::uint64_t instructions = builder_->instructions() - before;
    if (instructions > remaining_)
        throw runtimeFailure("internal error: " + std::to_string(instructions) +
                             " functional instructions handed over where " +
                             std::to_string(remaining_) + " were wanted");
    functionalRecords_ += instructions;
    remaining_ -= instructions;
    if (remaining_ == 0 && instructions > 0)
        passWarmState();
}

void FunctionalWarmupSink::setBasicBlockVector(
    std::vector<std::pair<std::uint64_t, std::uint64_t>> bbv) {
    downstream_.setBasicBlockVector(std::move(bbv));
}

void FunctionalWarmupSink::setWarmState(std::uint64_t functionalWarmup,
                                        std::vector<std::uint8_t> warmState) {
    downstream_.setWarmState(functionalWarmup, std::move(warmState));
}

void FunctionalWarmupSink::endRegion() {
    if (!statePassed_) // the program ended inside the functional warm-up
        passWarmState();
    if (stateQueued_) {
        stateQueued_ = false;
        std::vector<std::uint8_t> bytes = worker_->takeSnapshot();
        warmStateBytes_ += bytes.size();
        downstream_.setWarmState(stateFunctional_, std::move(bytes));
    }
    downstream_.endRegion();
}

void FunctionalWarmupSink::passWarmState() {
    statePassed_ = true;
    if (builder_->instructions() == 0)
        return;    // nothing observed: the region stays cold
    if (worker_) { // the worker adds the predictors and encodes
        worker_->snapshot(builder_->finish());
        stateQueued_ = true;
        stateFunctional_ = regionFunctional_ - remaining_;
        return;
    }
    std::vector<std::uint8_t> bytes = builder_->finish().encode();
    warmStateBytes_ += bytes.size();
    downstream_.setWarmState(regionFunctional_ - remaining_, std::move(bytes));
}

} // namespace concorde
