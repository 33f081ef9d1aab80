#pragma once

#include <cstdint>
#include <string>

namespace concorde::cli {

/// How the commands write sizes and fractions in their reports (one place, so that
/// `info`, `build-db` and `check-monotone` agree).
class TextFormat {
public:
    /// Bytes as kilobytes with one decimal: 12345 → "12.3 kB".
    static std::string kilobytes(std::uint64_t bytes);
    /// A fraction as a percentage with two decimals: 0.1234 → "12.34 %".
    static std::string percent(double fraction);
    /// A change as a signed percentage with two decimals: 0.012 → "+1.20 %".
    static std::string signedPercent(double fraction);
};

} // namespace concorde::cli
