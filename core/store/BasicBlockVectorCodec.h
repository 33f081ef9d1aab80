#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace concorde {

/// A region's basic-block vector (Region::basicBlockVector: block start PC, instructions executed
/// in it) as stored in `regions.bbv`. Blob, little-endian: u32 entry count, u32 CRC-32 of the
/// bytes after it, then per entry a zigzag varint of the PC minus the previous entry's PC (0 for
/// the first) and a varint of the count. A few hundred bytes for typical regions.
class BasicBlockVectorCodec {
public:
    using Vector = std::vector<std::pair<std::uint64_t, std::uint64_t>>;

    static std::vector<std::uint8_t> encode(const Vector& bbv);
    /// Throws a bad-input ConcordeError naming `what` for a damaged blob.
    static Vector decode(std::span<const std::uint8_t> blob, const std::string& what);
};

} // namespace concorde
