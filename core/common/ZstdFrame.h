#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace concorde::zstd {

/// One zstd frame holding `raw`, compressed at `level`. A runtime ConcordeError if zstd fails.
std::vector<std::uint8_t> compress(std::span<const std::uint8_t> raw, int level);

/// An upper bound of the bytes that the zstd frames in `frames` decompress to, read from their
/// block headers without decompressing anything: what to check a declared size against before
/// allocating for it. nullopt when the frames are damaged or truncated.
std::optional<std::uint64_t> decompressedBound(std::span<const std::uint8_t> frames);

/// The `expectedSize` bytes that the zstd frame `frame` holds. A bad-input ConcordeError naming
/// `what` when the frame is damaged or holds another number of bytes. Nothing is allocated for
/// an `expectedSize` beyond decompressedBound(frame), so a damaged header cannot make it
/// allocate more than the frame could hold.
std::vector<std::uint8_t> decompress(std::span<const std::uint8_t> frame, std::size_t expectedSize,
                                     const std::string& what);

} // namespace concorde::zstd
