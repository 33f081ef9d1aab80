#pragma once

#include <cstdio>
#include <filesystem>
#include <string>

namespace concorde {

/// A file written under a temporary name beside its destination and renamed into place only by
/// commit(). Until then readers never see a partial file; destroying an uncommitted AtomicFile
/// removes the temporary. This is how every output file of the project is written.
class AtomicFile {
public:
    explicit AtomicFile(std::filesystem::path destination);
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    /// Writes all bytes or throws a runtime error naming the file (e.g. on a full disk).
    void write(const void* data, std::size_t size);
    /// Overwrites bytes at an absolute offset (used to patch a header), then returns to the end.
    void writeAt(std::uint64_t offset, const void* data, std::size_t size);
    std::uint64_t position() const { return position_; }

    /// Flushes, syncs and renames the temporary onto the destination.
    void commit();
    /// Removes the temporary without touching the destination.
    void discard();

    const std::filesystem::path& destination() const { return destination_; }

private:
    [[noreturn]] void fail(const std::string& what);

    std::filesystem::path destination_;
    std::filesystem::path temporary_;
    std::FILE* file_ = nullptr;
    std::uint64_t position_ = 0;
};

} // namespace concorde
