#include "common/ZstdFrame.h"

#include "common/ConcordeError.h"

// ZSTD_getFrameHeader and ZSTD_frameHeader::blockSizeMax (stable since zstd 1.4).
#define ZSTD_STATIC_LINKING_ONLY
#include <algorithm>
#include <memory>
#include <zstd.h>

namespace concorde::zstd {
namespace {

/// Declared sizes up to this are allocated at once (one-shot decompression, the fast path of
/// every real blob); beyond it the output grows with what the frame actually produces.
constexpr std::size_t kUpFrontBytes = std::size_t{16} << 20;

} // namespace

std::vector<std::uint8_t> compress(std::span<const std::uint8_t> raw, int level) {
    std::vector<std::uint8_t> frame(ZSTD_compressBound(raw.size()));
    const std::size_t size =
        ZSTD_compress(frame.data(), frame.size(), raw.data(), raw.size(), level);
    if (ZSTD_isError(size))
        throw runtimeFailure(std::string("zstd compression failed: ") + ZSTD_getErrorName(size));
    frame.resize(size);
    return frame;
}

std::optional<std::uint64_t> decompressedBound(std::span<const std::uint8_t> frames) {
    std::uint64_t bound = 0;
    std::size_t pos = 0;
    while (pos < frames.size()) {
        const std::uint8_t* frame = frames.data() + pos;
        const std::size_t available = frames.size() - pos;
        // Walks and checks every block header of the frame: nothing is decompressed.
        const std::size_t frameBytes = ZSTD_findFrameCompressedSize(frame, available);
        ZSTD_frameHeader header;
        if (ZSTD_isError(frameBytes) || frameBytes > available ||
            ZSTD_getFrameHeader(&header, frame, available) != 0)
            return std::nullopt;
        pos += frameBytes;
        if (header.frameType == ZSTD_skippableFrame)
            continue;
        std::size_t at = header.headerSize;
        const std::size_t end = frameBytes - (header.checksumFlag ? 4 : 0);
        while (at + 3 <= end) {
            const std::uint32_t block = frame[at] | (frame[at + 1] << 8) | (frame[at + 2] << 16);
            const std::uint32_t type = (block >> 1) & 3;
            const std::uint32_t size = block >> 3;
            at += 3;
            // Raw and RLE blocks hold exactly `size` bytes; a compressed one at most a block.
            bound += type == 2 ? header.blockSizeMax : size;
            at += type == 1 ? 1 : size;
            if (block & 1)
                break;
        }
    }
    return bound;
}

std::vector<std::uint8_t> decompress(std::span<const std::uint8_t> frame, std::size_t expectedSize,
                                     const std::string& what) {
    // The size comes from a header that may be damaged or crafted: allocate no more than the
    // frame's blocks can actually produce.
    const std::optional<std::uint64_t> bound = decompressedBound(frame);
    if (!bound)
        throw badInput(what + ": does not decompress (damaged zstd frame)");
    if (expectedSize > *bound)
        throw badInput(what + ": declares " + std::to_string(expectedSize) +
                       " bytes but its compressed frame holds at most " + std::to_string(*bound));
    const auto failed = [&](std::size_t code) {
        return badInput(what + ": does not decompress (" +
                        (ZSTD_isError(code) ? std::string(ZSTD_getErrorName(code)) : "wrong size") +
                        ")");
    };
    // The bound counts each compressed block as a whole block (128 KiB) whatever it holds, so
    // four bytes of frame can vouch for 128 KiB: a large declared size is grown into only as
    // the frame really produces it.
    if (expectedSize <= kUpFrontBytes) {
        std::vector<std::uint8_t> raw(expectedSize);
        const std::size_t got = ZSTD_decompress(raw.data(), raw.size(), frame.data(), frame.size());
        if (ZSTD_isError(got) || got != expectedSize)
            throw failed(got);
        return raw;
    }
    const std::unique_ptr<ZSTD_DStream, std::size_t (*)(ZSTD_DStream*)> stream(ZSTD_createDStream(),
                                                                               ZSTD_freeDStream);
    if (!stream)
        throw runtimeFailure(what + ": cannot start a zstd decompression");
    std::vector<std::uint8_t> raw(kUpFrontBytes);
    ZSTD_inBuffer in{frame.data(), frame.size(), 0};
    ZSTD_outBuffer out{raw.data(), raw.size(), 0};
    for (;;) {
        const std::size_t left = ZSTD_decompressStream(stream.get(), &out, &in);
        if (ZSTD_isError(left))
            throw failed(left);
        if (left == 0 && in.pos == in.size)
            break; // every frame complete
        if (out.pos < out.size) {
            if (in.pos == in.size)
                break; // truncated: the decoder wants input there is not
            continue;
        }
        if (raw.size() > expectedSize)
            break; // more than declared
        // Produced this much for real: room for as much again.
        raw.resize(std::min<std::uint64_t>(2 * raw.size(), std::uint64_t{expectedSize} + 1));
        out = {raw.data(), raw.size(), out.pos};
    }
    if (out.pos != expectedSize || in.pos != in.size)
        throw failed(0);
    raw.resize(expectedSize);
    return raw;
}

} // namespace concorde::zstd
