#pragma once

#include "analysis/BranchEvent.h"
#include "analysis/TagePredictor.h"
#include "analysis/WarmState.h"
#include "trace/FunctionalRecord.h"
#include "trace/TraceRecord.h"

#include <cstdint>
#include <span>
#include <vector>

namespace concorde {

/// Builds a WarmState from the functional warm-up's records, in program order: every
/// instruction fetch line and data line touched, the recent demand loads, and a TAGE predictor
/// and a branch-target front end (BranchTargetPredictor) trained on the branches.
///
/// Lines are kept as WarmState describes them: per finest set, the ways() most recently touched
/// lines with their last-use stamps (a fixed table of finestSets() × ways() entries, LRU within
/// each set). A line that falls out of its finest set's ways() most recent can never be part of
/// the result again unless it is touched anew, so the table is exact and memory stays bounded
/// however long the warm-up.
class WarmStateBuilder {
public:
    using BranchEvent = concorde::BranchEvent;
    /// Trains `tage` and `targets` on `branches`, in order, exactly as observe() trains its own
    /// predictors; `scratch` is any record, reused from call to call (a fresh TraceRecord per
    /// branch cost more than a third of the training).
    static void trainOn(TagePredictor& tage, BranchTargetPredictor& targets,
                        std::span<const BranchEvent> branches, TraceRecord& scratch);

    explicit WarmStateBuilder(std::uint32_t lineShift = 6, const TagePredictor::Geometry& tage = {},
                              const BranchTargetSpec& targets = {});

    /// Observes one record. With `trainPredictor` false its branch only trains TAGE's base
    /// predictor (TagePredictor::trainBase) and not the branch-target front end: the caller
    /// warms the tagged tables, BTB, return stack and indirect table over a shorter span than
    /// the caches.
    void observe(const TraceRecord& record, bool trainPredictor = true);
    void observe(std::span<const TraceRecord> records) {
        for (const TraceRecord& r : records)
            observe(r);
    }
    /// Observes a batch of compact records (RecordSink::appendFunctional) exactly as observe()
    /// would the same instructions as TraceRecords (a record and its followers); the first
    /// `untrained` instructions are observed with `trainPredictor` false.
    void observe(std::span<const FunctionalRecord> records, std::span<const MemoryAccess> accesses,
                 std::uint64_t untrained);
    std::uint64_t instructions() const { return instructions_; }
    /// From now on, branches are appended to `log` instead of training the predictors, which
    /// then stay as they are (finish() carries them so); nullptr trains them again.
    void logBranches(std::vector<BranchEvent>* log) { branchLog_ = log; }

    /// The warm state after everything observed so far.
    WarmState finish() const;

private:
    /// A way's line with the instruction flag in bit 63 (line numbers are addresses >> 6, so
    /// the bit is free); kNoLine marks an empty way and matches no line.
    static constexpr std::uint64_t kInstructionBit = std::uint64_t{1} << 63;
    static constexpr std::uint64_t kNoLine = ~std::uint64_t{0};
    void touch(std::uint64_t line, bool instruction);
    /// touch() of a line that is not its set's most recent: the table's part.
    void touchTable(std::uint64_t line, std::uint64_t tagged, std::uint64_t stamp);
    /// The cache and prefetcher part of observing one instruction (both record forms).
    void observeLines(std::uint64_t pc, std::uint32_t size, bool taken, const MemoryAccess* loads,
                      std::size_t loadCount, const MemoryAccess* stores, std::size_t storeCount);
    /// The branch predictor part (`branch` is a branch record).
    void observeBranch(const TraceRecord& branch, bool trainPredictor);
    /// Writes set `set`'s recent-line entry back into the table (it stays valid).
    void writeBack(std::size_t set);

    /// In front of the table, the most recently touched line of each set. Touching that line
    /// again only updates this entry: the table's copy of its way is stale until the entry is
    /// written back, which happens before any other line of the set goes to the table, so
    /// victims are still chosen on exact stamps. Most touches are such repeats (stack, loop
    /// code, the next field of the same object); they stay in these arrays instead of scanning
    /// a set of the megabyte table, which mostly misses the CPU's caches (touch() fell from 8 %
    /// to 3.5 % of the decoding CPU time). The entry is three arrays, not one struct: a touch
    /// reads only the line (8 bytes a set, 64 kB in all, where a 24-byte struct made 192 kB and
    /// its load the builder's longest wait) and writes the stamp.
    struct RecentLines {
        std::vector<std::uint64_t> line;  ///< tagged like wayLines_; kNoLine when none
        std::vector<std::uint64_t> stamp; ///< its last use
        std::vector<std::uint32_t> way;   ///< its index in wayLines_ / wayStamps_
    };

    std::uint32_t lineShift_;
    std::uint32_t sets_;
    std::uint32_t ways_;
    std::uint64_t setMask_; ///< sets_ - 1: the finest partition has a power-of-two set count
    std::uint64_t instructions_ = 0;
    std::uint64_t stamp_ = 0;
    std::uint64_t lastFetchLine_ = ~std::uint64_t{0};
    std::uint64_t lastDataLine_ = ~std::uint64_t{0};
    std::uint64_t lastDataStamp_ = 0; ///< stamp_ right after lastDataLine_ was touched
    // The table as two arrays, sets_ × ways_ each: a hit, the common case, scans only the
    // set's lines (two cache lines), and only a miss reads the stamps to find the LRU way.
    std::vector<std::uint64_t> wayLines_;      ///< line | kInstructionBit, or kNoLine
    std::vector<std::uint64_t> wayStamps_;     ///< last use; 0 for an empty way
    RecentLines recent_;                       ///< one entry per set
    std::vector<WarmState::Load> recentLoads_; ///< ring of kRecentLoads, oldest at nextLoad_
    std::size_t nextLoad_ = 0;
    std::uint64_t loadsSeen_ = 0;
    TagePredictor tage_;
    BranchTargetPredictor targets_;
    std::vector<BranchEvent>* branchLog_ = nullptr;
};

} // namespace concorde
