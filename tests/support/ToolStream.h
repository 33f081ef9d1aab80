#pragma once
// Writes a ctrace tool stream (core/trace/TracerProtocol.h) in memory, frame by frame, as the
// Valgrind tool would: tests of the stream decoder need streams with threads, signals and
// clipped regions that a real program gives only by chance.

#include "trace/TracerProtocol.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace concorde::testing {

class ToolStream {
public:
    struct Slot {
        std::uint8_t kind = CTP_MEM_LOAD; ///< CTP_MEM_LOAD or CTP_MEM_STORE
        std::uint16_t size = 8;
    };

    ToolStream() {
        bytes_.insert(bytes_.end(), CTP_MAGIC, CTP_MAGIC + CTP_MAGIC_BYTES);
        putU32(CTP_VERSION);
        const std::string argv = std::string("prog") + '\0';
        putU32(CTP_STREAM_HEADER_FIXED + static_cast<std::uint32_t>(argv.size()));
        putU32(CTP_ISA_AMD64);
        putU32(1); // pid
        for (int i = 0; i < 4; ++i)
            putU64(0); // skip, warmup, length, interval
        putU32(0);     // regions
        putU32(static_cast<std::uint32_t>(argv.size()));
        bytes_.insert(bytes_.end(), argv.begin(), argv.end());
    }

    /// One STATIC frame with one descriptor; returns its id.
    std::uint32_t defineStatic(std::uint64_t pc, std::uint8_t size, std::uint8_t branchKind,
                               std::uint64_t target, std::vector<std::uint8_t> sources,
                               std::vector<std::uint8_t> destinations,
                               std::vector<Slot> memorySlots) {
        const std::uint32_t id = nextId_++;
        std::vector<unsigned char> d;
        put(d, id, 4);
        d.push_back(size);
        d.push_back(branchKind == CTP_BRANCH_NONE ? CTP_CLASS_INT_ALU : CTP_CLASS_BRANCH);
        d.push_back(branchKind);
        d.push_back(target == 0 && branchKind != CTP_BRANCH_NONE ? CTP_SF_TARGET_DYNAMIC : 0);
        put(d, pc, 8);
        put(d, target, 8);
        d.push_back(static_cast<unsigned char>(sources.size()));
        d.push_back(static_cast<unsigned char>(destinations.size()));
        d.push_back(static_cast<unsigned char>(memorySlots.size()));
        d.insert(d.end(), 5, 0);
        d.insert(d.end(), sources.begin(), sources.end());
        d.insert(d.end(), destinations.begin(), destinations.end());
        for (const Slot& s : memorySlots) {
            d.push_back(s.kind);
            d.push_back(0);
            put(d, s.size, 2);
        }
        frame(CTP_FRAME_STATIC, d);
        slotCounts_.push_back(memorySlots.size());
        return id;
    }

    /// Appends one record (static id and one address per slot, 0 = not performed) to the
    /// RECORDS frame being built.
    void record(std::uint32_t id, const std::vector<std::uint64_t>& addresses) {
        put(pending_, id, 4);
        for (std::size_t i = 0; i < slotCounts_.at(id); ++i)
            put(pending_, i < addresses.size() ? addresses[i] : 0, 8);
        ++pendingCount_;
        ++index_;
    }
    /// Closes the RECORDS frame being built (every other frame does so first).
    void flushRecords() {
        if (pendingCount_ == 0)
            return;
        std::vector<unsigned char> p;
        put(p, index_ - pendingCount_, 8);
        put(p, pendingCount_, 4);
        put(p, 0, 4);
        p.insert(p.end(), pending_.begin(), pending_.end());
        pending_.clear();
        pendingCount_ = 0;
        frame(CTP_FRAME_RECORDS, p);
    }

    void beginRegion(std::uint32_t region, std::uint64_t warmup) {
        std::vector<unsigned char> p;
        put(p, region, 4);
        put(p, 0, 4);
        put(p, index_, 8);
        put(p, index_ + warmup, 8);
        put(p, warmup, 8);
        put(p, 0, 8);
        frame(CTP_FRAME_REGION_BEGIN, p);
    }
    void endRegion(std::uint32_t region, std::uint64_t nextPc) {
        std::vector<unsigned char> p;
        put(p, region, 4);
        put(p, 0, 4);
        put(p, 0, 8);
        put(p, 0, 8);
        put(p, nextPc, 8);
        put(p, 0, 4);
        put(p, 0, 4);
        frame(CTP_FRAME_REGION_END, p);
    }
    void thread(std::uint32_t tid) {
        std::vector<unsigned char> p;
        put(p, tid, 4);
        put(p, 0, 4);
        frame(CTP_FRAME_THREAD, p);
    }
    void discontinuity(std::uint64_t resumePc) {
        std::vector<unsigned char> p;
        put(p, CTP_DISC_SIGNAL, 4);
        put(p, 10, 4);
        put(p, resumePc, 8);
        frame(CTP_FRAME_DISCONTINUITY, p);
    }
    void end() {
        std::vector<unsigned char> p;
        put(p, index_, 8);
        put(p, 0, 4);
        put(p, 0, 4);
        put(p, 0, 4);
        put(p, 0, 4);
        frame(CTP_FRAME_END, p);
    }

    const std::vector<unsigned char>& bytes() {
        flushRecords();
        return bytes_;
    }

private:
    static void put(std::vector<unsigned char>& out, std::uint64_t value, int bytes) {
        for (int i = 0; i < bytes; ++i)
            out.push_back(static_cast<unsigned char>(value >> (8 * i)));
    }
    void putU32(std::uint32_t v) { put(bytes_, v, 4); }
    void putU64(std::uint64_t v) { put(bytes_, v, 8); }
    void frame(std::uint32_t type, const std::vector<unsigned char>& payload) {
        if (type != CTP_FRAME_RECORDS)
            flushRecords();
        putU32(type);
        putU32(static_cast<std::uint32_t>(payload.size()));
        bytes_.insert(bytes_.end(), payload.begin(), payload.end());
    }

    std::vector<unsigned char> bytes_;
    std::vector<unsigned char> pending_;
    std::uint32_t pendingCount_ = 0;
    std::uint64_t index_ = 0;
    std::uint32_t nextId_ = 0;
    std::vector<std::size_t> slotCounts_;
};

} // namespace concorde::testing
