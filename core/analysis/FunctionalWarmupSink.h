#pragma once

#include "analysis/WarmStateBuilder.h"
#include "analysis/WarmStateWorker.h"
#include "trace/RecordSink.h"

#include <cstdint>
#include <optional>

namespace concorde {

/// A RecordSink filter that turns the long warm-up of every region into a functional warm-up
/// (docs/design.md §5). `concorde trace --functional-warmup N --warmup W` asks the tracer for
/// W + N warm-up records; of each region's warm-up, everything before its last W records goes
/// to a WarmStateBuilder instead of downstream, and the region is passed on with its W detailed
/// warm-up records plus the resulting warm state (setWarmState()).
///
/// When the tracer had to clip a region's warm-up (it never overlaps the previous region, and
/// never starts before the program), the instructions before it were recorded as the previous
/// region, so the builder carries on from there instead of starting cold: the state then covers
/// everything since the last unclipped functional warm-up. A region whose functional part is
/// clipped to nothing still gets that carried state.
///
/// The caches are warmed over the whole functional warm-up, the branch predictor over its last
/// kPredictorWarmup instructions.
///
/// On a machine with more than one CPU (or with `threaded`), the branch predictors are trained
/// on a second thread (WarmStateWorker) while the caller decodes the next records; the warm
/// states are the same bytes either way. Their hand-over then waits until right before the
/// region's endRegion().
class FunctionalWarmupSink : public RecordSink {
public:
    /// TAGE's tagged tables and histories are trained over only the last this many
    /// instructions of a functional warm-up (its base predictor and indirect targets, and the
    /// caches, over all of it): all of the default warm-up. With 2M, SQLite's first region kept
    /// 68 more mispredictions than after a detailed warm-up, 2.9 % on its CPI once the
    /// misprediction penalty was 11 cycles; with 10M it is within 1.2 % (docs/design.md §5).
    static constexpr std::uint64_t kPredictorWarmup = 10'000'000;

    /// `detailedWarmup` = W, `functionalWarmup` = N as requested from the tracer (N > 0).
    FunctionalWarmupSink(RecordSink& downstream, std::uint64_t detailedWarmup,
                         std::uint64_t functionalWarmup,
                         bool threaded = WarmStateWorker::worthAThread());

    void beginRegion(std::uint64_t programStart, std::uint64_t warmup) override;
    void append(const TraceRecord& record) override;
    /// The rest of the open region's functional warm-up: those records only reach the builder,
    /// so a producer may hand them over compactly (the tracer's stream decoder does).
    std::uint64_t functionalRecordsWanted() const override { return remaining_; }
    void appendFunctional(std::span<const FunctionalRecord> records,
                          std::span<const MemoryAccess> accesses) override;
    void setBasicBlockVector(std::vector<std::pair<std::uint64_t, std::uint64_t>> bbv) override;
    void setWarmState(std::uint64_t functionalWarmup, std::vector<std::uint8_t> warmState) override;
    void endRegion() override;

    /// Functional warm-up records digested so far, over all regions.
    std::uint64_t functionalRecords() const { return functionalRecords_; }
    /// Bytes of encoded warm state handed downstream so far.
    std::uint64_t warmStateBytes() const { return warmStateBytes_; }

private:
    void passWarmState();

    RecordSink& downstream_;
    std::uint64_t detailedWarmup_;
    std::uint64_t functionalWarmup_;
    std::optional<WarmStateBuilder> builder_;
    std::optional<WarmStateWorker> worker_; ///< trains the predictors when threaded
    bool stateQueued_ = false;              ///< the open region's state is with the worker
    std::uint64_t stateFunctional_ = 0;     ///< its functional warm-up length
    std::uint64_t regionFunctional_ = 0;    ///< functional records of the open region
    std::uint64_t remaining_ = 0;           ///< of those, still to come
    bool statePassed_ = false;
    std::uint64_t functionalRecords_ = 0;
    std::uint64_t warmStateBytes_ = 0;
};

} // namespace concorde
