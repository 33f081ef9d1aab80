#pragma once

// On-disk layout of a .ctrace file (all integers little-endian):
//
//   FileHeader (64 bytes)       magic, version, where the metadata section is, counts, CRC
//   Block 0 .. Block n-1        BlockHeader (32 bytes) + zstd frame of encoded records
//   Metadata section            zstd-compressed JSON: ISA, command line, region table,
//                               block index; followed by its CRC-32
//
// The region table sits after the blocks because region lengths are known only when tracing
// ends; the header points to it and is written last, so a file whose writer died has no valid
// header. Each block decodes on its own (delta state resets per block), which makes seeking to a
// region cheap.

#include <array>
#include <cstdint>

namespace concorde::trace_format {

inline constexpr std::array<char, 8> kMagic = {'C', 'T', 'R', 'A', 'C', 'E', '\x1a', '\n'};
/// Version 2 adds each region's functional warm-up (length and warm state) to the region table;
/// version-1 files are still read, their regions cold.
inline constexpr std::uint32_t kVersion = 2;
inline constexpr std::uint32_t kOldestReadableVersion = 1;
inline constexpr std::uint32_t kFileHeaderBytes = 64;
inline constexpr std::uint32_t kBlockHeaderBytes = 32;
inline constexpr std::uint32_t kBlockMagic = 0x4B4C4243; // "CBLK"
inline constexpr std::uint32_t kMaxRecordsPerBlock = 1u << 20;
inline constexpr std::uint32_t kMaxEncodedRecordBytes = 96;
inline constexpr std::uint64_t kMaxMetadataBytes = 1ull << 30;

// FileHeader field offsets.
inline constexpr std::size_t kHeaderVersion = 8;
inline constexpr std::size_t kHeaderHeaderBytes = 12;
inline constexpr std::size_t kHeaderMetadataOffset = 16;
inline constexpr std::size_t kHeaderMetadataBytes = 24;
inline constexpr std::size_t kHeaderRecordCount = 32;
inline constexpr std::size_t kHeaderBlockCount = 40;
inline constexpr std::size_t kHeaderCrc = 60; ///< CRC-32 of bytes [0, 60)

// BlockHeader field offsets.
inline constexpr std::size_t kBlockMagicOffset = 0;
inline constexpr std::size_t kBlockRecordCount = 4;
inline constexpr std::size_t kBlockRawBytes = 8;
inline constexpr std::size_t kBlockCompressedBytes = 12;
inline constexpr std::size_t kBlockFirstRecord = 16;
inline constexpr std::size_t kBlockPayloadCrc = 24; ///< CRC-32 of the compressed payload
inline constexpr std::size_t kBlockHeaderCrc = 28;  ///< CRC-32 of bytes [0, 28)

} // namespace concorde::trace_format
