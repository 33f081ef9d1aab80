#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace concorde::base64 {

/// Standard base64 (RFC 4648, with '=' padding): binary data inside JSON text, such as a
/// region's warm state in a trace's metadata.
std::string encode(const std::vector<std::uint8_t>& bytes);
/// nullopt for text that is not valid padded base64.
std::optional<std::vector<std::uint8_t>> decode(std::string_view text);

} // namespace concorde::base64
