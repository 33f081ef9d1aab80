#pragma once

#include "analysis/TagePredictor.h"
#include "analysis/WarmState.h"
#include "trace/TraceRecord.h"

#include <cstdint>
#include <span>
#include <vector>

namespace concorde {

/// Builds a WarmState from the functional warm-up's records, in program order: every
/// instruction fetch line and data line touched, the recent demand loads, and a TAGE predictor
/// trained on the branches.
///
/// Lines are kept as WarmState describes them: per finest set, the ways() most recently touched
/// lines with their last-use stamps (a fixed table of finestSets() × ways() entries, LRU within
/// each set). A line that falls out of its finest set's ways() most recent can never be part of
/// the result again unless it is touched anew, so the table is exact and memory stays bounded
/// however long the warm-up.
class WarmStateBuilder {
public:
    explicit WarmStateBuilder(std::uint32_t lineShift = 6,
                              const TagePredictor::Geometry& tage = {});

    /// Observes one record. With `trainPredictor` false its branch only trains TAGE's base
    /// predictor (TagePredictor::trainBase; the caller warms the tagged tables over a shorter
    /// span than the caches).
    void observe(const TraceRecord& record, bool trainPredictor = true) {
        events_.clear();
        extract(record, trainPredictor, events_);
        apply(events_);
    }
    void observe(std::span<const TraceRecord> records) {
        for (const TraceRecord& r : records)
            observe(r);
    }
    std::uint64_t instructions() const { return instructions_; }

    /// The warm state after everything observed so far.
    WarmState finish() const;

    /// What a record does to the state that extract() cannot settle by itself: a line touch
    /// (recency order) or a branch (TAGE). Most records produce none or one.
    struct Event {
        enum class Kind : std::uint8_t { InstructionLine, DataLine, Branch };
        std::uint64_t value = 0;  ///< the line, or the branch's pc
        std::uint64_t target = 0; ///< Branch: its target
        Kind kind = Kind::DataLine;
        BranchKind branchKind = BranchKind::None;
        bool taken = false;
        bool trainPredictor = false;
    };
    /// observe() in two halves that share no state, so that they can run on two threads
    /// (AsyncWarmStateBuilder): extract() keeps the instruction count, the recent loads and
    /// the filters that drop repeated touches of the same line, and appends the record's
    /// events to `out`; apply() updates the line table and TAGE. observe(r) is
    /// extract(r, ...) followed by apply() of its events; applying every extracted event in
    /// order gives the same state, however the events are batched.
    void extract(const TraceRecord& record, bool trainPredictor, std::vector<Event>& out);
    void apply(std::span<const Event> events);

private:
    struct Way {
        std::uint64_t stamp = 0; ///< 0: empty
        std::uint64_t line = 0;
        bool instruction = false;
    };
    void touch(std::uint64_t line, bool instruction);
    void train(const Event& branch);

    std::uint32_t lineShift_;
    std::uint32_t sets_;
    std::uint32_t ways_;
    std::uint64_t setMask_; ///< sets_ - 1: the finest partition has a power-of-two set count
    // extract()'s state.
    std::uint64_t instructions_ = 0;
    std::uint64_t lastFetchLine_ = ~std::uint64_t{0};
    std::uint64_t lastDataLine_ = ~std::uint64_t{0};
    bool lastTouchWasData_ = false;            ///< no line touched since lastDataLine_
    std::vector<WarmState::Load> recentLoads_; ///< ring of kRecentLoads, oldest at nextLoad_
    std::size_t nextLoad_ = 0;
    std::uint64_t loadsSeen_ = 0;
    std::vector<Event> events_; ///< observe()'s scratch
    // apply()'s state.
    std::uint64_t stamp_ = 0;
    std::vector<Way> table_; ///< sets_ × ways_
    TagePredictor tage_;
};

} // namespace concorde
