#pragma once

#include <cstddef>
#include <cstdint>

namespace concorde {

/// CRC-32 (IEEE 802.3 polynomial, as zlib computes it). Used to detect corrupt file sections.
/// Pass a previous result as `seed` to continue a running checksum over several buffers.
std::uint32_t crc32(const void* data, std::size_t size, std::uint32_t seed = 0);

} // namespace concorde
