#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace concorde {

/// L1d stride prefetcher: a PC-indexed reference prediction table (Chen & Baer; the ChampSim
/// "ip_stride" design) that works on cache-line addresses.
///
/// Each entry holds the PC (as tag), the last line that PC loaded, the last line stride and a
/// 2-bit confidence. Accesses to the same line as the previous one by that PC are ignored, so a
/// walk with a stride smaller than a line trains as a stride of one line. A matching stride
/// raises the confidence, a different one lowers it, and the stride is replaced only once the
/// confidence is zero (one irregular access does not break a stream). With confidence ≥ 1 (the
/// same stride seen twice in a row) the prefetcher issues `degree` prefetches:
/// line + k·stride for k = 1..degree. Degree 0 turns it off.
///
/// The table is direct-mapped by a hash of the PC; a conflicting PC replaces the entry.
class StridePrefetcher {
public:
    static constexpr int kMaxDegree = 16;
    /// Confidence at which a stride counts as confirmed.
    static constexpr std::uint8_t kConfidenceThreshold = 1;

    /// `entries` must be a power of two; `degree` in 0..kMaxDegree (bad-input error otherwise).
    explicit StridePrefetcher(int degree = 0, std::uint32_t entries = 256);

    /// Trains on a demand load of `line` by the instruction at `pc` and writes the lines to
    /// prefetch to `out`; returns how many (0..degree).
    int train(std::uint64_t pc, std::uint64_t line, std::array<std::uint64_t, kMaxDegree>& out);

    int degree() const { return degree_; }
    std::uint32_t entries() const { return static_cast<std::uint32_t>(table_.size()); }
    /// Forgets everything learned.
    void reset();

private:
    struct Entry {
        std::uint64_t pc = ~std::uint64_t{0};
        std::uint64_t lastLine = 0;
        std::int64_t stride = 0;
        std::uint8_t confidence = 0;
    };

    int degree_;
    std::uint64_t indexMask_;
    std::vector<Entry> table_;
};

} // namespace concorde
