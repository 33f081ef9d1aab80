#pragma once

// Shared by the libFuzzer harnesses of tests/fuzz: temporary files for readers that take a path,
// checksum fix-ups, and the rule that a reader may only fail with a ConcordeError.

#include "common/ConcordeError.h"
#include "common/Crc32.h"
#include "common/LittleEndian.h"
#include "common/ZstdFrame.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <span>
#include <string>
#include <unistd.h>
#include <vector>

namespace concorde::fuzz {

/// A private scratch directory for one harness process (in /dev/shm when it exists, so that the
/// readers that take a path do not wear a disk), removed at exit (or by run-one.sh: libFuzzer ends
/// with _exit).
inline const std::filesystem::path& scratchDirectory() {
    static const std::filesystem::path dir = [] {
        std::filesystem::path base = std::filesystem::temp_directory_path();
        std::error_code ec;
        if (std::filesystem::is_directory("/dev/shm", ec))
            base = "/dev/shm";
        std::filesystem::path d = base / ("concorde-fuzz-" + std::to_string(::getpid()));
        std::filesystem::create_directories(d);
        std::atexit([] {
            std::error_code ignored;
            std::filesystem::remove_all(scratchDirectory(), ignored);
        });
        return d;
    }();
    return dir;
}

/// `name` in the scratch directory.
inline std::filesystem::path scratchPath(const std::string& name) {
    return scratchDirectory() / name;
}

/// Writes `bytes` to `path` (replacing it).
inline void writeFile(const std::filesystem::path& path, std::span<const std::uint8_t> bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
}

/// Runs `read`; a ConcordeError is the expected answer to damaged input and is swallowed. Any
/// other exception escapes, so libFuzzer reports it (uncaught exception: abort) as a finding.
template <class Read>
bool expectOnlyConcordeErrors(Read&& read) {
    try {
        read();
        return true;
    } catch (const ConcordeError&) {
        return false;
    }
}

/// Stores at `crcOffset` the CRC-32 of [from, to) of `bytes` (seeded with `seed`) when all of it
/// lies inside: a mutated blob then gets past its checksum, so the fuzzer reaches the parsing
/// behind it. Returns false when the ranges do not fit.
inline bool fixCrc(std::vector<std::uint8_t>& bytes, std::size_t crcOffset, std::size_t from,
                   std::size_t to, std::uint32_t seed = 0) {
    if (crcOffset + 4 > bytes.size() || from > to || to > bytes.size())
        return false;
    le::store32(bytes.data() + crcOffset, crc32(bytes.data() + from, to - from, seed));
    return true;
}

} // namespace concorde::fuzz

namespace concorde::fuzz {

/// For codecs whose blob is a header then one zstd frame: the input `'!' header payload` becomes
/// `header zstd(payload)` with the header's compressed size (at `compressedSizeOffset`) and
/// decompressed size (at `rawSizeOffset`) set, so that the fuzzer mutates the decoded payload
/// directly instead of a compressed frame. Returns nothing for other inputs. The caller fixes
/// the checksum.
inline std::optional<std::vector<std::uint8_t>> framedPayload(std::span<const std::uint8_t> input,
                                                              std::size_t headerSize,
                                                              std::size_t rawSizeOffset,
                                                              std::size_t compressedSizeOffset) {
    if (input.size() < 1 + headerSize || input[0] != '!')
        return std::nullopt;
    const std::span<const std::uint8_t> header = input.subspan(1, headerSize);
    const std::span<const std::uint8_t> payload = input.subspan(1 + headerSize);
    const std::vector<std::uint8_t> frame = zstd::compress(payload, 1);
    std::vector<std::uint8_t> blob(header.begin(), header.end());
    blob.insert(blob.end(), frame.begin(), frame.end());
    le::store32(blob.data() + rawSizeOffset, static_cast<std::uint32_t>(payload.size()));
    le::store32(blob.data() + compressedSizeOffset, static_cast<std::uint32_t>(frame.size()));
    return blob;
}

/// Aborts (a finding) when a decoder returned something that contradicts what it checked.
inline void require(bool condition, const char* what) {
    if (!condition) {
        std::fprintf(stderr, "fuzz invariant broken: %s\n", what);
        std::abort();
    }
}

} // namespace concorde::fuzz
