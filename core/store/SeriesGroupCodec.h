#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace concorde {

/// Several per-window series of equal length, stored row after row: series i is
/// values[i * windows, (i + 1) * windows).
struct SeriesMatrix {
    std::uint32_t count = 0;
    std::uint32_t windows = 0;
    std::vector<float> values;

    std::span<const float> row(std::size_t i) const {
        return {values.data() + i * windows, windows};
    }
    std::span<float> row(std::size_t i) { return {values.data() + i * windows, windows}; }
};

/// The binary encoding of one series group (all series of one name in one region, e.g. the 540
/// ROB series of the default grid) as stored in `series.data`. See docs/database.md.
///
/// Blob = 32-byte header, then one zstd frame. Header, little-endian:
///
///   offset 0   4 bytes  magic "CSG1"
///   offset 4   u16      format version (1)
///   offset 6   u16      reserved, 0
///   offset 8   u32      series count
///   offset 12  u32      windows per series
///   offset 16  u32      quantisation steps per octave (1024)
///   offset 20  u32      payload size (decompressed bytes)
///   offset 24  u32      compressed size (blob size − 32)
///   offset 28  u32      CRC-32 of header bytes 0–27 followed by the compressed bytes
///
/// Payload (decompressed):
///   count × 5 bytes     per series: mode u8 (0 quantised, 1 raw float32), reference u32:
///                       0 = delta against the series' own previous window, r > 0 = delta
///                       against series r − 1 (an earlier quantised series of the group)
///   3 planes            zigzag residuals of every quantised series (series order, window
///                       order), 3 bytes each, split into a low-byte, a middle-byte and a
///                       high-byte plane
///   raw × windows × 4   float32 values of the raw series, in series order
///
/// Quantisation: a value v > 0 is stored as the code round(log2(v) · 1024) + 2^20, zero as code
/// 0. Decoding gives 2^((code − 2^20) / 1024), so the relative error is at most
/// 2^(1/2048) − 1 ≈ 0.034 % (plus float rounding); powers of two — the 64 IPC cap, 1.0 — and zero
/// are exact. A series holding any negative, infinite or NaN value is stored raw (bit exact).
///
/// Why this compresses: neighbouring grid points give nearly identical series (ROB 384 and 512,
/// or two L1i sizes when the data side does not care), so the delta against the best earlier
/// series — chosen per series from the candidates the caller supplies, or the series' own
/// previous window — is mostly zero, and the byte planes put the zeros and the small residuals
/// in long runs that zstd packs tightly.
class SeriesGroupCodec {
public:
    static constexpr std::uint16_t kVersion = 1;
    static constexpr std::size_t kHeaderSize = 32;
    static constexpr std::uint32_t kStepsPerOctave = 1024;
    static constexpr std::uint32_t kCodeOffset = 1u << 20;
    /// Default zstd level: the highest standard level; a region's groups encode in tens of ms.
    static constexpr int kDefaultLevel = 19;

    /// Encodes `series` (count × windows). `candidates[i]` (optional, may be shorter than the
    /// series count) lists earlier series indices (< i) worth trying as delta references for
    /// series i; the encoder keeps whichever gives the fewest non-zero residuals (ties: the
    /// earlier choice, own-previous-window first), so the output is deterministic.
    static std::vector<std::uint8_t>
    encode(const SeriesMatrix& series, const std::vector<std::vector<std::uint32_t>>& candidates,
           int level = kDefaultLevel);

    /// Decodes a blob. Throws a bad-input ConcordeError naming `what` (e.g. "region 3, series
    /// group rob") for anything wrong: too short, wrong magic or version, sizes that disagree,
    /// CRC mismatch, a zstd error, a bad mode or reference, or (when given) a series count or
    /// window count other than expected. Never reads outside the blob.
    static SeriesMatrix decode(std::span<const std::uint8_t> blob, const std::string& what,
                               std::int64_t expectedCount = -1, std::int64_t expectedWindows = -1);

    /// Reads only the header fields (count, windows) after checking magic, version, sizes and
    /// CRC, without decompressing. Throws like decode().
    static SeriesMatrix peekShape(std::span<const std::uint8_t> blob, const std::string& what);

    /// The quantised value the codec would reproduce for `value` (for tests and documentation).
    static float roundTrip(float value);
};

} // namespace concorde
