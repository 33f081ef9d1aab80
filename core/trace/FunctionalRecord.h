#pragma once

#include "trace/InstrClass.h"
#include "trace/TraceRecord.h"

#include <cstdint>

namespace concorde {

/// One executed instruction of a functional warm-up, as much of it as warming caches, the
/// prefetcher and the branch predictors needs (no registers, no class): a sixth of a
/// TraceRecord's bytes. The tracer's stream decoder hands such records to a sink in batches
/// (RecordSink::appendFunctional), with the memory accesses of the whole batch in one array:
/// this record's `loadCount` loads start at `firstAccess`, its `storeCount` stores follow them.
/// The counts and the order are those TraceRecord::addLoad/addStore would keep (at most
/// kMaxLoads and kMaxStores, in the tool's slot order), so that both forms warm identically.
///
/// A record also stands for the `followers` instructions right after it that touch no memory,
/// are no branches and lie wholly in the kFollowerLineBytes-byte line where this record ends
/// (itself no branch): for a warm-up over lines of at least that size they change nothing but
/// the instruction count (no new fetch line, no data line, no predictor update), so they are
/// counted instead of recorded. A third of gzip's instructions are such followers.
struct FunctionalRecord {
    /// Followers stay within a line of this many bytes (the warm state's cache line).
    static constexpr std::uint32_t kFollowerLineShift = 6;
    static constexpr std::uint8_t kMaxFollowers = 255;

    std::uint64_t pc = 0;
    std::uint64_t branchTarget = 0; ///< where a taken branch went; the static target otherwise
    std::uint32_t firstAccess = 0;
    std::uint8_t size = 0;
    BranchKind branchKind = BranchKind::None;
    bool taken = false;
    std::uint8_t loadCount = 0;
    std::uint8_t storeCount = 0;
    std::uint8_t followers = 0; ///< instructions after this one that it stands for

    bool isBranch() const { return branchKind != BranchKind::None; }
};

} // namespace concorde
