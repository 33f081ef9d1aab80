#pragma once

#include <cstdint>

namespace concorde {

/// The first 8 bytes every binary blob of the project starts with (feature vectors, series
/// groups, trace records in the database): a 4-byte magic naming the format, a little-endian
/// 16-bit version, and 2 reserved zero bytes. Each codec adds its own fields after it.
struct BlobPreamble {
    static constexpr std::size_t kBytes = 8;

    static void write(unsigned char* p, const unsigned char (&magic)[4], std::uint16_t version) {
        for (int i = 0; i < 4; ++i)
            p[i] = magic[i];
        p[4] = static_cast<unsigned char>(version & 0xff);
        p[5] = static_cast<unsigned char>(version >> 8);
        p[6] = p[7] = 0;
    }
    static bool hasMagic(const unsigned char* p, const unsigned char (&magic)[4]) {
        return p[0] == magic[0] && p[1] == magic[1] && p[2] == magic[2] && p[3] == magic[3];
    }
    static unsigned version(const unsigned char* p) {
        return p[4] | (static_cast<unsigned>(p[5]) << 8);
    }
};

} // namespace concorde
