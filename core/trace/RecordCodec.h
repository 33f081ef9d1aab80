#pragma once

#include "trace/TraceRecord.h"

#include <cstdint>
#include <vector>

namespace concorde {

/// The compact encoding of records inside one block: a 4-byte head (class, branch kind, taken,
/// size, operand counts), then varints for the PC (as a delta from the previous record's next
/// PC, almost always 0), the branch target, registers, and memory addresses (deltas from the
/// previous load or store). Encoder and decoder state start fresh for every block.
class RecordCodec {
public:
    /// Every encoded record takes at least this many bytes (a 4-byte head and a PC delta): a
    /// declared record count above bytes / kMinEncodedBytes is damage, not a reason to allocate.
    static constexpr std::size_t kMinEncodedBytes = 5;

    void reset();
    void encode(const TraceRecord& record, std::vector<unsigned char>& out);
    /// Decodes one record from [*cursor, end). Returns false (leaving *cursor unspecified) if the
    /// bytes are not a valid record: truncated, or a field out of its range.
    bool decode(const unsigned char*& cursor, const unsigned char* end, TraceRecord& record);

private:
    std::uint64_t expectedPc_ = 0;
    std::uint64_t lastLoad_ = 0;
    std::uint64_t lastStore_ = 0;
};

} // namespace concorde
