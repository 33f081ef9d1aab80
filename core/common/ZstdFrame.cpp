#include "common/ZstdFrame.h"

#include "common/ConcordeError.h"

#include <zstd.h>

namespace concorde::zstd {

std::vector<std::uint8_t> compress(std::span<const std::uint8_t> raw, int level) {
    std::vector<std::uint8_t> frame(ZSTD_compressBound(raw.size()));
    const std::size_t size = ZSTD_compress(frame.data(), frame.size(), raw.data(), raw.size(), level);
    if (ZSTD_isError(size))
        throw runtimeFailure(std::string("zstd compression failed: ") + ZSTD_getErrorName(size));
    frame.resize(size);
    return frame;
}

std::vector<std::uint8_t> decompress(std::span<const std::uint8_t> frame, std::size_t expectedSize,
                                     const std::string& what) {
    std::vector<std::uint8_t> raw(expectedSize);
    const std::size_t got = ZSTD_decompress(raw.data(), raw.size(), frame.data(), frame.size());
    if (ZSTD_isError(got) || got != expectedSize)
        throw badInput(what + ": does not decompress (" +
                       (ZSTD_isError(got) ? std::string(ZSTD_getErrorName(got)) : "wrong size") +
                       ")");
    return raw;
}

} // namespace concorde::zstd
