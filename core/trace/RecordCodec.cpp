#include "trace/RecordCodec.h"

#include "trace/ArchReg.h"

namespace concorde {
namespace {

unsigned char* putVarint(unsigned char* out, std::uint64_t value) {
    while (value >= 0x80) {
        *out++ = static_cast<unsigned char>(value | 0x80);
        value >>= 7;
    }
    *out++ = static_cast<unsigned char>(value);
    return out;
}

unsigned char* putSigned(unsigned char* out, std::uint64_t from, std::uint64_t to) {
    const auto delta = static_cast<std::int64_t>(to - from);
    return putVarint(out, (static_cast<std::uint64_t>(delta) << 1) ^
                              static_cast<std::uint64_t>(delta >> 63));
}

// Longest encoding of one record: 4 head bytes, PC and target varints, registers, and for each
// memory access an address varint plus a size varint.
constexpr std::size_t kMaxRecordBytes = 4 + 10 + 10 + TraceRecord::kMaxSources +
                                        TraceRecord::kMaxDestinations +
                                        (TraceRecord::kMaxLoads + TraceRecord::kMaxStores) * 13;

bool getVarint(const unsigned char*& cursor, const unsigned char* end, std::uint64_t& value) {
    value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (cursor == end)
            return false;
        const unsigned char byte = *cursor++;
        value |= static_cast<std::uint64_t>(byte & 0x7F) << shift;
        if ((byte & 0x80) == 0)
            return true;
    }
    return false; // more than 10 bytes: not a varint we wrote
}

bool getSigned(const unsigned char*& cursor, const unsigned char* end, std::uint64_t base,
               std::uint64_t& value) {
    std::uint64_t zigzag = 0;
    if (!getVarint(cursor, end, zigzag))
        return false;
    const auto delta =
        static_cast<std::int64_t>(zigzag >> 1) ^ -static_cast<std::int64_t>(zigzag & 1);
    value = base + static_cast<std::uint64_t>(delta);
    return true;
}

} // namespace

void RecordCodec::reset() {
    expectedPc_ = 0;
    lastLoad_ = 0;
    lastStore_ = 0;
}

void RecordCodec::encode(const TraceRecord& r, std::vector<unsigned char>& out) {
    // Write through a pointer into reserved space: this runs once per traced instruction.
    const std::size_t used = out.size();
    out.resize(used + kMaxRecordBytes);
    unsigned char* p = out.data() + used;
    *p++ = static_cast<unsigned char>(static_cast<unsigned>(r.instrClass) |
                                      (static_cast<unsigned>(r.branchKind) << 4) |
                                      (r.taken ? 0x80U : 0U));
    *p++ = r.size;
    *p++ = static_cast<unsigned char>(r.sourceCount | (r.destinationCount << 4));
    *p++ = static_cast<unsigned char>(r.loadCount | (r.storeCount << 4));
    p = putSigned(p, expectedPc_, r.pc);
    if (r.isBranch())
        p = putSigned(p, r.pc, r.branchTarget);
    for (std::size_t i = 0; i < r.sourceCount; ++i)
        *p++ = r.sources[i];
    for (std::size_t i = 0; i < r.destinationCount; ++i)
        *p++ = r.destinations[i];
    for (std::size_t i = 0; i < r.loadCount; ++i) {
        p = putSigned(p, lastLoad_, r.loads[i].address);
        p = putVarint(p, r.loads[i].size);
        lastLoad_ = r.loads[i].address;
    }
    for (std::size_t i = 0; i < r.storeCount; ++i) {
        p = putSigned(p, lastStore_, r.stores[i].address);
        p = putVarint(p, r.stores[i].size);
        lastStore_ = r.stores[i].address;
    }
    out.resize(static_cast<std::size_t>(p - out.data()));
    expectedPc_ = r.nextPc();
}

bool RecordCodec::decode(const unsigned char*& cursor, const unsigned char* end, TraceRecord& r) {
    if (end - cursor < 4)
        return false;
    const unsigned head = cursor[0];
    const unsigned classBits = head & 0x0F;
    const unsigned kindBits = (head >> 4) & 0x07;
    if (classBits >= kInstrClassCount || kindBits >= kBranchKindCount)
        return false;
    r.instrClass = static_cast<InstrClass>(classBits);
    r.branchKind = static_cast<BranchKind>(kindBits);
    r.taken = (head & 0x80) != 0;
    r.size = cursor[1];
    r.sourceCount = cursor[2] & 0x0F;
    r.destinationCount = cursor[2] >> 4;
    r.loadCount = cursor[3] & 0x0F;
    r.storeCount = cursor[3] >> 4;
    cursor += 4;
    if (r.sourceCount > TraceRecord::kMaxSources ||
        r.destinationCount > TraceRecord::kMaxDestinations ||
        r.loadCount > TraceRecord::kMaxLoads || r.storeCount > TraceRecord::kMaxStores)
        return false;
    if (r.taken && !r.isBranch())
        return false;
    if (!getSigned(cursor, end, expectedPc_, r.pc))
        return false;
    r.branchTarget = 0;
    if (r.isBranch() && !getSigned(cursor, end, r.pc, r.branchTarget))
        return false;
    if (end - cursor < r.sourceCount + r.destinationCount)
        return false;
    for (std::size_t i = 0; i < r.sourceCount; ++i)
        if (!ArchReg::isValid(r.sources[i] = *cursor++))
            return false;
    for (std::size_t i = 0; i < r.destinationCount; ++i)
        if (!ArchReg::isValid(r.destinations[i] = *cursor++))
            return false;
    std::uint64_t size = 0;
    for (std::size_t i = 0; i < r.loadCount; ++i) {
        if (!getSigned(cursor, end, lastLoad_, r.loads[i].address) ||
            !getVarint(cursor, end, size) || size > 0xFFFF)
            return false;
        r.loads[i].size = static_cast<std::uint16_t>(size);
        lastLoad_ = r.loads[i].address;
    }
    for (std::size_t i = 0; i < r.storeCount; ++i) {
        if (!getSigned(cursor, end, lastStore_, r.stores[i].address) ||
            !getVarint(cursor, end, size) || size > 0xFFFF)
            return false;
        r.stores[i].size = static_cast<std::uint16_t>(size);
        lastStore_ = r.stores[i].address;
    }
    expectedPc_ = r.nextPc();
    return true;
}

} // namespace concorde
