#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace concorde::zstd {

/// One zstd frame holding `raw`, compressed at `level`. A runtime ConcordeError if zstd fails.
std::vector<std::uint8_t> compress(std::span<const std::uint8_t> raw, int level);

/// The `expectedSize` bytes that the zstd frame `frame` holds. A bad-input ConcordeError naming
/// `what` when the frame is damaged or holds another number of bytes. The caller bounds
/// `expectedSize` (it comes from a header that may itself be damaged).
std::vector<std::uint8_t> decompress(std::span<const std::uint8_t> frame, std::size_t expectedSize,
                                     const std::string& what);

} // namespace concorde::zstd
