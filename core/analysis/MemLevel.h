#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace concorde {

/// Where in the memory hierarchy an access was satisfied. Ordered from fastest to slowest, so
/// "the worse of two levels" is std::max.
enum class MemLevel : std::uint8_t { L1, L2, Llc, Dram };
inline constexpr std::size_t kMemLevelCount = 4;

/// Stable names used in reports and CSV: "l1", "l2", "llc", "dram".
inline std::string_view memLevelName(MemLevel level) {
    switch (level) {
    case MemLevel::L1:
        return "l1";
    case MemLevel::L2:
        return "l2";
    case MemLevel::Llc:
        return "llc";
    case MemLevel::Dram:
        return "dram";
    }
    return "?";
}

inline constexpr std::size_t levelIndex(MemLevel level) {
    return static_cast<std::size_t>(level);
}

} // namespace concorde
