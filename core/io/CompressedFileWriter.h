#pragma once

#include "common/AtomicFile.h"

#include <filesystem>
#include <memory>

namespace concorde {

/// Writes a byte stream to a file, xz-compressed when the name ends in .xz, gzip-compressed for
/// .gz, plain otherwise. Atomic: the file appears only when commit() succeeds.
class CompressedFileWriter {
public:
    explicit CompressedFileWriter(const std::filesystem::path& path);
    ~CompressedFileWriter();
    CompressedFileWriter(const CompressedFileWriter&) = delete;
    CompressedFileWriter& operator=(const CompressedFileWriter&) = delete;

    void write(const void* data, std::size_t size);
    void commit();

private:
    class Encoder;
    std::unique_ptr<Encoder> encoder_;
};

} // namespace concorde
