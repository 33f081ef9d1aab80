#pragma once

#include "trace/FunctionalRecord.h"
#include "trace/TraceRecord.h"

#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

namespace concorde {

class RecordSink;

/// Turns the raw stream of the `ctrace` Valgrind tool (core/trace/TracerProtocol.h) into trace
/// records handed to a RecordSink, chunk by chunk as bytes arrive from the pipe.
///
/// Branch outcomes are not in the stream: a branch's record is held back until the next record
/// of the same thread (or a region end / signal frame) tells where control went, then released
/// in execution order. Records of other threads queue behind a held branch; the queue is bounded
/// (kMaxHeldRecords), beyond which the oldest held branch is resolved as "not taken / target
/// unknown" and counted in unresolvedBranches(). In the common case (one thread, nothing
/// queued) the one branch waiting for its successor sits in a single slot instead of the queue.
///
/// Records the sink needs only functionally (RecordSink::functionalRecordsWanted(), a functional
/// warm-up) take a fast path while nothing is held: they are decoded from a compact copy of
/// the static descriptors into FunctionalRecords and handed over in batches, with the same
/// outcomes, accesses and order as the TraceRecords the general path would give; instructions
/// that cannot change a warm state are counted as the previous record's followers
/// (FunctionalRecord::followers) instead. Any other
/// frame, or a record the sink wants in full, first hands over the batch.

class TracerStreamDecoder {
public:
    static constexpr std::size_t kMaxHeldRecords = 1u << 20;

    explicit TracerStreamDecoder(RecordSink& sink);

    /// Consumes the next bytes of the stream. Throws a bad-input ConcordeError naming the stream
    /// offset when the bytes are not a valid stream.
    void feed(const unsigned char* data, std::size_t size);
    /// The producer closed the stream. Releases everything still held.
    void finish();

    /// True once the END frame arrived (the traced program ran to completion).
    bool complete() const { return complete_; }
    std::uint64_t totalInstructions() const { return totalInstructions_; }
    int programExitCode() const { return exitCode_; }
    std::uint64_t recordsWritten() const { return recordsWritten_; }
    std::uint32_t regionsCompleted() const { return regionsCompleted_; }
    bool lastRegionTruncated() const { return lastRegionTruncated_; }
    std::uint64_t unresolvedBranches() const { return unresolvedBranches_; }
    /// Operands beyond what a TraceRecord holds (registers or memory accesses), dropped.
    std::uint64_t droppedOperands() const { return droppedOperands_; }
    /// The traced program's command line, from the stream header.
    const std::string& commandLine() const { return commandLine_; }

private:
    struct StaticInstr {
        TraceRecord templ;                   ///< everything but the addresses and the outcome
        std::vector<std::uint8_t> slotKinds; ///< CTP_MEM_LOAD / CTP_MEM_STORE per memory slot
        std::vector<std::uint16_t> slotSizes;
        bool defined = false;
    };
    /// What the functional fast path reads of a static descriptor, packed so that the table
    /// stays in the CPU's caches (a StaticInstr is ~170 bytes and its slots are on the heap).
    struct CompactStatic {
        std::uint64_t pc = 0;
        /// With kSingleSlot the one memory slot itself (kind << 16 | size), otherwise the index
        /// of the first slot in compactSlots_: one dependent load fewer for most records.
        std::uint32_t slotInfo = 0;
        std::uint8_t size = 0;
        BranchKind branchKind = BranchKind::None;
        std::uint8_t slotCount = 0;
        std::uint8_t flags = 0; ///< kDefined | kOrdered | kPlain | kSingleSlot
    };
    // 16 bytes, so that the descriptors of a warm-up's code stay in the L2 cache: the load of a
    // record's descriptor is the decoder's longest wait (the static target is read only for
    // branches, from compactTargets_).
    static_assert(sizeof(CompactStatic) == 16);
    static constexpr std::uint8_t kDefined = 1;
    /// Loads before stores, at most as many of each as a record keeps: one pass over the slots.
    static constexpr std::uint8_t kOrdered = 2;
    /// No memory slot, no branch, within one follower line: may be a FunctionalRecord follower.
    static constexpr std::uint8_t kPlain = 4;
    /// Exactly one memory slot, kept in CompactStatic::slotInfo.
    static constexpr std::uint8_t kSingleSlot = 8;
    /// Never a line (lines are addresses >> 6): the line followers must be in when the last
    /// record takes none.
    static constexpr std::uint64_t kNoFollowers = ~std::uint64_t{0} - 1;
    const std::uint32_t* slotsOf(const CompactStatic& c) const {
        return (c.flags & kSingleSlot) ? &c.slotInfo : compactSlots_.data() + c.slotInfo;
    }
    struct Held {
        TraceRecord record;
        std::uint32_t thread;
        bool resolved;
    };

    /// Decodes what it can of view_ from consumed_ on.
    void decodeView();
    /// decodeView() over buffer_.
    void decodeBuffer();
    void parseHeader();
    void parseFrame(std::uint32_t type, const unsigned char* payload, std::uint32_t size);
    void parseStatic(const unsigned char* p, std::uint32_t size);
    /// Decodes the next records of the open RECORDS frame from the `size` bytes at `p`, up to
    /// the last complete one (`frameEnds`: these are all the frame's bytes, so an incomplete
    /// record is an error); returns the bytes used.
    std::uint32_t parseRecords(const unsigned char* p, std::uint32_t size, bool frameEnds);
    /// Whether the record at `offset` is all there (fails on an undefined id, and on a missing
    /// part when `frameEnds`).
    bool recordComplete(const unsigned char* p, std::uint32_t size, std::uint32_t offset,
                        bool frameEnds);
    /// The functional fast path: decodes records from index `k` of the `count` at `p` onto the
    /// batch while the sink wants them compactly and they are complete; returns the index of
    /// the next record.
    std::uint32_t batchRecords(const unsigned char* p, std::uint32_t size, std::uint32_t& offset,
                               std::uint32_t k, std::uint32_t count);
    /// Appends the accesses of a record whose slots are not kOrdered (the general slot order).
    void batchUnorderedAccesses(const CompactStatic& c, const unsigned char* p,
                                FunctionalRecord& f);
    /// Hands the batch to the sink; with `keepPendingBranch`, a last record that is a branch
    /// still waiting for its successor stays behind as the next batch's first.
    void flushBatch(bool keepPendingBranch);
    /// Hands over the batch and moves a branch it still holds to the general path.
    void leaveFastPath();
    /// Counts a record handed to the sink through append().
    void appended();
    void resolveThread(std::uint32_t thread, std::uint64_t nextPc);
    /// Moves the branch of the single-slot fast path into the general queue.
    void spillPending();
    static void resolveOutcome(TraceRecord& branch, std::uint64_t nextPc);
    void resolveAll();
    void release();
    [[noreturn]] void fail(const std::string& problem) const;

    RecordSink& sink_;
    std::vector<unsigned char> buffer_;   ///< bytes of an unfinished frame, kept between feeds
    const unsigned char* view_ = nullptr; ///< what is being decoded: buffer_ or the fed bytes
    std::size_t viewSize_ = 0;
    std::size_t consumed_ = 0;       ///< bytes of view_ already parsed
    std::uint64_t streamOffset_ = 0; ///< stream position of view_[0]
    bool headerDone_ = false;
    bool inRecordsFrame_ = false;          ///< a RECORDS frame is being decoded
    std::uint32_t recordsLeft_ = 0;        ///< its records still to decode
    std::uint32_t recordsPayloadLeft_ = 0; ///< its bytes still to come or decode
    bool complete_ = false;
    std::string commandLine_;
    std::vector<StaticInstr> statics_;
    std::vector<CompactStatic> compact_;        ///< same ids as statics_
    std::vector<std::uint64_t> compactTargets_; ///< static branch targets, same ids
    std::vector<std::uint32_t> compactSlots_;   ///< kind << 16 | size, per memory slot
    std::uint64_t functionalLeft_ = 0;          ///< the sink's functionalRecordsWanted()
    std::vector<FunctionalRecord> batch_;       ///< fast-path records not yet handed over
    std::vector<MemoryAccess> batchAccesses_;   ///< their memory accesses
    std::uint64_t batchInstructions_ = 0;       ///< batch_ records plus their followers
    bool batchBranchPending_ = false;  ///< batch_.back() is a branch awaiting its successor
    std::uint32_t batchPendingId_ = 0; ///< that branch's static id
    std::deque<Held> held_;
    TraceRecord pending_; ///< a branch awaiting its successor while held_ is empty
    bool hasPending_ = false;
    std::uint32_t pendingThread_ = 0;
    std::unordered_map<std::uint32_t, std::size_t> heldBranchOf_; ///< thread → index in held_
    std::size_t heldBase_ = 0; ///< absolute index of held_.front()
    std::uint32_t thread_ = 1;
    bool inRegion_ = false;
    std::uint64_t totalInstructions_ = 0;
    int exitCode_ = 0;
    std::uint64_t recordsWritten_ = 0;
    std::uint32_t regionsCompleted_ = 0;
    bool lastRegionTruncated_ = false;
    std::uint64_t unresolvedBranches_ = 0;
    std::uint64_t droppedOperands_ = 0;
};

} // namespace concorde
