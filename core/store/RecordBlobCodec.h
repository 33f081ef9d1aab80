#pragma once

#include "trace/TraceRecord.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace concorde {

/// The trace records of one region (warm-up first), as stored in `region_records.data`, so that
/// a database is self-contained: `concorde label` simulates regions without the original traces.
///
/// Blob = 24-byte header, then one zstd frame of the records in the .ctrace record encoding
/// (RecordCodec, one stream for the whole region). Header, little-endian:
///
///   offset 0   4 bytes  magic "CRB1"
///   offset 4   u16      format version (1)
///   offset 6   u16      reserved, 0
///   offset 8   u32      record count
///   offset 12  u32      encoded size (decompressed bytes)
///   offset 16  u32      compressed size (blob size − 24)
///   offset 20  u32      CRC-32 of header bytes 0–19 followed by the compressed bytes
///
/// zstd level 9: level 19 saves only ~5 % more on records but costs ~1 s per region.
class RecordBlobCodec {
public:
    static constexpr std::uint16_t kVersion = 1;
    static constexpr std::size_t kHeaderSize = 24;
    static constexpr int kLevel = 9;

    static std::vector<std::uint8_t> encode(std::span<const TraceRecord> records);
    /// Throws a bad-input ConcordeError naming `what` for any damage (sizes, CRC, zstd, a record
    /// that does not decode, or a record count other than `expectedCount` when given).
    static std::vector<TraceRecord> decode(std::span<const std::uint8_t> blob,
                                           const std::string& what,
                                           std::int64_t expectedCount = -1);
};

} // namespace concorde
