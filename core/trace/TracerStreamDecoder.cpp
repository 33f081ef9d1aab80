#include "trace/TracerStreamDecoder.h"

#include "common/ConcordeError.h"
#include "trace/RecordSink.h"
#include "trace/TracerProtocol.h"

#include <algorithm>
#include <cstring>

namespace concorde {
namespace {

// A frame larger than this is not something the tool writes: the stream is corrupt.
constexpr std::uint32_t kMaxFramePayload = 256u << 20;
// Functional records handed to the sink at a time: large enough to make the call rare, small
// enough for the batch to stay in the CPU's caches.
constexpr std::size_t kBatchRecords = 4096;
// Bytes of a new feed joined to an unfinished record or frame: more than any record's.
constexpr std::size_t kJoinBytes = 4096;

// A conditional branch is taken when control did not fall through; every other kind always
// is. Where control went is the target (for a not-taken conditional, the static target stays).
template <class Record>
void resolveOutcomeOf(Record& r, std::uint64_t nextPc) {
    r.taken = r.branchKind != BranchKind::DirectConditional || nextPc != r.pc + r.size;
    if (r.taken)
        r.branchTarget = nextPc;
}

} // namespace

TracerStreamDecoder::TracerStreamDecoder(RecordSink& sink) : sink_(sink) {
    batch_.reserve(kBatchRecords);
    batchAccesses_.reserve(kBatchRecords * (TraceRecord::kMaxLoads + TraceRecord::kMaxStores));
}

void TracerStreamDecoder::fail(const std::string& problem) const {
    throw badInput("tracer stream: " + problem + " (at stream byte " +
                   std::to_string(streamOffset_ + consumed_) + ")");
}

void TracerStreamDecoder::feed(const unsigned char* data, std::size_t size) {
    if (complete_ && size > 0)
        fail("data after the END frame");
    if (consumed_ > 0) {
        buffer_.erase(buffer_.begin(), buffer_.begin() + static_cast<long>(consumed_));
        streamOffset_ += consumed_;
        consumed_ = 0;
    }
    // The bytes are decoded where they are; only a frame or record left unfinished at the end
    // of a call is kept, and completed from the start of the next call's bytes. Copying every
    // byte into the buffer first cost a gigabyte of copies per functional warm-up trace.
    std::size_t used = 0; // of data
    if (!buffer_.empty()) {
        const std::size_t old = buffer_.size();
        const std::size_t joined = std::min(size, kJoinBytes);
        buffer_.insert(buffer_.end(), data, data + joined);
        decodeBuffer();
        if (consumed_ < old) {
            // A frame longer than the joined bytes (static descriptors, a basic-block vector):
            // gather it whole.
            buffer_.insert(buffer_.end(), data + joined, data + size);
            decodeBuffer();
            return;
        }
        used = consumed_ - old;
        streamOffset_ += consumed_;
        buffer_.clear();
        consumed_ = 0;
    }
    view_ = data + used;
    viewSize_ = size - used;
    decodeView();
    buffer_.assign(view_ + consumed_, view_ + viewSize_);
    streamOffset_ += consumed_;
    consumed_ = 0;
    view_ = buffer_.data();
    viewSize_ = buffer_.size();
}

void TracerStreamDecoder::decodeBuffer() {
    view_ = buffer_.data();
    viewSize_ = buffer_.size();
    decodeView();
}

void TracerStreamDecoder::decodeView() {
    if (!headerDone_) {
        if (viewSize_ < CTP_STREAM_HEADER_FIXED)
            return;
        const std::uint32_t headerBytes = ctp_get_u32(view_ + 12);
        if (viewSize_ < headerBytes)
            return;
        parseHeader();
    }
    for (;;) {
        if (inRecordsFrame_) {
            // A RECORDS frame is decoded as its bytes arrive, record by record: the buffer then
            // stays about one pipe read long and is decoded while it is still in the caches.
            const std::uint32_t available = static_cast<std::uint32_t>(
                std::min<std::size_t>(viewSize_ - consumed_, recordsPayloadLeft_));
            std::uint32_t used = 0;
            if (recordsLeft_ > 0)
                used = parseRecords(view_ + consumed_, available, available == recordsPayloadLeft_);
            if (recordsLeft_ == 0)
                used = available; // bytes after the last record are skipped
            consumed_ += used;
            recordsPayloadLeft_ -= used;
            if (recordsLeft_ > 0 || recordsPayloadLeft_ > 0)
                return; // wait for the rest of the frame
            inRecordsFrame_ = false;
        }
        if (viewSize_ - consumed_ < CTP_FRAME_HEADER_BYTES)
            return;
        const unsigned char* frame = view_ + consumed_;
        const std::uint32_t type = ctp_get_u32(frame);
        const std::uint32_t payload = ctp_get_u32(frame + 4);
        if (payload > kMaxFramePayload)
            fail("frame of " + std::to_string(payload) + " bytes");
        if (type == CTP_FRAME_RECORDS) {
            if (payload < CTP_RECORDS_PREFIX)
                fail("short RECORDS frame");
            if (viewSize_ - consumed_ < CTP_FRAME_HEADER_BYTES + CTP_RECORDS_PREFIX)
                return; // wait for the prefix
            recordsLeft_ = ctp_get_u32(frame + CTP_FRAME_HEADER_BYTES + 8);
            recordsPayloadLeft_ = payload - CTP_RECORDS_PREFIX;
            consumed_ += CTP_FRAME_HEADER_BYTES + CTP_RECORDS_PREFIX;
            inRecordsFrame_ = true;
            if (recordsLeft_ == 0)
                flushBatch(true); // as at the end of any RECORDS frame
            continue;
        }
        if (viewSize_ - consumed_ < CTP_FRAME_HEADER_BYTES + payload)
            return; // wait for the rest of the frame
        parseFrame(type, frame + CTP_FRAME_HEADER_BYTES, payload);
        consumed_ += CTP_FRAME_HEADER_BYTES + payload;
    }
}

void TracerStreamDecoder::parseHeader() {
    const unsigned char* h = view_;
    if (std::memcmp(h, CTP_MAGIC, CTP_MAGIC_BYTES) != 0)
        fail("not a ctrace tool stream (bad magic)");
    if (ctp_get_u32(h + 8) != CTP_VERSION)
        fail("tool stream version " + std::to_string(ctp_get_u32(h + 8)) + ", expected " +
             std::to_string(CTP_VERSION));
    if (ctp_get_u32(h + 16) != CTP_ISA_AMD64)
        fail("unsupported ISA in tool stream");
    const std::uint32_t headerBytes = ctp_get_u32(h + 12);
    const std::uint32_t cmdlineBytes = ctp_get_u32(h + 60);
    if (headerBytes < CTP_STREAM_HEADER_FIXED ||
        CTP_STREAM_HEADER_FIXED + cmdlineBytes > headerBytes)
        fail("malformed stream header");
    for (std::uint32_t i = 0; i < cmdlineBytes; ++i) {
        const char c = static_cast<char>(h[CTP_STREAM_HEADER_FIXED + i]);
        if (c == '\0') {
            if (i + 1 < cmdlineBytes)
                commandLine_ += ' ';
        } else {
            commandLine_ += c;
        }
    }
    consumed_ = headerBytes;
    headerDone_ = true;
}

void TracerStreamDecoder::parseFrame(std::uint32_t type, const unsigned char* p,
                                     std::uint32_t size) {
    if (type != CTP_FRAME_RECORDS && type != CTP_FRAME_STATIC)
        spillPending(); // every other frame works on the general queue
    switch (type) {
    case CTP_FRAME_STATIC:
        parseStatic(p, size);
        break;
    case CTP_FRAME_REGION_BEGIN: {
        if (size < CTP_REGION_BEGIN_BYTES)
            fail("short REGION_BEGIN frame");
        resolveAll(); // nothing from before the region may be written into it
        release();
        sink_.beginRegion(ctp_get_u64(p + 16), ctp_get_u64(p + 24));
        inRegion_ = true;
        functionalLeft_ = sink_.functionalRecordsWanted();
        break;
    }
    case CTP_FRAME_REGION_END: {
        if (size < CTP_REGION_END_FIXED)
            fail("short REGION_END frame");
        const std::uint32_t flags = ctp_get_u32(p + 4);
        const std::uint64_t nextPc = ctp_get_u64(p + 24);
        const std::uint32_t entries = ctp_get_u32(p + 32);
        if (size < CTP_REGION_END_FIXED + std::uint64_t(entries) * CTP_BBV_ENTRY_BYTES)
            fail("REGION_END frame shorter than its basic-block vector");
        if (nextPc != 0)
            resolveThread(thread_, nextPc);
        resolveAll();
        release();
        std::vector<std::pair<std::uint64_t, std::uint64_t>> bbv(entries);
        for (std::uint32_t i = 0; i < entries; ++i) {
            const unsigned char* e = p + CTP_REGION_END_FIXED + i * CTP_BBV_ENTRY_BYTES;
            bbv[i] = {ctp_get_u64(e), ctp_get_u64(e + 8)};
        }
        if (inRegion_) {
            sink_.setBasicBlockVector(std::move(bbv));
            sink_.endRegion();
        }
        inRegion_ = false;
        functionalLeft_ = 0;
        lastRegionTruncated_ = (flags & CTP_RF_TRUNCATED) != 0;
        ++regionsCompleted_;
        break;
    }
    case CTP_FRAME_THREAD:
        if (size < CTP_THREAD_BYTES)
            fail("short THREAD frame");
        thread_ = ctp_get_u32(p);
        break;
    case CTP_FRAME_DISCONTINUITY:
        if (size < CTP_DISCONTINUITY_BYTES)
            fail("short DISCONTINUITY frame");
        resolveThread(thread_, ctp_get_u64(p + 8));
        release();
        break;
    case CTP_FRAME_END:
        if (size < CTP_END_BYTES)
            fail("short END frame");
        totalInstructions_ = ctp_get_u64(p);
        exitCode_ = static_cast<std::int32_t>(ctp_get_u32(p + 8));
        complete_ = true;
        break;
    default:
        break; // unknown frames are skipped by design
    }
}

void TracerStreamDecoder::parseStatic(const unsigned char* p, std::uint32_t size) {
    std::uint32_t offset = 0;
    while (offset < size) {
        if (size - offset < CTP_STATIC_FIXED || size - offset < ctp_static_size(p + offset))
            fail("truncated static descriptor");
        const unsigned char* d = p + offset;
        const std::uint32_t id = ctp_get_u32(d);
        if (id > statics_.size() + (1u << 20))
            fail("static id " + std::to_string(id) + " out of sequence");
        if (id >= statics_.size()) {
            statics_.resize(id + 1);
            compact_.resize(id + 1);
            compactTargets_.resize(id + 1);
        }
        if (batchBranchPending_ && id == batchPendingId_)
            leaveFastPath(); // the waiting branch keeps the descriptor it was recorded with
        StaticInstr& s = statics_[id];
        s = StaticInstr{};
        s.defined = true;
        TraceRecord& r = s.templ;
        r.size = d[4];
        if (d[5] >= CTP_CLASS_COUNT || d[6] >= CTP_BRANCH_COUNT)
            fail("static descriptor with an invalid class or branch kind");
        r.instrClass = static_cast<InstrClass>(d[5]);
        r.branchKind = static_cast<BranchKind>(d[6]);
        r.pc = ctp_get_u64(d + 8);
        r.branchTarget = ctp_get_u64(d + 16);
        const std::uint32_t nsrc = d[24];
        const std::uint32_t ndst = d[25];
        const std::uint32_t nmem = d[26];
        const unsigned char* regs = d + CTP_STATIC_FIXED;
        for (std::uint32_t i = 0; i < nsrc; ++i)
            if (regs[i] != CTP_REG_RIP && regs[i] < CTP_REG_COUNT && !r.addSource(regs[i]))
                ++droppedOperands_;
        for (std::uint32_t i = 0; i < ndst; ++i)
            if (regs[nsrc + i] != CTP_REG_RIP && regs[nsrc + i] < CTP_REG_COUNT &&
                !r.addDestination(regs[nsrc + i]))
                ++droppedOperands_;
        const unsigned char* slots = regs + nsrc + ndst;
        for (std::uint32_t i = 0; i < nmem; ++i) {
            s.slotKinds.push_back(slots[4 * i]);
            s.slotSizes.push_back(ctp_get_u16(slots + 4 * i + 2));
        }
        std::uint8_t flags = kDefined;
        std::uint32_t loads = 0, stores = 0;
        bool ordered = true;
        for (std::uint32_t i = 0; i < nmem; ++i) {
            if (s.slotKinds[i] == CTP_MEM_STORE)
                ++stores;
            else if (stores > 0)
                ordered = false; // a load after a store
            else
                ++loads;
        }
        if (ordered && loads <= TraceRecord::kMaxLoads && stores <= TraceRecord::kMaxStores)
            flags |= kOrdered;
        const std::uint32_t shift = FunctionalRecord::kFollowerLineShift;
        if (nmem == 0 && r.branchKind == BranchKind::None &&
            r.pc >> shift == (r.pc + std::max<std::uint32_t>(r.size, 1) - 1) >> shift)
            flags |= kPlain;
        CompactStatic& c = compact_[id];
        c.pc = r.pc;
        compactTargets_[id] = r.branchTarget;
        c.size = r.size;
        c.branchKind = r.branchKind;
        c.slotCount = static_cast<std::uint8_t>(nmem);
        const auto packedSlot = [&s](std::uint32_t i) {
            return std::uint32_t{s.slotKinds[i]} << 16 | s.slotSizes[i];
        };
        if (nmem == 1) {
            flags |= kSingleSlot;
            c.slotInfo = packedSlot(0);
        } else {
            c.slotInfo = static_cast<std::uint32_t>(compactSlots_.size());
            for (std::uint32_t i = 0; i < nmem; ++i)
                compactSlots_.push_back(packedSlot(i));
        }
        c.flags = flags;
        offset += ctp_static_size(d);
    }
}

std::uint32_t TracerStreamDecoder::parseRecords(const unsigned char* p, std::uint32_t size,
                                                bool frameEnds) {
    const std::uint32_t count = recordsLeft_;
    std::uint32_t offset = 0;
    std::uint32_t k = 0;
    for (; k < count; ++k) {
        if (held_.empty() && !hasPending_ && batchInstructions_ < functionalLeft_) {
            k = batchRecords(p, size, offset, k, count);
            if (k == count || !recordComplete(p, size, offset, frameEnds))
                break;
        }
        if (!recordComplete(p, size, offset, frameEnds))
            break;
        const std::uint32_t id = ctp_get_u32(p + offset);
        const CompactStatic& c = compact_[id];
        offset += 4;
        const std::uint32_t addressBytes = 8u * c.slotCount;
        if (held_.empty() && !hasPending_) {
            if (!batch_.empty()) {
                // The sink wants this record in full: the batch goes first, its last branch
                // resolved by this record.
                if (batchBranchPending_)
                    resolveOutcomeOf(batch_.back(), c.pc);
                batchBranchPending_ = false;
                flushBatch(false);
            }
        }
        const StaticInstr& s = statics_[id];
        TraceRecord r = s.templ;
        for (std::size_t slot = 0; slot < s.slotKinds.size(); ++slot) {
            const std::uint64_t address = ctp_get_u64(p + offset + 8 * slot);
            if (address == 0)
                continue; // not performed this time (guarded access, rep with rcx = 0)
            const bool ok = s.slotKinds[slot] == CTP_MEM_STORE
                                ? r.addStore(address, s.slotSizes[slot])
                                : r.addLoad(address, s.slotSizes[slot]);
            droppedOperands_ += ok ? 0 : 1;
        }
        offset += addressBytes;

        if (hasPending_) {
            if (held_.empty() && pendingThread_ == thread_) {
                // This record is the pending branch's successor: it tells where it went.
                resolveOutcome(pending_, r.pc);
                hasPending_ = false;
                sink_.append(pending_);
                appended();
            } else {
                spillPending();
            }
        }
        // This record tells where the previous branch of its thread went.
        if (!heldBranchOf_.empty()) {
            resolveThread(thread_, r.pc);
            release();
        }
        if (held_.empty()) {
            // Fast path (almost every record of a single-threaded program): nothing is waiting,
            // so a record that needs no successor goes straight to the sink, and a branch waits
            // in the single slot for the next record.
            if (!inRegion_)
                fail("instruction record outside any region");
            if (!r.isBranch()) {
                sink_.append(r);
                appended();
            } else {
                pending_ = r;
                pendingThread_ = thread_;
                hasPending_ = true;
            }
            continue;
        }
        const bool needsNextPc = r.isBranch();
        held_.push_back({r, thread_, !needsNextPc});
        if (needsNextPc)
            heldBranchOf_[thread_] = heldBase_ + held_.size() - 1;
        if (held_.size() > kMaxHeldRecords) {
            // A thread stayed descheduled too long: give up on its branch's outcome.
            Held& oldest = held_.front();
            if (!oldest.resolved) {
                oldest.resolved = true;
                ++unresolvedBranches_;
                heldBranchOf_.erase(oldest.thread);
            }
        }
        release();
    }
    recordsLeft_ = count - k;
    if (recordsLeft_ == 0)
        flushBatch(true);
    return offset;
}

bool TracerStreamDecoder::recordComplete(const unsigned char* p, std::uint32_t size,
                                         std::uint32_t offset, bool frameEnds) {
    if (size - offset < 4) {
        if (frameEnds)
            fail("RECORDS frame shorter than its count");
        return false;
    }
    const std::uint32_t id = ctp_get_u32(p + offset);
    if (id >= compact_.size() || !(compact_[id].flags & kDefined))
        fail("record refers to undefined static instruction " + std::to_string(id));
    if (size - offset - 4 < 8u * compact_[id].slotCount) {
        if (frameEnds)
            fail("RECORDS frame ends inside a record");
        return false;
    }
    return true;
}

std::uint32_t TracerStreamDecoder::batchRecords(const unsigned char* p, std::uint32_t size,
                                                std::uint32_t& offsetRef, std::uint32_t k,
                                                std::uint32_t count) {
    // One tight loop over the frame's records while the sink wants them compactly: this runs
    // for every instruction of every functional warm-up.
    const CompactStatic* statics = compact_.data();
    const std::size_t staticCount = compact_.size();
    constexpr std::uint32_t shift = FunctionalRecord::kFollowerLineShift;
    // The line a follower of the batch's last record must be in (kNoFollowers: it takes none).
    const auto followerLineOf = [](const FunctionalRecord& last) {
        return last.isBranch() || last.followers == FunctionalRecord::kMaxFollowers
                   ? kNoFollowers
                   : (last.pc + std::max<std::uint32_t>(last.size, 1) - 1) >> shift;
    };
    std::uint64_t followerLine = batch_.empty() ? kNoFollowers : followerLineOf(batch_.back());
    // A local copy: through the reference, every record's offset went through memory.
    std::uint32_t offset = offsetRef;
    for (; k < count && batchInstructions_ < functionalLeft_; ++k) {
        if (size - offset < 4)
            break; // the caller tells an incomplete record from a truncated frame
        const std::uint32_t id = ctp_get_u32(p + offset);
        if (id >= staticCount || !(statics[id].flags & kDefined))
            fail("record refers to undefined static instruction " + std::to_string(id));
        const CompactStatic& c = statics[id];
        if (c.pc >> shift == followerLine && (c.flags & kPlain)) {
            offset += 4;
            // A follower of the previous record: that is no branch and ends in this line.
            if (++batch_.back().followers == FunctionalRecord::kMaxFollowers)
                followerLine = kNoFollowers;
            ++batchInstructions_;
            continue;
        }
        // Where the next record starts follows from this descriptor. Computed as
        // 4 + 8 * slotCount, each record's two dependent loads (its id, then its descriptor)
        // wait for the previous record's; as separate paths for no slot and one ordered slot,
        // predicted branches, the next id is loaded before this descriptor has arrived.
        const unsigned char* addresses = p + offset + 4;
        if (c.slotCount == 0) {
            offset += 4;
        } else if (c.slotCount == 1 && (c.flags & kOrdered)) {
            if (size - offset - 4 < 8)
                break;
            offset += 12;
        } else {
            const std::uint32_t addressBytes = 8u * c.slotCount;
            if (size - offset - 4 < addressBytes)
                break;
            offset += 4 + addressBytes;
        }
        if (batchBranchPending_)
            resolveOutcomeOf(batch_.back(), c.pc);
        // Filled in place: a record built on the stack and copied in is read back in 16-byte
        // pieces over its byte-sized fields, which defeats store forwarding.
        FunctionalRecord& f = batch_.emplace_back();
        f.pc = c.pc;
        f.branchTarget = c.branchKind == BranchKind::None ? 0 : compactTargets_[id];
        f.size = c.size;
        f.branchKind = c.branchKind;
        f.firstAccess = static_cast<std::uint32_t>(batchAccesses_.size());
        if (c.slotCount > 0) {
            if (c.flags & kOrdered) {
                // Loads then stores in slot order, never more than a record keeps.
                const std::uint32_t* slots = slotsOf(c);
                for (std::uint32_t slot = 0; slot < c.slotCount; ++slot) {
                    const std::uint64_t address = ctp_get_u64(addresses + 8 * slot);
                    if (address == 0)
                        continue; // not performed (guarded access, rep with rcx = 0)
                    batchAccesses_.push_back(
                        {address, static_cast<std::uint16_t>(slots[slot] & 0xffff)});
                    if ((slots[slot] >> 16) == CTP_MEM_STORE)
                        ++f.storeCount;
                    else
                        ++f.loadCount;
                }
            } else {
                batchUnorderedAccesses(c, addresses, f);
            }
        }
        ++batchInstructions_;
        batchBranchPending_ = f.isBranch();
        batchPendingId_ = id;
        followerLine = batchBranchPending_
                           ? kNoFollowers
                           : (c.pc + std::max<std::uint32_t>(c.size, 1) - 1) >> shift;
        if (batch_.size() >= kBatchRecords) {
            flushBatch(true);
            followerLine = kNoFollowers; // empty, or a branch waiting for its successor
        }
    }
    offsetRef = offset;
    return k;
}

void TracerStreamDecoder::batchUnorderedAccesses(const CompactStatic& c, const unsigned char* p,
                                                 FunctionalRecord& f) {
    // Loads then stores, each in slot order and as many as a TraceRecord keeps.
    const std::uint32_t* slots = slotsOf(c);
    for (const bool stores : {false, true}) {
        std::uint8_t& kept = stores ? f.storeCount : f.loadCount;
        const std::size_t capacity = stores ? TraceRecord::kMaxStores : TraceRecord::kMaxLoads;
        for (std::uint32_t slot = 0; slot < c.slotCount; ++slot) {
            if (((slots[slot] >> 16) == CTP_MEM_STORE) != stores)
                continue;
            const std::uint64_t address = ctp_get_u64(p + 8 * slot);
            if (address == 0)
                continue;
            if (kept == capacity) {
                ++droppedOperands_;
                continue;
            }
            batchAccesses_.push_back({address, static_cast<std::uint16_t>(slots[slot] & 0xffff)});
            ++kept;
        }
    }
}

void TracerStreamDecoder::flushBatch(bool keepPendingBranch) {
    const bool keep = keepPendingBranch && batchBranchPending_;
    const std::size_t handed = batch_.size() - (keep ? 1 : 0);
    if (handed == 0)
        return;
    const std::size_t accesses = keep ? batch_.back().firstAccess : batchAccesses_.size();
    sink_.appendFunctional(std::span<const FunctionalRecord>(batch_.data(), handed),
                           std::span<const MemoryAccess>(batchAccesses_.data(), accesses));
    // A kept branch has no followers: it stands for one instruction.
    recordsWritten_ += batchInstructions_ - (keep ? 1 : 0);
    functionalLeft_ = sink_.functionalRecordsWanted();
    if (!keep) {
        batch_.clear();
        batchAccesses_.clear();
        batchInstructions_ = 0;
        batchBranchPending_ = false;
        return;
    }
    FunctionalRecord last = batch_.back();
    batchAccesses_.erase(batchAccesses_.begin(), batchAccesses_.begin() + last.firstAccess);
    last.firstAccess = 0;
    batch_.assign(1, last);
    batchInstructions_ = 1;
}

void TracerStreamDecoder::leaveFastPath() {
    flushBatch(true);
    if (!batchBranchPending_)
        return;
    // The batch is one branch still waiting for its successor: it waits on the general path.
    const FunctionalRecord& f = batch_.front();
    TraceRecord r = statics_[batchPendingId_].templ;
    for (std::uint8_t i = 0; i < f.loadCount; ++i)
        r.addLoad(batchAccesses_[i].address, batchAccesses_[i].size);
    for (std::uint8_t i = 0; i < f.storeCount; ++i)
        r.addStore(batchAccesses_[f.loadCount + i].address, batchAccesses_[f.loadCount + i].size);
    batch_.clear();
    batchAccesses_.clear();
    batchInstructions_ = 0;
    batchBranchPending_ = false;
    pending_ = r;
    pendingThread_ = thread_;
    hasPending_ = true;
}

void TracerStreamDecoder::appended() {
    ++recordsWritten_;
    if (functionalLeft_ > 0)
        functionalLeft_ = sink_.functionalRecordsWanted();
}

void TracerStreamDecoder::resolveThread(std::uint32_t thread, std::uint64_t nextPc) {
    const auto it = heldBranchOf_.find(thread);
    if (it == heldBranchOf_.end())
        return;
    Held& held = held_[it->second - heldBase_];
    resolveOutcome(held.record, nextPc);
    held.resolved = true;
    heldBranchOf_.erase(it);
}

void TracerStreamDecoder::resolveOutcome(TraceRecord& r, std::uint64_t nextPc) {
    resolveOutcomeOf(r, nextPc);
}

void TracerStreamDecoder::spillPending() {
    leaveFastPath();
    if (!hasPending_)
        return;
    // held_ is empty whenever the slot is used, so the branch keeps its place in order.
    held_.push_back({pending_, pendingThread_, false});
    heldBranchOf_[pendingThread_] = heldBase_ + held_.size() - 1;
    hasPending_ = false;
}

void TracerStreamDecoder::resolveAll() {
    for (auto& [thread, index] : heldBranchOf_) {
        Held& held = held_[index - heldBase_];
        held.resolved = true;
        held.record.taken = held.record.branchKind != BranchKind::DirectConditional;
        ++unresolvedBranches_;
    }
    heldBranchOf_.clear();
}

void TracerStreamDecoder::release() {
    while (!held_.empty() && held_.front().resolved) {
        if (!inRegion_)
            fail("instruction record outside any region");
        sink_.append(held_.front().record);
        appended();
        held_.pop_front();
        ++heldBase_;
    }
}

void TracerStreamDecoder::finish() {
    if (!headerDone_)
        fail("the stream ended before its header");
    if (buffer_.size() > consumed_ || inRecordsFrame_)
        fail("the stream ended inside a frame");
    spillPending();
    resolveAll();
    release();
}

} // namespace concorde
