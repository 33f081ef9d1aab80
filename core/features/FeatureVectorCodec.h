#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace concorde {

/// Compact binary form of a float vector (an encoded feature vector or one series), as stored in
/// the feature database. Layout, all little-endian:
///
///   offset 0   4 bytes  magic "CFV1"
///   offset 4   u16      format version (1)
///   offset 6   u16      reserved, 0
///   offset 8   u32      count: number of floats
///   offset 12  u32      CRC-32 (zlib's) of the payload bytes
///   offset 16  count × IEEE-754 float32
///
/// The floats are copied bit for bit, so a round trip is exact (including −0, ±∞ and NaN
/// payloads). decode() rejects anything else with a bad-input ConcordeError that says what is
/// wrong (too short, wrong magic, unsupported version, size not matching the count, checksum
/// mismatch, or a count other than the expected one) and names `what` (e.g. "region 12, block
/// rob").
class FeatureVectorCodec {
public:
    static constexpr std::uint16_t kVersion = 1;
    static constexpr std::size_t kHeaderSize = 16;

    static std::vector<std::uint8_t> encode(std::span<const float> values);
    /// Decodes a blob; with `expectedCount`, a blob holding a different number of floats is an
    /// error too.
    static std::vector<float> decode(std::span<const std::uint8_t> blob,
                                     std::optional<std::size_t> expectedCount = std::nullopt,
                                     const std::string& what = "feature blob");
    /// Size in bytes of the blob of `count` floats.
    static std::size_t encodedSize(std::size_t count) { return kHeaderSize + 4 * count; }
};

} // namespace concorde
