#pragma once

#include <cstdint>
#include <vector>

namespace concorde::varint {

/// LEB128: 7 bits a byte, low bits first, the high bit set on every byte but the last.
inline void put(std::vector<std::uint8_t>& out, std::uint64_t value) {
    while (value >= 0x80) {
        out.push_back(static_cast<std::uint8_t>(value | 0x80));
        value >>= 7;
    }
    out.push_back(static_cast<std::uint8_t>(value));
}

/// Reads one varint at `cursor` (advanced past it). False when the bytes end first or it is
/// longer than ten bytes (not something put() wrote).
inline bool get(const std::uint8_t*& cursor, const std::uint8_t* end, std::uint64_t& value) {
    value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (cursor == end)
            return false;
        const std::uint8_t byte = *cursor++;
        value |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
        if (!(byte & 0x80))
            return true;
    }
    return false;
}

/// Zigzag: small negative and positive deltas both become small unsigned values.
inline std::uint64_t zigzag(std::int64_t value) {
    return (static_cast<std::uint64_t>(value) << 1) ^ static_cast<std::uint64_t>(value >> 63);
}
inline std::int64_t unzigzag(std::uint64_t value) {
    return static_cast<std::int64_t>(value >> 1) ^ -static_cast<std::int64_t>(value & 1);
}

} // namespace concorde::varint
