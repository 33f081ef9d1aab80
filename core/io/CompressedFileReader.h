#pragma once

#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <vector>

namespace concorde {

/// Reads a file that may be xz- or gzip-compressed (chosen by its leading magic bytes, not its
/// name) as a plain byte stream, in fixed-size chunks: memory use does not depend on file size.
class CompressedFileReader {
public:
    explicit CompressedFileReader(const std::filesystem::path& path);
    ~CompressedFileReader();
    CompressedFileReader(const CompressedFileReader&) = delete;
    CompressedFileReader& operator=(const CompressedFileReader&) = delete;

    /// Fills `buffer` with up to `size` bytes; returns how many (0 only at the end of the data).
    /// Throws a bad-input error naming the file on corrupt compressed data.
    std::size_t read(void* buffer, std::size_t size);
    /// Reads exactly `size` bytes; false at a clean end of data (no bytes available);
    /// throws if the data ends part-way through.
    bool readExactly(void* buffer, std::size_t size);

    /// Bytes of decompressed data delivered so far.
    std::uint64_t position() const { return position_; }

private:
    class Decoder;
    std::filesystem::path path_;
    std::unique_ptr<Decoder> decoder_;
    std::uint64_t position_ = 0;
};

} // namespace concorde
